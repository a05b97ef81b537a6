/**
 * A service that stores a create and then answers it with a server fault: a commit followed by a
 * failure to write the answer (a serialiser that throws on the stored record), or a gateway's 502
 * or 504 for a service that went on and stored it. The answer says that the request failed, not
 * that nothing was stored, so an acceptance run against production must count such a POST among
 * those that may have created a record. It was counted as one that created nothing: the reports
 * said "Records created: none" of a service that held the run's 2 records, and no line said more.
 * Now the list read after the POSTs shows both under the run's prefix: they are ledger rows
 * ("stored though answered 500", "… 502"), and the count of server faults says both were found.
 * A 503 says the request was not processed (RFC 9110 §15.6.4), as the suite resends it, and stays
 * out of the count.
 */
import { afterAll, describe, expect, test } from 'vitest'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { httpServer, jsonReply as json, type HostileServer } from './hostile-servers.ts'
import { expectNoStackTrace, RUN_TIMEOUT_MS } from './expect-run.ts'
import { journalEntries, journalTotals, type JournalLine } from '../../lib/http/journal.ts'

const KEY = 'fault-after-write-key-7c1d2e'
const servers: HostileServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
})

/** Stores every create with a string name; answers the first 500 and the second 502, after storing them. */
async function storesThenFaults() {
  const stored: { id: number; name: string }[] = []
  const server = await httpServer((req, res, seen) => {
    if (seen.headers.authorization !== `Bearer ${KEY}`) return json(res, 401, { code: 'unauthorized', message: 'no', status: 401 })
    if (req.method === 'GET') return json(res, 200, req.url === '/v1/categories' ? stored : {})
    let body: unknown
    try {
      body = JSON.parse(seen.body)
    } catch {
      return json(res, 400, { code: 'bad_json', message: 'not JSON', status: 400 })
    }
    const name = (body as { name?: unknown } | null)?.name
    if (typeof name !== 'string') return json(res, 400, { code: 'invalid', message: 'name', status: 400 })
    const record = { id: stored.length + 1, name }
    stored.push(record)
    if (record.id === 1) return json(res, 500, { code: 'internal', message: 'could not write the answer', status: 500 })
    if (record.id === 2) return void res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>502 Bad Gateway</h1>')
    json(res, 201, record)
  })
  servers.push(server)
  return { server, stored }
}

describe('a create stored and answered with a server fault may have created a record', { timeout: RUN_TIMEOUT_MS }, () => {
  test('--max-writes 6: no answer said it created a record; the two creates answered 500 and 502 are counted as POSTs that may have created one, and the list showed both: ledger rows', async () => {
    const { server, stored } = await storesThenFaults()
    const run = await runConformInProcess(['--base-url', server.baseUrl, '--max-writes', '6', '--confirm', '0', '--list-lag', '0'], { env: { CONFORM_API_KEY: KEY } })
    runs.push(run)
    expectNoStackTrace(run)
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(6)
    expect(stored.length).toBe(2)
    const results = run.results!
    // no answer said a record was created; the list the run read after its POSTs shows the two the faults hid
    expect(results.ledger.map((e) => [e.id, e.status, e.foundInList])).toEqual([
      ['1', 500, 'stored though answered 500'],
      ['2', 502, 'stored though answered 502'],
    ])
    expect(results.summary).toMatchObject({ writes: 6, recordsCreated: 2, faultAnsweredWrites: 2, faultAnsweredFound: 2 })
    const faulted = results.journal!.filter((e) => e.method === 'POST' && (e.status === 500 || e.status === 502))
    expect(faulted.map((e) => e.mayHaveCreated)).toEqual([true, true])
    expect(run.stdout).toContain('POSTs answered with a server fault: 2 (a 5xx but 503 says the request failed, not that nothing was stored: each may have created a record')
    expect(run.stdout).toContain('; the lists the run read showed all 2 stored (ledger rows)')
    expect(run.stdout).toContain('Records created: 2 (')
    const summary = readFileSync(join(run.reportDir, 'summary.md'), 'utf8')
    expect(summary).toContain('POSTs answered with a server fault: 2;')
    const html = readFileSync(join(run.reportDir, 'report.html'), 'utf8')
    expect(html).toContain('<dt>POSTs answered with a server fault</dt><dd>2:')
    expect(html).toContain('2 POSTs got a server fault (a 5xx but 503, or a 503 or 429 under --max-writes), which does not say nothing was stored: each may have created a record too, and the journal lists them; the lists the run read showed all 2 stored (ledger rows).')
    expect(html).toContain('<td>stored though answered 502</td>')
  })

  test('a 503 says the request was not processed: not counted; a 504 is', () => {
    const line = (id: string, phase: JournalLine['phase'], status?: number): JournalLine => ({ id, phase, at: '2026-01-01T00:00:00.000Z', method: 'POST', url: 'http://127.0.0.1:1/v1/categories', ...(status ? { status } : {}) })
    const entries = journalEntries([line('a', 'dispatched'), line('a', 'on-wire'), line('a', 'ended', 503), line('b', 'dispatched'), line('b', 'on-wire'), line('b', 'ended', 504), line('c', 'dispatched'), line('c', 'on-wire'), line('c', 'ended', 400)])
    expect(entries.map((e) => [e.id, e.mayHaveCreated])).toEqual([
      ['a', false],
      ['b', true],
      ['c', false],
    ])
    expect(journalTotals(entries)).toMatchObject({ writes: 3, unansweredWrites: 0, faultAnsweredWrites: 1 })
  })
})
