/**
 * http:// to a port that speaks HTTP/2 only, without TLS (h2c with prior knowledge: Node's
 * http2.createServer(), Go's h2c handler, a gRPC gateway): it answers each HTTP/1.1 request with a
 * SETTINGS frame and a GOAWAY. Before, that was a FAIL (exit 1) of 17 rules with 571 checks failed on
 * "malformed HTTP response"; now the address is wrong, not the service, as for a port that speaks
 * TLS (lib/result/speaks-tls.ts, lib/runner/tls-port.ts): exit 2, one line that says what to give.
 */
import { randomBytes } from 'node:crypto'
import { createServer as createH2cServer } from 'node:http2'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { afterAll, describe, expect, test } from 'vitest'
import { TlsPortWatch } from '../../lib/runner/tls-port.ts'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess } from '../helpers/run-conform.ts'

const KEY = `h2c-${randomBytes(12).toString('hex')}`
const closers: (() => unknown)[] = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

/** A port of HTTP/2 only, without TLS, that would answer every stream with an empty list. */
async function h2cPort(): Promise<{ port: number; streams: () => number }> {
  let streams = 0
  const server = createH2cServer((_req, res) => (streams++, res.writeHead(200, { 'content-type': 'application/json' }), res.end('[]')))
  // a client that goes away mid-frame is normal here
  server.on('sessionError', () => {})
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(() => new Promise((resolve) => server.close(resolve)))
  return { port: (server.address() as AddressInfo).port, streams: () => streams }
}

describe('http:// to a port that speaks HTTP/2 only (h2c)', () => {
  test('exit 2, the problem first with what to give, no rule failed, no request reached it as a stream', async () => {
    const { port, streams } = await h2cPort()
    const run = await runConformInProcess(['--base-url', `http://127.0.0.1:${port}/v1`, '--timeout', '2000'], { env: { CONFORM_API_KEY: KEY } })
    closers.push(() => run.cleanup())
    expect(run.code, run.stdout).toBe(2)
    // the requests after the first few were not sent once the port answered the preface (lib/runner/tls-port.ts)
    const notSent = (run.results?.journal ?? []).filter((e) => e.reason === 'misdirected' || e.error === 'WRONG_PORT').length
    expect(notSent).toBeGreaterThan(100)
    const message = `127.0.0.1:${port} speaks HTTP/2 only (h2c): it answered the suite's HTTP/1.1 requests with HTTP/2 frames (the run sent no more: ${notSent} requests not sent); give the base URL of the service's HTTP/1.1 port, or its https:// address (https://127.0.0.1:${port}/v1) if it offers HTTP/1.1 there`
    expect(run.results?.problems[0]).toEqual({ kind: 'speaks-h2c', message })
    expect(run.stdout).toContain(`✗ ${message}`)
    expect(run.stdout).toContain('Verdict: INCOMPLETE (exit 2)')
    expect((run.results?.rules ?? []).filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
    const unverified = (run.results?.rules ?? []).flatMap((r) => r.checks).filter((c) => c.cause === 'speaks-h2c')
    expect(unverified.length).toBeGreaterThan(20)
    // the preface the probe sent is no request: the port saw none of the suite's
    expect(streams()).toBe(0)
  }, 120_000)

  test('a port of plain HTTP/1.1 that answers the preface with a 400 is no h2c port', async () => {
    const server = await startReferenceServer({ apiKey: KEY })
    closers.push(() => server.close())
    const watch = new TlsPortWatch(server.baseUrl, () => 2_000)
    for (let i = 0; i < 3; i++) {
      watch.append({ id: String(i), phase: 'on-wire', at: '', method: 'GET', url: `${server.baseUrl}/categories` })
      watch.append({ id: String(i), phase: 'ended', at: '', method: 'GET', url: `${server.baseUrl}/categories`, error: 'PROTOCOL_ERROR' })
    }
    expect(await watch.ended()).toBeUndefined()
    expect([watch.speaksTls, watch.speaksH2c, watch.speaksOther]).toEqual([false, false, false])
  })

  test('a port that speaks HTTP/1.1 and h2c both (Go\'s h2c.NewHandler, hyper, Envoy), whose first requests were cut with no byte of answer (a restart behind a proxy): the run is not stopped', async () => {
    // the HTTP/2 preface gets a SETTINGS frame; an HTTP/1.1 request, a 200 (after the first three, cut as a restart cuts them)
    const server = createNetServer((socket) =>
      socket.once('data', (chunk: Buffer) => {
        if (chunk.toString('latin1').startsWith('PRI * HTTP/2.0')) return void socket.write(Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]))
        socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]')
      }),
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    closers.push(() => new Promise((resolve) => server.close(resolve)))
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
    const watch = new TlsPortWatch(baseUrl, () => 2_000)
    for (let i = 0; i < 3; i++) {
      watch.append({ id: String(i), phase: 'on-wire', at: '', method: 'GET', url: `${baseUrl}/categories` })
      watch.append({ id: String(i), phase: 'ended', at: '', method: 'GET', url: `${baseUrl}/categories`, error: 'CONNECTION_RESET' })
    }
    await watch.asking
    // its answers to HTTP/1.1 were never HTTP/2 frames: a port that speaks HTTP/2 only answers them so (the test above)
    expect(watch.wrongPort.aborted).toBe(false)
  })
})
