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
import { inPieces } from '../../lib/http/body-pieces.ts'
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

// early13: an answer that came before the request's last byte was written is told, so the reports can say it
test('an answer whose head came before the body was written whole (a body in pieces, answered on the head) is told; one answered after the whole body is not', async () => {
  const early = createServer((req, res) => {
    res.end('answered on the head')
    req.resume()
  })
  const late = createServer((req, res) => void req.resume().on('end', () => res.end('answered after the body')))
  await new Promise<void>((resolve) => early.listen(0, '127.0.0.1', resolve))
  await new Promise<void>((resolve) => late.listen(0, '127.0.0.1', resolve))
  const at = (server: typeof early) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const agent = new Agent()
  const pool = watchingWrites(agent)
  const send = async (to: string) => {
    let told = false
    const body = inPieces(Buffer.from('{"name":"in two pieces"}'), 5, () => false)
    const response = await pool.request({ origin: to, path: '/', method: 'POST', headers: { 'content-length': '24' }, body, opaque: { onWritten: () => undefined, onAnsweredEarly: () => (told = true) } })
    await response.body.text()
    return told
  }
  try {
    expect(await send(at(early))).toBe(true)
    expect(await send(at(late))).toBe(false)
  } finally {
    await agent.close()
    for (const server of [early, late]) {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
})
