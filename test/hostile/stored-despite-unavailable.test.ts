/**
 * A service that stores a create and answers 503 (a proxy that lost the service's answer, Envoy's
 * "upstream connect error or disconnect/reset before headers"; a service that commits, then fails):
 * each resend of the 503 stored one more record. Under --max-writes 6 such a service got 23 POSTs
 * and stored 19 records, and the reports said none was created; without --max-writes each POST went
 * again up to 40 times. Now the list is read once before a POST answered 503 goes again: a record
 * it shows is counted, and not sent again. A limiter's 503, which stored nothing, is still sent again
 * without --max-writes; under it, a POST the list does not show is not sent again (the list may show
 * it late: behind one that did, 68 POSTs and 20 records for --max-writes 6, reported as none).
 */
import { afterAll, describe, expect, test } from 'vitest'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import type { HostileServer } from './hostile-servers.ts'
import { refusingOnCreate } from './stores-then-refuses.ts'
import { expectNoStackTrace, RUN_TIMEOUT_MS } from './expect-run.ts'
import { UNAVAILABLE_RECORD_FOUND } from '../../lib/http/stored-despite-unavailable.ts'
import { UNAVAILABLE_NOT_SENT_AGAIN } from '../../lib/http/journal.ts'

const KEY = 'stored-despite-503-key-9e4f1a'
const servers: HostileServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
})

/** Stores every create and answers it 503 (stores-then-refuses.ts): after storing, or before, the first time only. */
async function unavailableOnCreate(storesFirst: boolean, listAfterMs = 0, hidden = false) {
  const body = { code: 'unavailable', message: 'upstream connect error or disconnect/reset before headers', status: 503 }
  const made = await refusingOnCreate(KEY, { status: 503, body, storesFirst, listAfterMs, hidden })
  servers.push(made.server)
  return made
}

describe('a POST answered 503 under --max-writes', { timeout: RUN_TIMEOUT_MS }, () => {
  test('stored before its 503: the list shows it, it counts as created, and it is not sent again', async () => {
    const { server, stored } = await unavailableOnCreate(true)
    const run = await runConformInProcess(['--base-url', server.baseUrl, '--max-writes', '6', '--confirm', '0', '--list-lag', '0'], { env: { CONFORM_API_KEY: KEY } })
    runs.push(run)
    expectNoStackTrace(run)
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(6)
    expect(stored).toHaveLength(2)
    const results = run.results!
    expect(results.summary).toMatchObject({ writes: 6, resentWrites: 0, recordsCreated: 2 })
    expect(results.ledger.map((e) => [e.id, e.status, e.answerLost])).toEqual([
      ['1', 503, UNAVAILABLE_RECORD_FOUND],
      ['2', 503, UNAVAILABLE_RECORD_FOUND],
    ])
    // the 503 is still the service's answer to a valid create, judged as any
    expect(results.rules.find((r) => r.id === 'create-returns-201')?.status).toBe('fail')
    expect(readFileSync(join(run.reportDir, 'report.html'), 'utf8')).toContain(`<td>${UNAVAILABLE_RECORD_FOUND}</td>`)
  })

  test('stored before its 503, behind a list that shows it late: not sent again, and each counted as a POST that may have created a record', async () => {
    const { server, stored } = await unavailableOnCreate(true, 0, true)
    const run = await runConformInProcess(['--base-url', server.baseUrl, '--max-writes', '6', '--list-lag', '0'], { env: { CONFORM_API_KEY: KEY } })
    runs.push(run)
    expectNoStackTrace(run)
    // before: 68 POSTs (each 503 sent again while the list did not show it) and 20 records, 'Records created: none'
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(6)
    expect(stored).toHaveLength(2)
    const results = run.results!
    expect(results.summary).toMatchObject({ writes: 6, resentWrites: 0, faultAnsweredWrites: 2, faultAnsweredFound: 0 })
    const creates = results.journal!.filter((e) => e.method === 'POST' && e.onWire && e.status === 503)
    expect(creates.map((e) => [e.mayHaveCreated, e.answerLost])).toEqual(stored.map(() => [true, UNAVAILABLE_NOT_SENT_AGAIN]))
    expect(run.stdout).toContain('POSTs answered with a server fault: 2')
    // not judged: it may or may not have been stored, the 503 its answer or a proxy's
    expect(results.rules.find((r) => r.id === 'create-returns-201')?.status).toBe('skip')
  })

  test("a limiter's 503, which stored nothing: not sent again either (the run cannot tell it from a late list), its checks not verified", async () => {
    const { server, stored } = await unavailableOnCreate(false)
    const run = await runConformInProcess(['--base-url', server.baseUrl, '--max-writes', '6', '--confirm', '0', '--list-lag', '0'], { env: { CONFORM_API_KEY: KEY } })
    runs.push(run)
    expectNoStackTrace(run)
    expect(run.code, run.stdout).toBe(0)
    expect(stored).toHaveLength(0)
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(6)
    expect(run.results!.summary).toMatchObject({ writes: 6, resentWrites: 0, recordsCreated: 0, faultAnsweredWrites: 2 })
    expect(JSON.stringify(run.results!.rules)).toContain('--rate-limit under it spares these')
  })
})

