/**
 * A request naming a connection of its own (SendOptions.connection) sent again after its answer
 * was lost goes on a fresh connection (lib/http/client.ts dispatch), not on the named one: it no
 * longer waits there behind the others naming it, so it takes a --concurrency slot of its own
 * rather than sharing theirs (lib/http/named-slots.ts). Sharing, it and the case-swapped key were
 * on the wire at once under one slot: one request more in flight than --concurrency.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { expect, test } from 'vitest'
import { serve, withClient } from './client-harness.ts'

test('a named request resent on a fresh connection holds a slot of its own: never more in flight than --concurrency', async () => {
  let now = 0
  let most = 0
  let dropped = false
  const server = await serve(async (req, res) => {
    if (req.url?.endsWith('/key') && !dropped) {
      dropped = true
      await sleep(50)
      req.socket.destroy() // its answer lost: sent again, on a fresh connection
      return
    }
    most = Math.max(most, ++now)
    await sleep(req.url?.includes('/slow') ? 1_200 : 400)
    now--
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
  })
  await withClient({ baseUrl: server.baseUrl, concurrency: 2, timeoutMs: 10_000 }, async (c) => {
    const key = c.send({ method: 'GET', path: '/key', connection: 'pair' })
    const swapped = c.send({ method: 'GET', path: '/swapped', connection: 'pair' })
    await sleep(20)
    const slow = c.send({ method: 'GET', path: '/slow' })
    const answers = await Promise.all([key, swapped, slow])
    expect(answers.map((a) => a.exchange.response?.status)).toEqual([200, 200, 200])
    expect(answers[0]!.exchange.attempt).toBe(2)
  })
  expect(most).toBeLessThanOrEqual(2)
}, 30_000)
