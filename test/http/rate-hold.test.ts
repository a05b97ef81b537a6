/** lib/http/rate-hold.ts: after a 429, no request goes before the wait it asked for (at most 5 s), and none waits past the run's end. */
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
      hold.hold(100)
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
    hold.hold(60)
    setTimeout(() => hold.hold(60), 30)
    await hold.wait()
    expect(performance.now() - started).toBeGreaterThanOrEqual(85)
  })

  test('a shorter wait does not shorten the hold', async () => {
    const hold = new RateHold(new AbortController().signal)
    const started = performance.now()
    hold.hold(80)
    hold.hold(5)
    await hold.wait()
    expect(performance.now() - started).toBeGreaterThanOrEqual(75)
  })

  test('a Retry-After past 5 s holds the others 5 s, and the run ending releases them at once', async () => {
    vi.useFakeTimers()
    try {
      const end = new AbortController()
      const hold = new RateHold(end.signal)
      hold.hold(3_600_000)
      let released = false
      void hold.wait().then(() => (released = true))
      await vi.advanceTimersByTimeAsync(RATE_HOLD_MAX_MS - 10)
      expect(released).toBe(false)
      await vi.advanceTimersByTimeAsync(20)
      expect(released).toBe(true)
      hold.hold(3_000)
      let releasedAtEnd = false
      void hold.wait().then(() => (releasedAtEnd = true))
      end.abort()
      await vi.advanceTimersByTimeAsync(0)
      expect(releasedAtEnd).toBe(true)
    } finally {
      vi.useRealTimers()
    }
  })
})
