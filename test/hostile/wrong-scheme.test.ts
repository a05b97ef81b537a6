/**
 * http:// to a port that speaks TLS (lib/result/speaks-tls.ts, lib/runner/tls-port.ts): a wrong
 * address, not a service that broke every rule. Before, every request met a connection closed
 * without an answer, 1,395 were sent again, and the run was a FAIL of 17 rules.
 */
import { randomBytes } from 'node:crypto'
import { createServer as createNetServer, type Server } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, test } from 'vitest'
import type { JournalEntry } from '../../lib/http/journal.ts'
import { tlsPortProblem } from '../../lib/runner/tls-port.ts'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { opensslMissing, selfSignedCert, tlsFront, type HostileServer, type SelfSignedCert } from './hostile-servers.ts'

const noOpenssl = opensslMissing()
const KEY = `scheme-${randomBytes(12).toString('hex')}`
const closers: (() => unknown)[] = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

const unanswered = (n: number): JournalEntry[] => Array.from({ length: n }, (_, i) => ({ id: String(i), method: 'GET', url: 'http://x/v1/categories', onWire: true, outcome: 'failed' }) as unknown as JournalEntry)

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
    expect(run.results?.problems[0]).toMatchObject({ kind: 'speaks-tls', message: `127.0.0.1:${port} speaks TLS: no request over plain HTTP got an answer, and a TLS handshake with it succeeded; give the base URL as https://127.0.0.1:${port}/v1 (the server's own address, or --ca-cert for its CA)` })
    expect(run.stdout).toContain(`✗ 127.0.0.1:${port} speaks TLS`)
    expect((run.results?.rules ?? []).filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
    const unverified = (run.results?.rules ?? []).flatMap((r) => r.checks).filter((c) => c.cause === 'speaks-tls')
    expect(unverified.length).toBeGreaterThan(20)
    expect(new Set(unverified.map((c) => c.skipReason))).toEqual(new Set([`not verified: 127.0.0.1:${port} speaks TLS, and the request over plain HTTP got no answer`]))
    expect(run.results?.summary.writesAgain ?? 0).toBe(0)
    // the TLS front reached the service only through the handshakes the run made: no request over plain HTTP got through
    expect(server.requests).toEqual([])
  }, 120_000)
})

describe('the TLS handshake is asked for only when nothing was answered, over http://', () => {
  test('a port that resets every connection is no TLS port: no problem, the failures stand', async () => {
    const resets: Server = createNetServer((socket) => socket.destroy())
    await new Promise<void>((resolve) => resets.listen(0, '127.0.0.1', resolve))
    closers.push(() => new Promise((resolve) => resets.close(resolve)))
    const port = (resets.address() as AddressInfo).port
    expect(await tlsPortProblem(`http://127.0.0.1:${port}/v1`, unanswered(5), 2_000)).toBeUndefined()
  })

  test('an answer, too few requests, or https:// in the first place: not asked', async () => {
    // a port nothing listens on would fail the handshake anyway: these return before any connection
    expect(await tlsPortProblem('http://127.0.0.1:9/v1', [...unanswered(5), { id: 'a', method: 'GET', url: 'http://x/v1/categories', onWire: true, status: 200 } as unknown as JournalEntry], 2_000)).toBeUndefined()
    expect(await tlsPortProblem('http://127.0.0.1:9/v1', unanswered(2), 2_000)).toBeUndefined()
    expect(await tlsPortProblem('https://127.0.0.1:9/v1', unanswered(5), 2_000)).toBeUndefined()
  })
})
