/**
 * New connections in waves (lib/http/connect-pacing.ts): six at once, the next six once the server
 * has answered on each, or 10 ms later. A burst of 48 handshakes overflowed the listen backlog of
 * Python's http.server (5), whose requests then went unanswered past --timeout.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeEach, expect, test, vi } from 'vitest'
import { ConnectPacing } from '../../lib/http/connect-pacing.ts'
import { originDispatcher } from '../../lib/http/agent.ts'
import { buildConnector } from '../../lib/http/undici-parts.ts'

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

test('six begin at once, the seventh once the server answered on each of them, in the order asked', () => {
  const pacing = new ConnectPacing(6, 10)
  const begun: number[] = []
  const answers: (() => void)[] = []
  for (let i = 0; i < 14; i++) pacing.pace((answered) => (begun.push(i), answers.push(answered)))
  expect(begun).toEqual([0, 1, 2, 3, 4, 5])
  for (const answered of answers.slice(0, 5)) answered()
  expect(begun).toHaveLength(6)
  answers[5]!()
  expect(begun).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
  // the same connection answering twice, or closing after its answer, counts once
  answers[5]!()
  expect(begun).toHaveLength(12)
})

test('a wave the server does not answer on: the next begins 10 ms later, not before', () => {
  const pacing = new ConnectPacing(6, 10)
  const begun: number[] = []
  for (let i = 0; i < 14; i++) pacing.pace(() => begun.push(i))
  vi.advanceTimersByTime(9)
  expect(begun).toHaveLength(6)
  vi.advanceTimersByTime(1)
  expect(begun).toHaveLength(12)
  vi.advanceTimersByTime(10)
  expect(begun).toHaveLength(14)
})

const servers: Server[] = []
afterAll(() => Promise.all(servers.map((s) => new Promise((done) => s.close(done)))))

test('a pool of the client against a server slow to answer: six connections begun at once, the next six 10 ms later', async () => {
  vi.useRealTimers()
  const server = createServer((req, res) => {
    req.resume()
    // every answer 40 ms late: no connection is answered on within the first wave's 10 ms
    setTimeout(() => {
      res.setHeader('content-type', 'application/json')
      res.end('[]')
    }, 40)
  })
  servers.push(server)
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  // the connector the pool is given, seen where the pacing hands a connection over to it
  const begunAt: number[] = []
  const base = buildConnector({})
  const pool = originDispatcher(origin, { connections: 24, connect: ((options, callback) => (begunAt.push(performance.now()), base(options, callback))) as buildConnector.connector })
  try {
    const answers = await Promise.all(Array.from({ length: 24 }, () => pool.request({ method: 'GET', path: '/v1/categories' }).then((r) => (r.body.resume(), r.statusCode))))
    expect(answers.every((status) => status === 200)).toBe(true)
  } finally {
    await pool.close()
  }
  expect(begunAt).toHaveLength(24)
  const first = begunAt[0] as number
  expect(begunAt.slice(0, 6).every((at) => at - first < 5)).toBe(true)
  // setTimeout never fires early by more than its millisecond rounding
  expect((begunAt[6] as number) - first).toBeGreaterThanOrEqual(9)
  expect((begunAt[12] as number) - first).toBeGreaterThanOrEqual(19)
})
