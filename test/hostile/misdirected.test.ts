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
