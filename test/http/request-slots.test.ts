/** The slots of lib/http/request-slots.ts: bounded, by priority (gates, critical, other), an abort leaves the queue whole. */
import { expect, test } from 'vitest'
import { RequestSlots } from '../../lib/http/request-slots.ts'

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