describe('a POST answered 429 under --max-writes', { timeout: RUN_TIMEOUT_MS }, () => {
  // a 429 is a limit's refusal (RFC 6585 §4), no fault of the server: a run whose only such POSTs
  // were 429s said "POSTs answered with a server fault: 2" of them
  test("a limiter's 429, which stored nothing: counted among the POSTs that may have created a record, as a 429, not a server fault", async () => {
    const made = await refusingOnCreate(KEY, { status: 429, body: { code: 'rate_limited', message: 'slow down', status: 429 }, headers: { 'retry-after': '1' }, storesFirst: false })
    servers.push(made.server)
    const run = await runConformInProcess(['--base-url', made.server.baseUrl, '--max-writes', '6', '--confirm', '0', '--list-lag', '0'], { env: { CONFORM_API_KEY: KEY } })
    runs.push(run)
    expectNoStackTrace(run)
    expect(made.server.requests.filter((r) => r.method === 'POST')).toHaveLength(6)
    expect(run.results!.summary).toMatchObject({ writes: 6, resentWrites: 0, faultAnsweredWrites: 2 })
    expect(run.stdout).toContain('POSTs answered 429 and not sent again (--max-writes): 2 (a 429 says the client sent too many requests, not that this one was not processed')
    expect(run.stdout).not.toContain('a 5xx but 503 says')
    expect(run.stdout).not.toContain('server fault: 2')
    expect(readFileSync(join(run.reportDir, 'summary.md'), 'utf8')).toContain('POSTs answered 429 and not sent again (--max-writes): 2;')
    expect(readFileSync(join(run.reportDir, 'report.html'), 'utf8')).toContain('<dt>POSTs answered 429 and not sent again (--max-writes)</dt><dd>2:')
  })
})

describe('a POST answered 503 without --max-writes', { timeout: RUN_TIMEOUT_MS }, () => {
  test('stored before its 503: each POST is sent once and stores one record, each in the ledger', async () => {
    const { server, stored } = await unavailableOnCreate(true)
    const run = await runConformInProcess(['--base-url', server.baseUrl, '--confirm', '0', '--list-lag', '0'], { env: { CONFORM_API_KEY: KEY } })
    runs.push(run)
    expectNoStackTrace(run)
    const posts = server.requests.filter((r) => r.method === 'POST')
    // before: a POST stored went again after each 503, one record more each time
    expect(new Set(posts.map((r) => r.body)).size).toBe(posts.length)
    expect(stored.length).toBeGreaterThan(10)
    expect(new Set(stored.map((r) => `${r.name}\u0000${r.description}`)).size).toBe(stored.length)
    const results = run.results!
    expect(results.ledger.filter((e) => e.answerLost === UNAVAILABLE_RECORD_FOUND)).toHaveLength(stored.length)
    expect(results.summary).toMatchObject({ recordsCreated: stored.length })
  })
})

describe('a POST answered 503 while the lists read for the first ones are slow', { timeout: RUN_TIMEOUT_MS }, () => {
  // before: a POST past the first three reads went again once its wait was over, unless one of them
  // had already shown a record; on a loaded machine (a list slower than the wait) some POSTs stored
  // went twice, two records each (85 POSTs of 83 bodies, once in a full npm test)
  test('the POSTs past the first reads wait for them: none goes twice, each record is in the ledger', async () => {
    const { server, stored } = await unavailableOnCreate(true, 1500)
    const run = await runConformInProcess(['--base-url', server.baseUrl, '--confirm', '0', '--list-lag', '0', '--rule', 'create-returns-201'], { env: { CONFORM_API_KEY: KEY } })
    runs.push(run)
    expectNoStackTrace(run)
    const posts = server.requests.filter((r) => r.method === 'POST')
    expect(new Set(posts.map((r) => r.body)).size).toBe(posts.length)
    expect(stored.length).toBeGreaterThan(10)
    expect(run.results!.ledger.filter((e) => e.answerLost === UNAVAILABLE_RECORD_FOUND)).toHaveLength(stored.length)
  })
})
