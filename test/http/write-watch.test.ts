/**
 * lib/http/write-watch.ts: a request is said written once, when undici hands it to a connection,
 * before its answer: the journal's on-wire line and --timeout start there. Through request() (the
 * handler API undici 7's request() speaks) and through a handler of undici's newer API (what a
 * later request() may speak): never not at all, or a request would wait out the run's deadline.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Agent, type Dispatcher } from 'undici'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { watchingWrites } from '../../lib/http/write-watch.ts'

let origin = ''
const server = createServer((_req, res) => void setTimeout(() => res.end('answer'), 20))
beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => ((origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`), resolve()))))
afterAll(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))))

test('request(): written once, before the answer, on a pool of one connection that makes the second wait its turn', async () => {
  const agent = new Agent({ connections: 1 })
  const pool = watchingWrites(agent)
  const events: string[] = []
  const send = async (n: number) => {
    const response = await pool.request({ origin, path: '/', method: 'GET', opaque: { onWritten: () => events.push(`written ${n}`) } })
    events.push(`answered ${n}: ${await response.body.text()}`)
  }
  await Promise.all([send(1), send(2)])
  await agent.close()
  expect(events).toEqual(['written 1', 'answered 1: answer', 'written 2', 'answered 2: answer'])
})

test("a handler of undici's newer API: written once, before the answer", async () => {
  const agent = new Agent({ connections: 1 })
  const pool = watchingWrites(agent)
  const events: string[] = []
  await new Promise<void>((resolve, reject) => {
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart: () => undefined,
      onResponseStart: (_controller, statusCode) => void events.push(`status ${statusCode}`),
      onResponseData: () => undefined,
      onResponseEnd: () => resolve(),
      onResponseError: (_controller, error) => reject(error),
    }
    pool.dispatch({ origin, path: '/', method: 'GET', opaque: { onWritten: () => events.push('written') } } as Dispatcher.DispatchOptions, handler)
  })
  await agent.close()
  expect(events).toEqual(['written', 'status 200'])
})
