/** lib/http/rate-hold.ts: after a 429, no request goes before the wait it asked for (at most 5 s, longer when it was too short), and none waits past the run's end. */
import { describe, expect, test, vi } from 'vitest'
import { RATE_HOLD_MAX_MS, RateHold } from '../../lib/http/rate-hold.ts'

describe('RateHold', () => {
  test('no hold, or one that has passed: a request goes at once', async () => {
    vi.useFakeTimers()
    try {
      const hold = new RateHold(new AbortController().signal)
      let released = false
      void hold.wait().then(() => (released = true))
      await vi.advanceTimersByTimeAsync(0)
      expect(released).toBe(true)
      hold.answered(429, 0, 100)
      await vi.advanceTimersByTimeAsync(100)
      let again = false
      void hold.wait().then(() => (again = true))
      await vi.advanceTimersByTimeAsync(0)
      expect(again).toBe(true)
    } finally {
      vi.useRealTimers()
    }
  })

  test('a request waits out the hold, and a later 429 moves it on while it waits', async () => {
    const hold = new RateHold(new AbortController().signal)
    const started = performance.now()
    hold.answered(429, 0, 60)
    setTimeout(() => hold.answered(429, 0, 60), 30)
    await hold.wait()
    expect(performance.now() - started).toBeGreaterThanOrEqual(85)
  })

  test('a shorter wait does not shorten the hold', async () => {
    const hold = new RateHold(new AbortController().signal)
    const started = performance.now()
    hold.answered(429, 0, 80)
    hold.answered(429, 0, 5)
    await hold.wait()
    expect(performance.now() - started).toBeGreaterThanOrEqual(75)
  })

  test('a 429 soon after a hold ended doubles the next hold (a window longer than the Retry-After), up to 5 s; one long after does not', async () => {
    vi.useFakeTimers()
    try {
      const hold = new RateHold(new AbortController().signal)
      const heldFor = async () => {
        const from = Date.now()
        await hold.wait()
        return Date.now() - from
      }
      hold.answered(429, 0, 1_000)
      expect(await Promise.all([heldFor(), vi.advanceTimersByTimeAsync(1_000)]).then(([ms]) => ms)).toBe(1_000)
      for (const doubled of [2_000, 4_000, RATE_HOLD_MAX_MS]) {
        await vi.advanceTimersByTimeAsync(10) // the released requests are refused again at once
        hold.answered(429, 0, 1_000)
        expect(await Promise.all([heldFor(), vi.advanceTimersByTimeAsync(doubled)]).then(([ms]) => ms)).toBe(doubled)
      }
      await vi.advanceTimersByTimeAsync(60_000) // served for a minute
      hold.answered(429, 0, 1_000)
      expect(await Promise.all([heldFor(), vi.advanceTimersByTimeAsync(1_000)]).then(([ms]) => ms)).toBe(1_000)
    } finally {
      vi.useRealTimers()
    }
  })

  test('a hold after which some request was served was long enough: the next 429 holds as long as it asks (a fixed window that keeps its word)', async () => {
    vi.useFakeTimers()
    try {
      const hold = new RateHold(new AbortController().signal)
      hold.answered(429, 0, 1_000)
      await vi.advanceTimersByTimeAsync(1_000)
      const released = await hold.wait()
      expect(hold.answered(200, released, undefined)).toBe(0)
      await vi.advanceTimersByTimeAsync(10)
      expect(hold.answered(429, released, 1_000)).toBe(1_000)
      // an answer to a request sent before that hold ended is no sign it was long enough
      await vi.advanceTimersByTimeAsync(1_000)
      hold.answered(200, released, undefined)
      await vi.advanceTimersByTimeAsync(10)
      expect(hold.answered(429, released, 1_000)).toBe(2_000)
    } finally {
      vi.useRealTimers()
    }
  })

  test('a Retry-After past 5 s holds the others 5 s, and the run ending releases them at once', async () => {
    vi.useFakeTimers()
    try {
      const end = new AbortController()
      const hold = new RateHold(end.signal)
      hold.answered(429, 0, 3_600_000, '3600')
      let released = false
      void hold.wait().then(() => (released = true))
      await vi.advanceTimersByTimeAsync(RATE_HOLD_MAX_MS - 10)
      expect(released).toBe(false)
      await vi.advanceTimersByTimeAsync(20)
      expect(released).toBe(true)
      hold.answered(429, 0, 3_000)
      let releasedAtEnd = false
      void hold.wait().then(() => (releasedAtEnd = true))
      expect(hold.heldAtTheEnd).toBe(false)
      end.abort()
      await vi.advanceTimersByTimeAsync(0)
      expect(releasedAtEnd).toBe(true)
      // the run ended while a request was held: the 429s outlasted it (HttpClient.outlasted)
      expect(hold.heldAtTheEnd).toBe(true)
    } finally {
      vi.useRealTimers()
    }
  })
})
