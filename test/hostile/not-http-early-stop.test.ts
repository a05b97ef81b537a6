/**
 * A port that speaks no HTTP/1.1 gets no more than the run's first requests (lib/runner/tls-port.ts):
 * once three answers came with no status line and none with one (another service's port), or a
 * TLS handshake with a port that answered nothing succeeded, nothing more is sent, POSTs included,
 * and the run says what it said before (exit 2, "nothing at this port speaks HTTP", "speaks TLS").
 * Counted at the port, before: Redis, SSH and a TLS alert each got 179 requests, 85 of them POSTs,
 * and a TLS port 185 (85 POSTs); after: 12 (11 POSTs) and 13 (11 POSTs). An HTTP server that frames
 * every answer wrong still gets the whole plan and fails (review15: it is the right port).
 */
import { afterAll, describe, expect, test } from 'vitest'
import type { JournalLine } from '../../lib/http/journal.ts'
import { TlsPortWatch } from '../../lib/runner/tls-port.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { opensslMissing, selfSignedCert } from './hostile-servers.ts'
import { framedWrongPort, garblesFirstPort, redisPort, sshPort, tlsAlertPort, tlsPort, type CountingPort } from './other-protocols.ts'

const KEY = { CONFORM_API_KEY: 'other-protocol-key-3f9a61c2' }
/** The most a run sends before it stops: its first burst of connections (six, then six more while none answered), with room for a loaded machine. */
const FIRST_REQUESTS = 30
const closers: (() => unknown)[] = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

async function runAgainst(port: CountingPort): Promise<ConformRun> {
  closers.push(() => port.close())
  const run = await runConformInProcess(['--base-url', port.baseUrl], { env: KEY })
  closers.push(() => run.cleanup())
  return run
}

/** Requests the run kept back (refused, or cut while they waited for a connection) because the port speaks no HTTP/1.1. */
const keptBack = (run: ConformRun) => (run.results?.journal ?? []).filter((e) => e.reason === 'misdirected' || e.error === 'WRONG_PORT').length

