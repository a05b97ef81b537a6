/** The slot of lib/http/named-slots.ts: the requests naming one connection hold one --concurrency slot among them. */
import { expect, test } from 'vitest'
import { NamedSlots } from '../../lib/http/named-slots.ts'
import { RequestSlots } from '../../lib/http/request-slots.ts'

const never = new AbortController().signal
const granted = async (waiting: Promise<unknown>): Promise<boolean> => {
  let done = false
  void waiting.then(() => (done = true), () => (done = true))
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve))
  return done
}

test('a pair naming one connection holds one slot: the second goes at once with the first, the slot is free when both end', async () => {
  const slots = new RequestSlots(2)
  const named = new NamedSlots(slots)
  const first = await named.acquire('pair', 'other', never)
  const second = await named.acquire('pair', 'other', never) // shared at once, though one slot is all it holds
  const other = await slots.acquire('other', never) // the second slot is still free
  const third = slots.acquire('other', never)
  expect(await granted(third)).toBe(false) // both slots held: the pair's and the other's
  first()
  expect(await granted(third)).toBe(false) // the pair's second still holds it
  second()
  expect(await granted(third)).toBe(true)
  other()
  ;(await third)()
})

test('the pair waits for a slot as any request does, beside the bounded ones no more', async () => {
  const slots = new RequestSlots(1)
  const named = new NamedSlots(slots)
  const held = await slots.acquire('other', never)
  const pair = [named.acquire('pair', 'other', never), named.acquire('pair', 'other', never)]
  expect(await granted(Promise.all(pair))).toBe(false)
  held()
  const [a, b] = await Promise.all(pair)
  a!()
  b!()
})

test("the first one's signal aborting its wait leaves the rest waiting for a slot of their own", async () => {
  const slots = new RequestSlots(1)
  const named = new NamedSlots(slots)
  const held = await slots.acquire('other', never)
  const leaving = new AbortController()
  const first = named.acquire('pair', 'other', leaving.signal)
  const second = named.acquire('pair', 'other', never)
  leaving.abort('gone')
  await expect(first).rejects.toBe('gone')
  expect(await granted(second)).toBe(false)
  held()
  ;(await second)()
  const after = slots.acquire('other', never)
  expect(await granted(after)).toBe(true) // nothing left held
  ;(await after)()
})
