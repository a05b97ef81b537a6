/** The slots of lib/http/request-slots.ts: bounded, by priority (gates, critical, other), an abort leaves the queue whole. */
import { setMaxListeners } from 'node:events'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { closesItsConnection } from '../../lib/http/interim-answers.ts'
import { CLOSING_EVIDENCE, CLOSING_SLOTS, RequestSlots, type Release } from '../../lib/http/request-slots.ts'

test('a waiter whose signal aborts is rejected with its reason and leaves the others their turn', async () => {
  const slots = new RequestSlots(1)
  const never = new AbortController().signal
  const first = await slots.acquire('other', never)
  const leaving = new AbortController()
  const order: string[] = []
  const aborted = slots.acquire('other', leaving.signal).then(
    () => order.push('aborted one granted'),
    (reason: unknown) => order.push(`aborted one rejected: ${String(reason)}`),
  )
  const other = slots.acquire('other', never).then((release) => (order.push('other granted'), release))
  const critical = slots.acquire('critical', never).then((release) => (order.push('critical granted'), release))
  leaving.abort('gone')
  await aborted
  first()
  ;(await critical)()
  ;(await other)()
  expect(order).toEqual(['aborted one rejected: gone', 'critical granted', 'other granted'])
})

test('a request other requests wait for is granted before the rest of the critical path, which goes before the others', async () => {
  const slots = new RequestSlots(1)
  const never = new AbortController().signal
  const order: string[] = []
  // one slot: each grant is released a turn later, so the queue is granted one by one, in its order
  const priorities = ['other', 'critical', 'gates', 'critical', 'other'] as const
  await Promise.all(priorities.map((priority, i) => slots.acquire(priority, never).then((release) => (order.push(`${priority} ${i}`), setImmediate(release)))))
  expect(order).toEqual(['gates 2', 'critical 1', 'critical 3', 'other 0', 'other 4'])
})

describe('slots open in waves of six (how many connections a run opens)', () => {
  // each test's waiters are withdrawn and its grants released after it: a client left at work
  // would count among the process's (the busy share, test/http/busy-share.test.ts)
  let stop: AbortController
  let granted: Release[]
  beforeEach(() => {
    // performance too: the slots take a wave that fired late by real time for a busy client, and a
    // loaded machine made the first wave's 10 faked ms later than 15 real ones
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance'] })
    stop = new AbortController()
    // the waiters all listen to it, as a run's do to its end (lib/http/client.ts marks that signal the same way)
    setMaxListeners(0, stop.signal)
    granted = []
  })
  afterEach(() => {
    stop.abort('the test ended')
    granted.splice(0).forEach((release) => release())
    vi.useRealTimers()
  })
  /** `n` requests for `slots`; each grant is kept for the end of the test, and handed to `then`. */
  const request = (slots: RequestSlots, n: number, then: (release: Release) => void = () => undefined) => {
    for (let i = 0; i < n; i++) {
      void slots.acquire('other', stop.signal).then(
        (release) => (granted.push(release), then(release)),
        () => undefined,
      )
    }
  }
  // the event loop's busy share, as the slots would measure it: fake timers leave the real one meaningless
  const idle = () => () => 0

  test('six at once; six more once requests waited a wave with every slot in use and no answer; at most --concurrency', async () => {
    const slots = new RequestSlots(20, 6, 10, idle)
    request(slots, 30)
    await vi.advanceTimersByTimeAsync(0)
    expect([granted.length, slots.limit]).toEqual([6, 6])
    await vi.advanceTimersByTimeAsync(10)
    expect([granted.length, slots.limit]).toEqual([12, 12])
    await vi.advanceTimersByTimeAsync(20)
    expect([granted.length, slots.limit]).toEqual([20, 20])
  })

  test('a client busy most of the wave (the other runs of a fleet keep its event loop busy): no wave opens, however long the server is silent', async () => {
    const slots = new RequestSlots(20, 6, 10, () => () => 0.8)
    request(slots, 30)
    await vi.advanceTimersByTimeAsync(50)
    expect([granted.length, slots.limit]).toEqual([6, 6])
  })

  test('a server that answers within the wave: its freed slots are used again, and no more open', async () => {
    const slots = new RequestSlots(20, 6, 10, idle)
    const releases: Release[] = []
    request(slots, 30, (release) => releases.push(release))
    await vi.advanceTimersByTimeAsync(0)
    for (let wave = 0; wave < 3; wave++) {
      await vi.advanceTimersByTimeAsync(5)
      releases.shift()!()
      await vi.advanceTimersByTimeAsync(5)
    }
    expect([releases.length, slots.limit]).toEqual([6, 6])
  })

  test('narrowing halves the slots open now, not --concurrency', async () => {
    const slots = new RequestSlots(48, 6, 10)
    expect([slots.narrow(), slots.limit]).toEqual([3, 3])
  })

  // HTTPServer over HTTP/1.0, one thread, 100 ms an answer: each request a new connection, held in
  // its backlog of 5; 48 at once overflowed it, and POSTs waited past --timeout for handshakes resent
  test(`answers that close their connections, ${CLOSING_EVIDENCE} in a row: ${CLOSING_SLOTS} at most, no wave past it; one kept alive lifts it`, async () => {
    const slots = new RequestSlots(48, 6, 10, idle)
    const releases: Release[] = []
    request(slots, 100, (release) => releases.push(release))
    await vi.advanceTimersByTimeAsync(100) // the server silent 100 ms: the waves opened every slot
    expect([releases.length, slots.limit]).toEqual([48, 48])
    for (let i = 0; i < CLOSING_EVIDENCE; i++) {
      slots.answered(true)
      releases.shift()!()
      await vi.advanceTimersByTimeAsync(0)
    }
    // the freed slots before the last went to new requests, the last not: those in flight finish, and
    // none is granted until fewer than five are, nor a wave opened while the server is slow
    expect([releases.length, slots.limit]).toEqual([47, CLOSING_SLOTS])
    for (let inFlight = 47; inFlight > CLOSING_SLOTS; inFlight--) {
      slots.answered(true)
      releases.shift()!()
      await vi.advanceTimersByTimeAsync(100)
      expect(releases.length).toBe(inFlight - 1)
    }
    await vi.advanceTimersByTimeAsync(500)
    expect([releases.length, slots.limit]).toEqual([CLOSING_SLOTS, CLOSING_SLOTS])
    // an answer that kept its connection: the slots open before are open again, at once
    slots.answered(false)
    await vi.advanceTimersByTimeAsync(0)
    expect([releases.length, slots.limit]).toEqual([48, 48])
  })
})

test('an answer closes its connection with Connection: close, or in HTTP/1.0 without keep-alive', () => {
  expect(closesItsConnection('close', false)).toBe(true)
  expect(closesItsConnection('Keep-Alive, Close', false)).toBe(true)
  expect(closesItsConnection(undefined, true)).toBe(true)
  expect(closesItsConnection('keep-alive', true)).toBe(false)
  expect(closesItsConnection(undefined, false)).toBe(false)
  expect(closesItsConnection(['keep-alive'], false)).toBe(false)
})
