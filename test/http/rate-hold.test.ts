/** lib/http/rate-hold.ts: after a 429 with a Retry-After, no request goes before it has passed (at most 5 s, longer when it was too short), and none waits past the run's end. */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { RATE_HOLD_MAX_MS, RateHold } from '../../lib/http/rate-hold.ts'

/** How long wait() takes, under fake timers, while `advance` ms pass. */
async function heldFor(hold: RateHold, advance: number): Promise<number> {
  const from = Date.now()
  let at = -1
  void hold.wait().then(() => (at = Date.now() - from))
  await vi.advanceTimersByTimeAsync(advance)
  return at
}

describe('RateHold', () => {
  // every test on fake timers: the holds are seconds long
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  test('no hold, or one that has passed: a request goes at once', async () => {
    const hold = new RateHold(new AbortController().signal)
    expect(await heldFor(hold, 0)).toBe(0)
    hold.answered(429, 0, 1_000, '1')
    await vi.advanceTimersByTimeAsync(1_000)
    expect(await heldFor(hold, 0)).toBe(0)
  })

  test('a request waits out the hold; a later 429 moves it on while it waits; a shorter one does not shorten it', async () => {
    const hold = new RateHold(new AbortController().signal)
    hold.answered(429, 0, 1_000, '1')
    setTimeout(() => hold.answered(429, 0, 1_000, '1'), 500)
    expect(await heldFor(hold, 2_000)).toBe(1_500)
    hold.answered(429, 0, 3_000, '3')
    hold.answered(429, 0, 1_000, '1')
    expect(await heldFor(hold, 4_000)).toBe(3_000)
  })

  test('a 429 without Retry-After holds nothing: its resend waits its own wait, drawn apart from the others (nginx limit_req)', async () => {
    const hold = new RateHold(new AbortController().signal)
    expect(hold.answered(429, 0, 1_234, undefined)).toBe(0)
    expect(await heldFor(hold, 0)).toBe(0)
  })

  test('a 429 soon after a hold ended doubles the next hold (a window longer than the Retry-After), up to 5 s; one long after does not', async () => {
    const hold = new RateHold(new AbortController().signal)
    hold.answered(429, 0, 1_000, '1')
    expect(await heldFor(hold, 1_000)).toBe(1_000)
    for (const doubled of [2_000, 4_000, RATE_HOLD_MAX_MS]) {
      await vi.advanceTimersByTimeAsync(10) // the released requests are refused again at once
      hold.answered(429, 0, 1_000, '1')
      expect(await heldFor(hold, doubled)).toBe(doubled)
    }
    await vi.advanceTimersByTimeAsync(60_000) // served for a minute
    hold.answered(429, 0, 1_000, '1')
    expect(await heldFor(hold, 1_000)).toBe(1_000)
  })

  test('a hold after which some request was served was long enough: the next 429 holds as long as it asks (a fixed window that keeps its word)', async () => {
    const hold = new RateHold(new AbortController().signal)
    hold.answered(429, 0, 1_000, '1')
    await vi.advanceTimersByTimeAsync(1_000)
    const released = await hold.wait()
    expect(hold.answered(200, released, undefined)).toBe(0)
    await vi.advanceTimersByTimeAsync(10)
    expect(hold.answered(429, released, 1_000, '1')).toBe(1_000)
    // an answer to a request sent before that hold ended is no sign it was long enough
    await vi.advanceTimersByTimeAsync(1_000)
    hold.answered(200, released, undefined)
    await vi.advanceTimersByTimeAsync(10)
    expect(hold.answered(429, released, 1_000, '1')).toBe(2_000)
  })

  test('a Retry-After past 5 s holds the others 5 s, and the run ending releases them at once', async () => {
    const end = new AbortController()
    const hold = new RateHold(end.signal)
    hold.answered(429, 0, 3_600_000, '3600')
    let released = false
    void hold.wait().then(() => (released = true))
    await vi.advanceTimersByTimeAsync(RATE_HOLD_MAX_MS - 10)
    expect(released).toBe(false)
    await vi.advanceTimersByTimeAsync(20)
    expect(released).toBe(true)
    hold.answered(429, 0, 3_000, '3')
    let releasedAtEnd = false
    void hold.wait().then(() => (releasedAtEnd = true))
    expect(hold.heldAtTheEnd).toBe(false)
    end.abort()
    await vi.advanceTimersByTimeAsync(0)
    expect(releasedAtEnd).toBe(true)
    // the run ended while a request was held: the 429s outlasted it (HttpClient.outlasted)
    expect(hold.heldAtTheEnd).toBe(true)
  })
})
