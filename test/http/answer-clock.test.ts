/** lib/http/answer-clock.ts: --timeout runs from the write or from the server's latest answer, whichever is later. */
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { createServer, connect, type Socket } from 'node:net'
import { AnswerClock, BEHIND_MS, BODY_PROGRESS_BYTES, type AfterPoll } from '../../lib/http/answer-clock.ts'

/** The look once more after the poll for input, at once: the fake clock's turns have no input. */
const AT_ONCE: AfterPoll = (look) => (look(), () => undefined)

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
})
afterEach(() => {
  vi.useRealTimers()
})

test('a request with no answer from the server at all expires --timeout after its write', () => {
  const clock = new AnswerClock(1_000, AT_ONCE)
  const expire = vi.fn()
  clock.start(expire)
  vi.advanceTimersByTime(999)
  expect(expire).not.toHaveBeenCalled()
  vi.advanceTimersByTime(1)
  expect(expire).toHaveBeenCalledTimes(1)
})

test('while the server keeps answering other requests, a queued request does not expire', () => {
  const clock = new AnswerClock(1_000, AT_ONCE)
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
  const clock = new AnswerClock(1_000, AT_ONCE)
  clock.answered(200)
  vi.advanceTimersByTime(500)
  const expire = vi.fn()
  clock.start(expire)
  vi.advanceTimersByTime(1_000)
  expect(expire).toHaveBeenCalledTimes(1)
})

test('a stopped clock never expires', () => {
  const clock = new AnswerClock(1_000, AT_ONCE)
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
  const clock = new AnswerClock(1_000, AT_ONCE)
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

test('a body that keeps coming holds the clock back: a list sent at a gateway\'s bandwidth limit does not expire while it arrives', () => {
  const clock = new AnswerClock(1_000, AT_ONCE)
  const expire = vi.fn()
  clock.start(expire)
  clock.answered(200) // its status line and headers
  // 2 MB at 100 KiB/s (Apache's mod_ratelimit): 20 s, twenty times --timeout, a piece every 100 ms
  for (let elapsed = 0; elapsed < 20_000; elapsed += 100) {
    vi.advanceTimersByTime(100)
    clock.received(10 * 1024)
  }
  expect(expire).not.toHaveBeenCalled()
  // then it stops coming: the request expires --timeout after the last BODY_PROGRESS_BYTES came
  vi.advanceTimersByTime(999)
  expect(expire).not.toHaveBeenCalled()
  vi.advanceTimersByTime(1)
  expect(expire).toHaveBeenCalledTimes(1)
})

test('a body that drips, less than BODY_PROGRESS_BYTES within --timeout, still expires', () => {
  const clock = new AnswerClock(1_000, AT_ONCE)
  const expire = vi.fn()
  clock.start(expire)
  clock.answered(200)
  // a byte every 50 ms: 20 bytes a --timeout
  for (let elapsed = 0; elapsed < 1_000; elapsed += 50) {
    vi.advanceTimersByTime(50)
    clock.received(1)
  }
  expect(expire).toHaveBeenCalledTimes(1)
  expect(BODY_PROGRESS_BYTES).toBeGreaterThan(1_000 / 50)
})

test("a 429's or 503's body is no sign of work either: only a served answer's body is heard", () => {
  const clock = new AnswerClock(1_000, AT_ONCE)
  expect(clock.bodyListener(429)).toBeUndefined()
  expect(clock.bodyListener(503)).toBeUndefined()
  const expire = vi.fn()
  clock.start(expire)
  vi.advanceTimersByTime(900)
  clock.bodyListener(200)!(BODY_PROGRESS_BYTES)
  vi.advanceTimersByTime(999)
  expect(expire).not.toHaveBeenCalled()
  vi.advanceTimersByTime(1)
  expect(expire).toHaveBeenCalledTimes(1)
})

test('a request written behind one that expires waits BEHIND_MS more for the server to answer again, and a full --timeout once it does', () => {
  const clock = new AnswerClock(1_000, AT_ONCE)
  const first = vi.fn()
  const behind = vi.fn()
  // one worker hangs on the first (wsgiref reading a chunked body until the connection closes); the second waits at its door
  clock.start(first)
  vi.advanceTimersByTime(10)
  clock.start(behind)
  vi.advanceTimersByTime(990)
  expect(first).toHaveBeenCalledTimes(1)
  // its own --timeout is up, but the one ahead of it has only now been given up
  vi.advanceTimersByTime(20)
  expect(behind).not.toHaveBeenCalled()
  // the worker, freed, answers within BEHIND_MS: the request waits a --timeout from that answer
  vi.advanceTimersByTime(BEHIND_MS / 2)
  clock.answered(201)
  vi.advanceTimersByTime(999)
  expect(behind).not.toHaveBeenCalled()
  vi.advanceTimersByTime(1)
  expect(behind).toHaveBeenCalledTimes(1)
})

test('on a server that answers nothing, the requests behind the first expire BEHIND_MS after it, not one after another', () => {
  const clock = new AnswerClock(1_000, AT_ONCE)
  const expired: number[] = []
  for (let i = 0; i < 5; i++) {
    clock.start(() => expired.push(performance.now()))
    vi.advanceTimersByTime(1)
  }
  vi.advanceTimersByTime(1_000 + BEHIND_MS + 10)
  expect(expired).toHaveLength(5)
  const [firstAt, ...rest] = expired
  for (const at of rest) expect(at - firstAt!).toBeLessThanOrEqual(BEHIND_MS + 5)
})

// answers-at-a-bandwidth-limit failed on "body did not end within 800 ms" in the kill matrix under
// load: the timer ran before the poll that would have read the bytes already in the socket
test('a clock run out while this process was busy reads what came meanwhile first: a body in the socket holds it back', async () => {
  vi.useRealTimers()
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve))
  const client = connect((server.address() as { port: number }).port, '127.0.0.1')
  const sending = await accepted
  try {
    const clock = new AnswerClock(200)
    let readAt = Number.NaN
    client.on('data', (bytes: Buffer) => ((readAt = performance.now()), clock.received(bytes.byteLength)))
    const expired = new Promise<number>((resolve) => clock.start(() => resolve(performance.now())))
    // the server sends a body's worth while this process is busy past --timeout (a loaded machine's late turn)
    sending.write(Buffer.alloc(BODY_PROGRESS_BYTES))
    const busyUntil = performance.now() + 300
    while (performance.now() < busyUntil);
    // read before the clock is judged: it then runs --timeout from the read, and expires only after it
    expect((await expired) - readAt).toBeGreaterThanOrEqual(199)
  } finally {
    client.destroy()
    sending.destroy()
    server.close()
  }
})
