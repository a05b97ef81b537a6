/**
 * A server that answers every request 421 Misdirected Request (lib/result/misdirected.ts): Caddy
 * reached by its IP address, or a gateway whose virtual hosts do not hold the name. A wrong
 * address, not a service that broke every rule: before, the run was a FAIL of 9 rules, each 421
 * probed twice again.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, test } from 'vitest'
import type { Exchange } from '../../lib/http/exchange.ts'
import type { JournalEntry } from '../../lib/http/journal.ts'
import { misdirected } from '../../lib/result/misdirected.ts'
import { runConformInProcess } from '../helpers/run-conform.ts'

const KEY = `misdirected-${randomBytes(12).toString('hex')}`
const closers: (() => unknown)[] = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

const answered = (...statuses: (number | undefined)[]): JournalEntry[] =>
  statuses.map((status, i) => ({ id: String(i), method: 'GET', url: 'http://x/v1/categories', onWire: true, outcome: status === undefined ? 'failed' : 'answered', ...(status === undefined ? {} : { status }) }) as unknown as JournalEntry)

describe('every request answered 421 Misdirected Request', () => {
  test('exit 2, the problem first with the advice, no rule failed, nothing probed again', async () => {
    const gateway: Server = createServer((req, res) => {
      req.resume()
      res.writeHead(421, { 'content-type': 'text/plain' }).end('Misdirected Request')
    })
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve))
    closers.push(() => new Promise((resolve) => gateway.close(resolve)))
    const port = (gateway.address() as AddressInfo).port
    const run = await runConformInProcess(['--base-url', `http://127.0.0.1:${port}/v1`], { env: { CONFORM_API_KEY: KEY } })
    closers.push(() => run.cleanup())
    expect(run.code, run.stdout).toBe(2)
    expect(run.results?.problems[0]?.kind).toBe('misdirected')
    expect(run.results?.problems[0]?.message).toMatch(new RegExp(`^127\\.0\\.0\\.1:${port} does not answer for this address: \\d+ requests were answered 421 Misdirected Request \\(RFC 9110 §15\\.5\\.20\\), none otherwise; give the base URL with a host name the server serves .*, not its IP address$`))
    expect(run.stdout).toContain(`✗ 127.0.0.1:${port} does not answer for this address`)
    expect(run.stdout).toContain('Verdict: INCOMPLETE (exit 2)')
    expect((run.results?.rules ?? []).filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
    const unverified = (run.results?.rules ?? []).flatMap((r) => r.checks).filter((c) => c.cause === 'misdirected')
    expect(unverified.length).toBeGreaterThan(20)
    expect(new Set(unverified.map((c) => c.skipReason))).toEqual(new Set([`not verified: 127.0.0.1:${port} does not answer for this address, and the request was answered 421`]))
    // a second probe would only meet another 421
    expect(run.results?.summary.writesAgain ?? 0).toBe(0)
  }, 60_000)

  test('a server that served any request, or too few answers, is no wrong address: its 421s stand as failures', () => {
    expect(misdirected(answered(421, 421, 421), 'http://127.0.0.1:1/v1')?.kind).toBe('misdirected')
    // no answer at all beside the 421s is no other answer
    expect(misdirected(answered(421, undefined, 421, 421), 'http://example.test/v1')?.message).not.toContain('IP address')
    expect(misdirected(answered(421, 421, 421, 200), 'http://127.0.0.1:1/v1')).toBeUndefined()
    expect(misdirected(answered(421, 421, 401), 'http://127.0.0.1:1/v1')).toBeUndefined()
    expect(misdirected(answered(421, 421), 'http://127.0.0.1:1/v1')).toBeUndefined()
  })
})

/** An exchange of the evidence answered `status`, with `location`. */
const redirect = (id: string, status: number, location: string): Exchange => ({
  id,
  startedAt: new Date(0).toISOString(),
  durationMs: 1,
  request: { method: 'GET', url: 'http://127.0.0.1:1/v1/categories', headers: {} },
  response: { status, headers: { location }, body: '', bodyBytes: 0, bodyTruncated: false },
})

describe('every request redirected to https:// (an http:// base URL a front upgrades)', () => {
  test('exit 2, the address it leads to first, no rule failed, nothing probed again (a FAIL of 8 rules and 130 checks before)', async () => {
    // nginx ingress's ssl-redirect, as it answers a request to its http:// port
    const ingress: Server = createServer((req, res) => {
      req.resume()
      res.writeHead(308, { location: `https://${req.headers.host}${req.url}`, 'content-type': 'text/html', server: 'nginx' }).end('<html><head><title>308 Permanent Redirect</title></head></html>')
    })
    await new Promise<void>((resolve) => ingress.listen(0, '127.0.0.1', resolve))
    closers.push(() => new Promise((resolve) => ingress.close(resolve)))
    const port = (ingress.address() as AddressInfo).port
    const run = await runConformInProcess(['--base-url', `http://127.0.0.1:${port}/v1`], { env: { CONFORM_API_KEY: KEY } })
    closers.push(() => run.cleanup())
    expect(run.code, run.stdout).toBe(2)
    expect(run.results?.problems[0]).toMatchObject({ kind: 'misdirected', message: expect.stringMatching(new RegExp(`^127\\.0\\.0\\.1:${port} redirects every request to https://: \\d+ requests were answered with a redirect to https://127\\.0\\.0\\.1:${port} .*; give the base URL they lead to, https://127\\.0\\.0\\.1:${port}/v1$`)) })
    expect((run.results?.rules ?? []).filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
    expect(run.results?.summary.writesAgain ?? 0).toBe(0)
  }, 60_000)

  test("any other redirect (a trailing slash added, another host), or a server that served a request, is the service's answer: it stands as a failure", () => {
    const away = [redirect('a', 308, 'https://127.0.0.1:1/v1/categories'), redirect('b', 301, 'https://127.0.0.1:1/v1/categories')]
    expect(misdirected(answered(308, 308, 301), 'http://127.0.0.1:1/v1', away)?.message).toMatch(/redirects every request to https:\/\/: 3 requests/)
    expect(misdirected(answered(301, 301, 301), 'http://127.0.0.1:1/v1', [redirect('a', 301, '/v1/categories/')])).toBeUndefined()
    // another host: the API moved, or a sign-in page; its redirects fail, naming where they point (redirects.test.ts)
    expect(misdirected(answered(302, 302, 302), 'http://127.0.0.1:1/v1', [redirect('a', 302, 'https://login.example.com/v1/categories')])).toBeUndefined()
    expect(misdirected(answered(308, 308, 200), 'http://127.0.0.1:1/v1', away)).toBeUndefined()
    // without the evidence's Location, nothing says where they lead
    expect(misdirected(answered(308, 308, 308), 'http://127.0.0.1:1/v1')).toBeUndefined()
  })
})
