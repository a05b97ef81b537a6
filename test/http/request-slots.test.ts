/** The slots of lib/http/request-slots.ts: bounded, critical first, an abort leaves the queue whole. */
import { expect, test } from 'vitest'
import { RequestSlots } from '../../lib/http/request-slots.ts'

test('a waiter whose signal aborts is rejected with its reason and leaves the others their turn', async () => {
  const slots = new RequestSlots(1)
  const never = new AbortController().signal
  const first = await slots.acquire(false, never)
  const leaving = new AbortController()
  const order: string[] = []
  const aborted = slots.acquire(false, leaving.signal).then(
    () => order.push('aborted one granted'),
    (reason: unknown) => order.push(`aborted one rejected: ${String(reason)}`),
  )
  const other = slots.acquire(false, never).then((release) => (order.push('other granted'), release))
  const critical = slots.acquire(true, never).then((release) => (order.push('critical granted'), release))
  leaving.abort('gone')
  await aborted
  first()
  ;(await critical)()
  ;(await other)()
  expect(order).toEqual(['aborted one rejected: gone', 'critical granted', 'other granted'])
})
