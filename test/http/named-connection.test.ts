/**
 * A connection of its own (SendOptions.connection): two requests sent at once on it go one after
 * the other on that one connection, whatever the run's other requests hold. The case-swapped key
 * after the key (suites/areas/authentication.ts) waited for one of the --concurrency slots behind the
 * run's other requests; under load the wait passed the second the client keeps a connection idle,
 * it went on a new connection, and the mutation header-values-cached-per-connection (Jetty 9.4's
 * cache of a connection's header values) survived two kill-matrix runs (hostile12).
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { expect, test } from 'vitest'
import { serve, withClient } from './client-harness.ts'

test('the second request on a connection of its own goes on it right after the first, while the bounded slots are all taken', async () => {
  const ports = new Map<string, number>()
  const server = await serve(async (req, res) => {
    ports.set(req.url ?? '', req.socket.remotePort ?? 0)
    if (req.url?.includes('/slow')) await sleep(1_500)
    if (req.url?.endsWith('/key')) await sleep(300)
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
  })
  await withClient({ baseUrl: server.baseUrl, concurrency: 2, timeoutMs: 10_000 }, async (c) => {
    const held = [c.send({ method: 'GET', path: '/slow-a' })]
    const key = c.send({ method: 'GET', path: '/key', connection: 'pair' })
    await sleep(100)
    // both slots taken: requests of the critical path queued before the second for the slots, which the first's answer frees
    held.push(c.send({ method: 'GET', path: '/slow-c1', critical: true }), c.send({ method: 'GET', path: '/slow-c2', critical: true }))
    const swapped = c.send({ method: 'GET', path: '/swapped', connection: 'pair' })
    const answers = await Promise.all([key, swapped, ...held])
    expect(answers.map((a) => a.exchange.response?.status)).toEqual([200, 200, 200, 200, 200])
  })
  expect(ports.get('/v1/swapped') ?? ports.get('/swapped')).toBe(ports.get('/v1/key') ?? ports.get('/key'))
}, 30_000)
