/**
 * A 429 does not say the request was not processed (RFC 6585 §4 says only that the client sent
 * too many): a quota counted after the handler, or a limiter behind the service's commit, stores
 * the create and answers 429. Each resend stored one more record, and resends of POSTs after a 429
 * took no place of --max-writes: under --max-writes 6 such a service got 40 POSTs and stored 36
 * records in 15 s (up to 40 resends for each of the 6, 246 records, in a longer run); without
 * --max-writes, 818 POSTs of 83 bodies in 30 s. Now a POST answered 429 is looked for in the list before it goes again,
 * as one answered 503 is (lib/http/stored-despite-unavailable.ts): a record found counts as
 * created and is not sent again; under --max-writes one the list does not show is not sent again
 * either (a list may show it late), so that the budget bounds the records stored.
 */
import { afterAll, describe, expect, test } from 'vitest'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import type { HostileServer } from './hostile-servers.ts'
import { refusingOnCreate } from './stores-then-refuses.ts'
import { expectNoStackTrace, RUN_TIMEOUT_MS } from './expect-run.ts'
import { LIMITED_NOT_SENT_AGAIN, LIMITED_RECORD_FOUND } from '../../lib/http/journal.ts'

const KEY = 'stored-despite-429-key-7c2d0e'
const servers: HostileServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
})

/**
 * Stores every create and answers it 429 (Retry-After: 0) (stores-then-refuses.ts): after storing
 * (a quota counted after the handler), or before, the first time only (a limiter). `hidden`: the
 * list leaves out the records (a read replica far behind).
 */
async function limitedOnCreate(storesFirst: boolean, hidden = false) {
  const body = { code: 'quota', message: 'too many requests', status: 429 }
  const made = await refusingOnCreate(KEY, { status: 429, body, headers: { 'retry-after': '0' }, storesFirst, hidden })
  servers.push(made.server)
  return made
}

const posts = (server: HostileServer) => server.requests.filter((r) => r.method === 'POST')

describe('a POST answered 429 under --max-writes', { timeout: RUN_TIMEOUT_MS }, () => {
  test('stored before its 429: the list shows it, it counts as created, is not sent again, and its 429 is judged as any answer', async () => {
    const { server, stored } = await limitedOnCreate(true)
    const run = await runConformInProcess(['--base-url', server.baseUrl, '--max-writes', '6', '--confirm', '0', '--list-lag', '0', '--deadline', '15000'], { env: { CONFORM_API_KEY: KEY } })
    runs.push(run)
    expectNoStackTrace(run)
    // before: 14 POSTs and 10 records in 15 s, the reports saying none was created
    // before: 40 POSTs and 36 records in 15 s
    expect(posts(server)).toHaveLength(6)
    expect(stored).toHaveLength(2)
    const results = run.results!
    expect(results.summary).toMatchObject({ writes: 6, resentWrites: 0, recordsCreated: 2 })
    expect(results.ledger.map((e) => [e.id, e.status, e.answerLost])).toEqual([
      ['1', 429, LIMITED_RECORD_FOUND],
      ['2', 429, LIMITED_RECORD_FOUND],
    ])
    // judged as any answer: a limit (§8) refuses a request, and this one was stored; before, not
    // judged, and a service that stored every create and answered each 429 passed (exit 0)
    expect(run.code, run.stdout).toBe(1)
    const failed = results.rules.find((r) => r.id === 'create-returns-201')!
    expect(failed.status).toBe('fail')
    expect(failed.checks.filter((c) => c.status === 'fail').map((c) => c.failure?.code)).toContain('UNEXPECTED_STATUS')
    expect(failed.checks.find((c) => c.status === 'fail')?.failure?.message).toContain('answered 429, expected 201, though the list shows its record stored')
  })

  test('stored before its 429, behind a list that shows it late: not sent again, each counted as a POST that may have created a record', async () => {
    const { server, stored } = await limitedOnCreate(true, true)
    const run = await runConformInProcess(['--base-url', server.baseUrl, '--max-writes', '6', '--confirm', '0', '--list-lag', '0', '--deadline', '15000'], { env: { CONFORM_API_KEY: KEY } })
    runs.push(run)
    expectNoStackTrace(run)
    expect(posts(server)).toHaveLength(6)
    expect(stored).toHaveLength(2)
    const results = run.results!
    expect(results.summary).toMatchObject({ writes: 6, resentWrites: 0, faultAnsweredWrites: 2 })
    const creates = results.journal!.filter((e) => e.method === 'POST' && e.onWire && e.status === 429)
    expect(creates.map((e) => [e.mayHaveCreated, e.answerLost])).toEqual(stored.map(() => [true, LIMITED_NOT_SENT_AGAIN]))
    expect(results.rules.find((r) => r.id === 'create-returns-201')?.status).toBe('skip')
    // counted with the POSTs that may have created a record, said as 429s: before, "a 5xx but 503 … (a 503 too, under --max-writes …)",
    // then "POSTs answered with a server fault: 2", of POSTs answered 429
    expect(run.stdout).toContain('POSTs answered 429 and not sent again (--max-writes): 2 (a 429 says the client sent too many requests, not that this one was not processed')
    expect(run.files['summary.md']).toContain('or was a 429 or 503 under --max-writes, and the list does not show its record')
  })

  test("a limiter's 429, which stored nothing: not sent again either, its checks not verified, nothing failed", async () => {
    const { server, stored } = await limitedOnCreate(false)
    const run = await runConformInProcess(['--base-url', server.baseUrl, '--max-writes', '6', '--confirm', '0', '--list-lag', '0'], { env: { CONFORM_API_KEY: KEY } })
    runs.push(run)
    expectNoStackTrace(run)
    expect(run.code, run.stdout).toBe(0)
    expect(stored).toHaveLength(0)
    expect(posts(server)).toHaveLength(6)
    expect(run.results!.summary).toMatchObject({ writes: 6, resentWrites: 0, recordsCreated: 0 })
  })
})

describe('a POST answered 429 without --max-writes', { timeout: RUN_TIMEOUT_MS }, () => {
  test('stored before its 429: each POST is sent once and stores one record, each in the ledger', async () => {
    const { server, stored } = await limitedOnCreate(true)
    const run = await runConformInProcess(['--base-url', server.baseUrl, '--confirm', '0', '--list-lag', '0', '--deadline', '30000'], { env: { CONFORM_API_KEY: KEY } })
    runs.push(run)
    expectNoStackTrace(run)
    const sent = posts(server)
    expect(new Set(sent.map((r) => r.body)).size).toBe(sent.length)
    expect(stored.length).toBeGreaterThan(10)
    expect(run.results!.ledger.filter((e) => e.answerLost === LIMITED_RECORD_FOUND)).toHaveLength(stored.length)
  })

  test("a limiter's 429: sent again once the list showed it not stored, and judged on its answer", async () => {
    const { server, stored } = await limitedOnCreate(false)
    const run = await runConformInProcess(['--base-url', server.baseUrl, '--confirm', '0', '--list-lag', '0', '--rule', 'create-returns-201'], { env: { CONFORM_API_KEY: KEY } })
    runs.push(run)
    expectNoStackTrace(run)
    expect(run.code, run.stdout).toBe(0)
    expect(stored.length).toBeGreaterThan(0)
    expect(run.results!.summary.resentWrites).toBeGreaterThan(0)
  })
})
