/**
 * http:// to a port that speaks TLS (lib/result/speaks-tls.ts, lib/runner/tls-port.ts): a wrong
 * address, not a service that broke every rule. Before, every request met a connection closed
 * without an answer, 1,395 were sent again, and the run was a FAIL of 17 rules; then an INCOMPLETE
 * run that asked the port only at its end, after those resends (10.4 s; 0.2 s once it asks at the
 * first unanswered requests and sends none again).
 */
import { randomBytes } from 'node:crypto'
import { createServer as createNetServer, type Server } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, test } from 'vitest'
import type { JournalLine } from '../../lib/http/journal.ts'
import { TlsPortWatch } from '../../lib/runner/tls-port.ts'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { opensslMissing, selfSignedCert, tlsFront, type HostileServer, type SelfSignedCert } from './hostile-servers.ts'

const noOpenssl = opensslMissing()
const KEY = `scheme-${randomBytes(12).toString('hex')}`
const closers: (() => unknown)[] = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

/** The journal's lines of `n` requests that reached the port and ended without an answer. */
const unanswered = (n: number): JournalLine[] =>
  Array.from({ length: n }, (_, i) => [
    { id: String(i), phase: 'on-wire', at: '', method: 'GET', url: 'http://x/v1/categories' } as const,
    { id: String(i), phase: 'ended', at: '', method: 'GET', url: 'http://x/v1/categories', error: 'CONNECTION_RESET' } as const,
  ]).flat()
const answered: JournalLine[] = [
  { id: 'a', phase: 'on-wire', at: '', method: 'GET', url: 'http://x/v1/categories' },
  { id: 'a', phase: 'ended', at: '', method: 'GET', url: 'http://x/v1/categories', status: 200 },
]

/** What a watch of the journal on `baseUrl` says after `lines`, and whether it stopped the resends. */
async function watched(baseUrl: string, lines: JournalLine[]): Promise<{ problem: unknown; speaksTls: boolean }> {
  const watch = new TlsPortWatch(baseUrl, () => 2_000)
  for (const line of lines) watch.append(line)
  return { problem: await watch.ended(), speaksTls: watch.speaksTls }
}

describe.skipIf(noOpenssl !== undefined)('http:// to a port that speaks TLS', () => {
  let cert: SelfSignedCert
  let server: RunningServer
  let front: HostileServer

  test('exit 2, the problem first with the https:// address, no rule failed, nothing probed again', async () => {
    cert = selfSignedCert()
    closers.push(() => cert.cleanup())
    server = await startReferenceServer({ apiKey: KEY })
    closers.push(() => server.close())
    front = await tlsFront(cert, Number(new URL(server.baseUrl).port))
    closers.push(() => front.close())
    const port = new URL(front.baseUrl).port
    const run: ConformRun = await runConformInProcess(['--base-url', `http://127.0.0.1:${port}/v1`, '--timeout', '2000'], { env: { CONFORM_API_KEY: KEY } })
    closers.push(() => run.cleanup())
    expect(run.code, run.stdout).toBe(2)
    // the requests after the first few were not sent once the handshake succeeded (tls-port.ts)
    const notSent = (run.results?.journal ?? []).filter((e) => e.reason === 'misdirected' || e.error === 'WRONG_PORT').length
    expect(notSent).toBeGreaterThan(100)
    expect(run.results?.problems[0]).toMatchObject({ kind: 'speaks-tls', message: `127.0.0.1:${port} speaks TLS: no request over plain HTTP got an answer, and a TLS handshake with it succeeded (the run sent no more: ${notSent} requests not sent); give the base URL as https://127.0.0.1:${port}/v1 (the server's own address, or --ca-cert for its CA)` })
    expect(run.stdout).toContain(`✗ 127.0.0.1:${port} speaks TLS`)
    expect((run.results?.rules ?? []).filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
    const unverified = (run.results?.rules ?? []).flatMap((r) => r.checks).filter((c) => c.cause === 'speaks-tls')
    expect(unverified.length).toBeGreaterThan(20)
    expect(new Set(unverified.map((c) => c.skipReason))).toEqual(
      new Set([
        `not verified: 127.0.0.1:${port} speaks TLS, and the request over plain HTTP got no answer`,
        `not verified: 127.0.0.1:${port} speaks TLS: no request over plain HTTP got an answer, and a TLS handshake with it succeeded, so this request was not sent`,
      ]),
    )
    expect(run.results?.summary.writesAgain ?? 0).toBe(0)
    // asked as the first requests went unanswered: the rest were not sent again (1,395 were, with fewer in flight, when it asked at the end)
    const sentAgain = (run.results?.journal ?? []).filter((e) => e.freshConnection === true || e.fewerConnections !== undefined)
    // (a loaded machine's handshake may come after a few more went unanswered and were sent again:
    // the bound, not none, is what tells the early question from the late one)
    expect(sentAgain.length).toBeLessThan(50)
    // the TLS front reached the service only through the handshakes the run made: no request over plain HTTP got through
    expect(server.requests).toEqual([])
  }, 120_000)

  test('an answer after the handshake: the port answers plain HTTP after all, resends go on and no problem is told', async () => {
    const watch = new TlsPortWatch(`http://127.0.0.1:${new URL(front.baseUrl).port}/v1`, () => 2_000)
    for (const line of unanswered(3)) watch.append(line)
    expect(await watch.ended()).toMatchObject({ kind: 'speaks-tls' })
    expect(watch.speaksTls).toBe(true)
    for (const line of answered) watch.append(line)
    expect([watch.speaksTls, await watch.ended()]).toEqual([false, undefined])
    // requests it kept back once the handshake succeeded (not-http-early-stop.test.ts) leave the run without a verdict on them
    watch.append({ id: 'k', phase: 'refused', at: '', method: 'GET', url: 'http://x/v1/categories', reason: 'misdirected' })
    expect(await watch.ended()).toMatchObject({ kind: 'stalled', message: expect.stringMatching(/^requests were kept back: 127\.0\.0\.1:\d+ speaks TLS: .*, so the run sent no more \(1 not sent\), but a request already under way was then answered in HTTP/) })
  })
})

describe('the TLS handshake is asked for only when nothing was answered, over http://', () => {
  let port: number
  let connections = 0
  let asked = 0
  test('a port that resets every connection is no TLS port: it answers nothing (answers-nothing.test.ts)', async () => {
    const resets: Server = createNetServer((socket) => (connections++, socket.destroy()))
    await new Promise<void>((resolve) => resets.listen(0, '127.0.0.1', resolve))
    closers.push(() => new Promise((resolve) => resets.close(resolve)))
    port = (resets.address() as AddressInfo).port
    expect(await watched(`http://127.0.0.1:${port}/v1`, unanswered(5))).toEqual({ problem: expect.objectContaining({ kind: 'answers-nothing' }), speaksTls: false })
    // asked once (a TLS handshake, the HTTP/2 preface, and a GET alone every half second for 5 s), at the third unanswered request, not again at the fourth and fifth
    expect(connections).toBeGreaterThan(3)
    expect(connections).toBeLessThanOrEqual(13)
    asked = connections
  }, 20_000)

  test('an answer first, too few requests, or https:// in the first place: not asked', async () => {
    for (const lines of [[...answered, ...unanswered(5)], unanswered(2)]) expect(await watched(`http://127.0.0.1:${port}/v1`, lines)).toEqual({ problem: undefined, speaksTls: false })
    expect(await watched(`https://127.0.0.1:${port}/v1`, unanswered(5))).toEqual({ problem: undefined, speaksTls: false })
    expect(connections).toBe(asked)
  })
})