describe.concurrent('another service at the port: the run stops after its first answers', { timeout: 120_000 }, () => {
  for (const [name, start] of [['Redis (-ERR)', redisPort], ["SSH (its banner)", sshPort], ['a TLS alert record (0x15 0x03)', tlsAlertPort]] as const) {
    test(`${name}: at most ${FIRST_REQUESTS} requests reach it (179 before, 85 POSTs), exit 2 "nothing at this port speaks HTTP"`, async () => {
      const port = await start()
      const run = await runAgainst(port)
      expect(run.code, run.stdout).toBe(2)
      expect(run.stdout.split('\n')[2]).toMatch(/^✗ nothing at this port speaks HTTP: \d+ requests were answered with bytes that are not an HTTP\/1\.1 answer, none otherwise \(the run sent no more: \d+ requests not sent\); another service's port/)
      expect(port.requests()).toBeLessThanOrEqual(FIRST_REQUESTS)
      expect(port.posts()).toBeLessThan(port.requests())
      expect(keptBack(run)).toBeGreaterThan(100)
      expect(run.results!.rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
      // no request sent again, and nothing probed again
      expect(run.results?.summary.writesAgain ?? 0).toBe(0)
    })
  }

  test('a server that garbled its first answers only, then answered in HTTP: the requests kept back say so, its garbled answers fail, never a PASS', async () => {
    const port = await garblesFirstPort()
    const run = await runAgainst(port)
    expect(run.code, run.stdout).toBe(1)
    expect(run.stdout).not.toContain('nothing at this port speaks HTTP:')
    expect(run.results?.problems.find((p) => p.kind === 'stalled')?.message).toMatch(/^requests were kept back: the port's first 3 answers were bytes with no status line \(nothing at this port speaks HTTP\?\), so the run sent no more \(\d+ not sent\), but a request already under way was then answered in HTTP/)
    expect(run.stdout).toMatch(/✗ unconfirmed: 3 of \d+ requests got no answer \(PROTOCOL_ERROR\).*; not probed again: the port's first answers were not HTTP\/1\.1, so the run sent nothing more there/)
    expect(port.requests()).toBeLessThanOrEqual(FIRST_REQUESTS)
  })

  test('an HTTP server that frames every answer wrong is no other service: it gets the whole plan, and fails naming the framing', async () => {
    const port = await framedWrongPort()
    const run = await runAgainst(port)
    expect(run.code, run.stdout).toBe(1)
    expect(run.stdout).not.toContain('nothing at this port speaks HTTP')
    expect(port.requests()).toBeGreaterThan(100)
    expect(keptBack(run)).toBe(0)
  })
})

// alone: its handshake with the run is what tells the port, and four runs at once in one process held it past its 2 s
describe.skipIf(opensslMissing() !== undefined)('a TLS port given as http://', { timeout: 120_000 }, () => {
  test(`at most ${FIRST_REQUESTS} requests reach it (185 before, 85 POSTs), exit 2 "speaks TLS"`, async () => {
    const cert = selfSignedCert()
    closers.push(() => cert.cleanup())
    const port = await tlsPort(cert)
    const run = await runAgainst(port)
    expect(run.code, run.stdout).toBe(2)
    expect(run.results?.problems[0]?.message).toMatch(/^127\.0\.0\.1:\d+ speaks TLS: no request over plain HTTP got an answer, and a TLS handshake with it succeeded \(the run sent no more: \d+ requests not sent\); give the base URL as https:/)
    expect(port.requests()).toBeLessThanOrEqual(FIRST_REQUESTS)
    // the requests kept back are told as the rest are: the port speaks TLS
    const causes = new Set((run.results?.rules ?? []).flatMap((r) => r.checks).filter((c) => c.status === 'skip').map((c) => c.cause))
    expect(causes.has('misdirected')).toBe(false)
    expect(causes.has('speaks-tls')).toBe(true)
  })
})

/** The journal's lines of `n` requests that reached the port and ended with `ended`. */
const lines = (n: number, ended: Partial<JournalLine>, from = 0): JournalLine[] =>
  Array.from({ length: n }, (_, i) => [
    { id: String(from + i), phase: 'on-wire', at: '', method: 'POST', url: 'http://x/v1/categories' } as const,
    { id: String(from + i), phase: 'ended', at: '', method: 'POST', url: 'http://x/v1/categories', ...ended } as const,
  ]).flat()
const noStatusLine = { error: 'PROTOCOL_ERROR', noStatusLine: true } as const

describe('when the watch stops the run sending (https://, so no handshake is asked)', () => {
  const stopsAfter = (...given: JournalLine[][]) => {
    const watch = new TlsPortWatch('https://127.0.0.1:1/v1', () => 2_000)
    for (const line of given.flat()) watch.append(line)
    return watch.wrongPort.aborted ? (watch.wrongPort.reason as Error).message : undefined
  }

  test('three answers with no status line, none with one: stopped, saying why', () => {
    expect(stopsAfter(lines(3, noStatusLine))).toBe("the port's first 3 answers were bytes with no status line (nothing at this port speaks HTTP?)")
  })

  test('an answer with a status line after the stop (a server that garbled its first answers only): the run kept requests back, so it is no verdict on the rest', async () => {
    const watch = new TlsPortWatch('https://127.0.0.1:1/v1', () => 2_000)
    for (const line of [...lines(3, noStatusLine), ...lines(2, { status: 200 }, 10)]) watch.append(line)
    watch.append({ id: 'k', phase: 'refused', at: '', method: 'POST', url: 'http://x/v1/categories', reason: 'misdirected' })
    expect(await watch.ended()).toEqual({
      kind: 'stalled',
      message: "requests were kept back: the port's first 3 answers were bytes with no status line (nothing at this port speaks HTTP?), so the run sent no more (1 not sent), but a request already under way was then answered in HTTP: run again to judge the rest",
    })
  })

  test('two, an answer with a status line first, or answers framed wrong (a status line, then bytes it could not read): not stopped', () => {
    expect(stopsAfter(lines(2, noStatusLine))).toBeUndefined()
    expect(stopsAfter(lines(1, { status: 200 }, 10), lines(5, noStatusLine))).toBeUndefined()
    expect(stopsAfter(lines(5, { error: 'PROTOCOL_ERROR' }))).toBeUndefined()
    expect(stopsAfter(lines(5, { error: 'CONNECTION_RESET' }))).toBeUndefined()
  })
})
