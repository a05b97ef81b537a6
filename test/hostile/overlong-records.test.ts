/**
 * A server whose answers hold records of absurd size or number, small enough to pass --max-response-bytes:
 * a 201 with an id of a million digits and a name of two million characters. The checks judge the
 * body as any (the evidence cuts it at 4 KiB); the ledger, which every report and journal.ndjson
 * repeat for each record created, keeps their start and length, not the text: kept whole, a run
 * of 35 such creates wrote 140 MB of reports and ended 7 s past its --deadline at 1 GB (measured).
 * And a list of tens of thousands of records under the run's prefix that no POST sent: the ledger
 * keeps MAX_LISTED_RECORDS of them (300,000 made as many rows, 140 MB of reports).
 */
import { afterAll, describe, expect, test } from 'vitest'
import { journalEntries, LEDGER_ID_CHARACTERS, LEDGER_TEXT_CHARACTERS, ledgerText, type JournalLine } from '../../lib/http/journal.ts'
import { createRedactor } from '../../lib/http/redact.ts'
import type { Exchange } from '../../lib/http/exchange.ts'
import { ListsRead, MAX_LISTED_RECORDS, runLedger } from '../../lib/result/ledger-from-list.ts'
import { runConform, type ConformRun } from '../helpers/run-conform.ts'
import { httpServer, jsonReply, type HostileServer } from './hostile-servers.ts'
import { RUN_TIMEOUT_MS, expectNoStackTrace } from './expect-run.ts'

const servers: HostileServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
})

const HUGE_ID = `1${'0'.repeat(1_000_000)}`
const HUGE_NAME = 'n'.repeat(2_000_000)

describe('ledgerText', () => {
  test('whole up to its bound; past it, the start and the length', () => {
    expect(ledgerText('12345', LEDGER_ID_CHARACTERS)).toBe('12345')
    expect(ledgerText(HUGE_ID, LEDGER_ID_CHARACTERS)).toBe(`${HUGE_ID.slice(0, 20)}… (1000001 characters)`)
    expect(ledgerText(HUGE_NAME, LEDGER_TEXT_CHARACTERS).length).toBeLessThanOrEqual(LEDGER_TEXT_CHARACTERS + 10)
  })

  test('never half a surrogate pair', () => {
    const cut = ledgerText('\u{1f407}'.repeat(100), LEDGER_ID_CHARACTERS)
    expect(cut).toMatch(/^(\u{1f407})+… \(200 characters\)$/u)
  })
})

describe('a listed record whose long name holds the key across the cut', () => {
  test('the key is hidden before the name is cut: no part of it is left in the ledger (cut first, 10 of its 15 characters were)', () => {
    const key = 'Kq7mZp2Rt9Wv4Ls'
    const name = `cf-k3x9q-made ${'.'.repeat(LEDGER_TEXT_CHARACTERS - 50)}${key}${' tail'.repeat(30)}`
    const id = `${'9'.repeat(LEDGER_ID_CHARACTERS - 25)}${key}${'9'.repeat(30)}`
    const read = new ListsRead(['cf-k3x9q-'], createRedactor(key))
    const exchange = { id: 'list-1', startedAt: new Date(0).toISOString(), response: { status: 200 } } as unknown as Exchange
    read.note({ exchange, text: JSON.stringify([{ id, name, description: name }]) } as Parameters<ListsRead['note']>[0])
    const posted: JournalLine = { id: 'p', method: 'POST', url: 'http://127.0.0.1:1/v1/categories', body: '{"name":"cf-k3x9q-x"}', phase: 'ended', at: new Date(0).toISOString(), status: 400 }
    const { ledger } = runLedger(journalEntries([posted]), read)
    const row = ledger.find((entry) => entry.exchangeId === 'list-1')
    expect(row?.name).toMatch(/… \(\d+ characters\)$/)
    expect(JSON.stringify(row)).not.toMatch(/Kq7mZ|Zp2Rt|Rt9Wv/)
  })
})

describe('a server that answers each create with a million-digit id and a 2 MB name', { timeout: RUN_TIMEOUT_MS }, () => {
  test('the ledger keeps the start and length of each, the reports stay small, and the record is still judged', async () => {
    const server = await httpServer((req, res) =>
      req.method === 'POST'
        ? void res.writeHead(201, { 'content-type': 'application/json' }).end(`{"id":${HUGE_ID},"name":"${HUGE_NAME}"}`)
        : jsonReply(res, 200, []),
    )
    servers.push(server)
    const run = await runConform(['--base-url', server.baseUrl, '--confirm', '0', '--max-writes', '4', '--timeout', '5000'], { env: { CONFORM_API_KEY: 'overlong-records-key-5c2e' } })
    runs.push(run)
    expect(run.code, run.stderr).toBe(1)
    expectNoStackTrace(run)
    const ledger = run.results?.ledger ?? []
    expect(ledger.length).toBeGreaterThan(0)
    for (const entry of ledger) {
      expect(entry.id).toBe(`${HUGE_ID.slice(0, 20)}… (1000001 characters)`)
      expect(entry.name).toBe(`${'n'.repeat(LEDGER_TEXT_CHARACTERS - 20)}… (2000000 characters)`)
    }
    // the wrong id and name are failures still
    expect(run.results?.rules.find((rule) => rule.id === 'create-echoes-fields')?.status).toBe('fail')
    for (const [file, text] of Object.entries(run.files)) expect(text.length, file).toBeLessThan(2_000_000)
  })
})

describe('a server whose list shows 25,000 records under the run\'s prefix that no POST sent', { timeout: RUN_TIMEOUT_MS }, () => {
  test(`the ledger keeps ${MAX_LISTED_RECORDS} records of the lists, the reports stay a few MB`, async () => {
    const created: string[] = []
    const server = await httpServer((req, res, seen) => {
      if (req.method !== 'POST') {
        const prefix = /"name":"(cf-[a-z0-9]+-)/.exec(created.join(''))?.[1]
        const made = prefix ? Array.from({ length: 25_000 }, (_, i) => `{"id":${1_000_000 + i},"name":"${prefix}made-up-${i}"}`) : []
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(`[${[...created, ...made].join(',')}]`)
      }
      const name = (JSON.parse(seen.body) as { name?: unknown }).name
      created.push(JSON.stringify({ id: created.length + 1, name }))
      jsonReply(res, 201, { id: created.length, name })
    })
    servers.push(server)
    const run = await runConform(['--base-url', server.baseUrl, '--confirm', '0', '--max-writes', '3', '--list-lag', '0', '--timeout', '5000'], { env: { CONFORM_API_KEY: 'overlong-records-key-5c2e' } })
    runs.push(run)
    expectNoStackTrace(run)
    const ledger = run.results?.ledger ?? []
    expect(ledger.filter((entry) => entry.name.includes('made-up-')).length).toBeGreaterThan(MAX_LISTED_RECORDS - 10)
    expect(ledger.length).toBeLessThanOrEqual(MAX_LISTED_RECORDS + 3)
    for (const file of ['results.json', 'report.html']) expect(run.files[file]?.length, file).toBeLessThan(5_000_000)
  })
})
