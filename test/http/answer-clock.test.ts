/** lib/http/answer-clock.ts: --timeout runs from the write or from the server's latest answer, whichever is later. */
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { AnswerClock } from '../../lib/http/answer-clock.ts'

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
})
afterEach(() => {
  vi.useRealTimers()
})

test('a request with no answer from the server at all expires --timeout after its write', () => {
  const clock = new AnswerClock(1_000)
  const expire = vi.fn()
  clock.start(expire)
  vi.advanceTimersByTime(999)
  expect(expire).not.toHaveBeenCalled()
  vi.advanceTimersByTime(1)
  expect(expire).toHaveBeenCalledTimes(1)
})

test('while the server keeps answering other requests, a queued request does not expire', () => {
  const clock = new AnswerClock(1_000)
  const expire = vi.fn()
  clock.start(expire)
  // a server that answers one request at a time, every 300 ms, for 3 s
  for (let elapsed = 0; elapsed < 3_000; elapsed += 300) {
    vi.advanceTimersByTime(300)
    clock.answered(200)
  }
  expect(expire).not.toHaveBeenCalled()
  // then it goes quiet: the request expires --timeout after the last answer, not before
  vi.advanceTimersByTime(999)
  expect(expire).not.toHaveBeenCalled()
  vi.advanceTimersByTime(1)
  expect(expire).toHaveBeenCalledTimes(1)
})

test('an answer before the write does not lengthen the request\'s wait', () => {
  const clock = new AnswerClock(1_000)
  clock.answered(200)
  vi.advanceTimersByTime(500)
  const expire = vi.fn()
  clock.start(expire)
  vi.advanceTimersByTime(1_000)
  expect(expire).toHaveBeenCalledTimes(1)
})

test('a stopped clock never expires', () => {
  const clock = new AnswerClock(1_000)
  const expire = vi.fn()
  const stop = clock.start(expire)
  vi.advanceTimersByTime(400)
  clock.answered(200)
  vi.advanceTimersByTime(700)
  stop()
  vi.advanceTimersByTime(5_000)
  expect(expire).not.toHaveBeenCalled()
})

test('a 429 or 503 is no sign of work: answers a limiter gives at once do not hold the clock back', () => {
  const clock = new AnswerClock(1_000)
  const expire = vi.fn()
  clock.start(expire)
  for (let elapsed = 0; elapsed < 900; elapsed += 300) {
    vi.advanceTimersByTime(300)
    clock.answered(elapsed % 600 === 0 ? 429 : 503)
  }
  vi.advanceTimersByTime(100)
  expect(expire).toHaveBeenCalledTimes(1)
  expect(clock.answeredAny).toBe(true)
  expect(clock.servedSince(Number.NEGATIVE_INFINITY)).toBe(false)
})
