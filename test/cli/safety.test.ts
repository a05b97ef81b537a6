/**
 * Safety for production: --read-only sends no POST at all, --max-writes N at most N, and the
 * ledger lists exactly the records a run created, checked against a reference server that counts
 * what it receives and keeps what it stores, conforming or wrongly accepting invalid bodies.
 */
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { namePrefix } from '../../lib/result/run-result.ts'
import { startReferenceServer, type RunningServer, type StoredCategory } from '../../lib/server/reference-server.ts'
import { POST_PROBE_ORDER, POST_PROBES } from '../../suites/cases/write-order.ts'
import { VALID_CREATES } from '../../suites/cases/post-probes.ts'
import { ROOT, runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { portableJson } from '../../lib/json/portable-json.ts'

/** A name as results.json writes it: a lone surrogate as the text of its escape. */
const asWritten = (name: string): string => JSON.parse(portableJson(name)) as string

const KEY = `safety-${randomBytes(12).toString('hex')}`
const posts = (server: RunningServer) => server.requests.filter((r) => r.method === 'POST')

async function conformAgainst(server: RunningServer, ...args: string[]): Promise<ConformRun> {
  return runConformInProcess(['--base-url', server.baseUrl, ...args], { env: { CONFORM_API_KEY: KEY } })
}

/** Ids and names of the store, and of the ledger, in comparable form. */
const stored = (store: StoredCategory[]) => store.map((r) => ({ id: String(r.id), name: typeof r.name === 'string' ? asWritten(r.name) : undefined })).sort((a, b) => a.id.localeCompare(b.id))
const ledgered = (run: ConformRun) =>
  (run.results?.ledger ?? [])
    // a name that was not a string is ledgered as "(sent: …)" or "(unknown)"
    .map((e) => ({ id: e.id, name: e.name.startsWith('(') ? undefined : e.name }))
    .sort((a, b) => a.id.localeCompare(b.id))

describe('--read-only against a server that counts requests', () => {
  let server: RunningServer
  let run: ConformRun
  beforeAll(async () => {
    server = await startReferenceServer({ apiKey: KEY })
    run = await conformAgainst(server, '--read-only')
  }, 120_000)
  afterAll(async () => {
    run?.cleanup()
    await server?.close()
  })

  test('sends no POST at all, creates nothing, and exits 0 against the reference server', () => {
    expect(run.stderr).toBe('')
    expect(run.code, run.stdout).toBe(0)
    expect(server.requests.length).toBeGreaterThan(0)
    expect(posts(server)).toEqual([])
    expect(server.store).toEqual([])
    expect(run.results!.ledger).toEqual([])
    expect(run.results!.options.readOnly).toBe(true)
  })

  test('every must-rule it did not verify is named, with the reason, in results.json, the summary, report.html and summary.md', () => {
    const results = run.results!
    const skipped = results.rules.filter((r) => r.status === 'skip').map((r) => r.id)
    expect(skipped).toEqual(expect.arrayContaining(['create-returns-201', 'create-echoes-fields', 'create-rejects-missing-name', 'create-rejects-invalid-json']))
    expect(results.notVerified.map((n) => n.id)).toEqual(skipped.filter((id) => results.rules.find((r) => r.id === id)!.level === 'must'))
    expect(results.notVerified.find((n) => n.id === 'create-returns-201')!.reason).toBe('not verified: --read-only sends no request that could create a record')

    expect(run.stdout).toContain('Read-only run: no POST sent, so the rules about creating are not verified (the Writes line above names the setting).')
    expect(run.stdout).toContain('Not verified (no check of these rules ran):')
    expect(run.stdout).toContain('  --read-only sends no request that could create a record:')
    // created-in-list had nothing to judge because nothing was created: its group says --read-only, not only "another rule reports why"
    expect(run.stdout).toMatch(/^ {2}nothing to judge in the answers: --read-only created no record .*created-in-list$/m)
    const html = run.files['report.html']
    const section = html.slice(html.indexOf('<section id="not-verified">'), html.indexOf('<section id="ledger">'))
    expect(section).toContain('<strong>--read-only sends no request that could create a record</strong>')
    expect(html).toContain('<h2>Records created: 0</h2><p>None: this run was read-only and sent no POST.</p>')
    for (const id of skipped) {
      expect(run.stdout).toContain(id)
      expect(section).toContain(`<code>${id}</code>`)
      expect(run.files['summary.md']).toContain(`\`${id}\``)
    }
  })

  test('the rules it could verify all passed', () => {
    for (const rule of run.results!.rules.filter((r) => r.status !== 'skip')) expect(rule.status, rule.id).toBe('pass')
  })
})

describe('--max-writes N against a server that counts requests', () => {
  const servers: RunningServer[] = []
  const runs: ConformRun[] = []
  afterAll(async () => {
    runs.forEach((r) => r.cleanup())
    await Promise.all(servers.map((s) => s.close()))
  })

  test.each([0, 1, 5])('--max-writes %i: at most that many POSTs arrive; the checks over budget are skipped and say so', async (n) => {
    const server = await startReferenceServer({ apiKey: KEY })
    servers.push(server)
    const run = await conformAgainst(server, '--max-writes', String(n))
    runs.push(run)
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(posts(server).length).toBeLessThanOrEqual(n)
    // a conforming server gets every POST the budget allows: the budget is what bounds them
    expect(posts(server).length).toBe(n)
    const results = run.results!
    expect(results.options.maxWrites).toBe(n)
    const skipped = results.rules.flatMap((r) => r.checks.filter((c) => c.status === 'skip'))
    const overBudget = skipped.filter((c) => c.skipReason?.startsWith(`not verified: over the write budget (--max-writes ${n}; this POST is number `))
    expect(overBudget.length).toBeGreaterThan(0)
    expect(run.stdout).toContain(`over the write budget (--max-writes ${n})`)
    expect(stored(server.store)).toEqual(ledgered(run))
    expect(results.ledger.length).toBe(VALID_CREATES.filter((c) => POST_PROBE_ORDER.indexOf(c.key) < n).length)
  })
})

describe('the ledger lists exactly the records a run created', () => {
  const servers: RunningServer[] = []
  const runs: ConformRun[] = []
  afterAll(async () => {
    runs.forEach((r) => r.cleanup())
    await Promise.all(servers.map((s) => s.close()))
  })

  test('against the conforming reference server: the valid creations, nothing else', async () => {
    const server = await startReferenceServer({ apiKey: KEY })
    servers.push(server)
    const run = await conformAgainst(server)
    runs.push(run)
    expect(run.code, run.stdout).toBe(0)
    // every POST but those sent only to a service that refuses long values
    expect(posts(server)).toHaveLength(POST_PROBES.filter((p) => !p.followUp).length)
    expect(server.store).toHaveLength(VALID_CREATES.length)
    expect(ledgered(run)).toEqual(stored(server.store))
    // every record is the run's: by its name, or (an empty name, a name of digits, "0", __proto__) by its description (the name of digits' after an "=")
    for (const record of server.store) expect(`${/^(0|-00\d+|__proto__)$/.test(record.name) ? '' : record.name.trim()}${(record.description ?? '').replace(/^=(?=cf-)/, '')}`.startsWith(`${namePrefix(run.results!.runId)}-`)).toBe(true)
  })

  test('against a server that wrongly accepts invalid bodies: every record it stored, the invalid ones too, in results.json and report.html', async () => {
    const server = await startReferenceServer({ apiKey: KEY, behaviour: { validate: () => null } })
    servers.push(server)
    // --confirm 0: a confirmation sends valid creates again (with other prefixes), which the count
    // of records that should have been refused below would have to tell apart
    const run = await conformAgainst(server, '--confirm', '0')
    runs.push(run)
    expect(run.code).toBe(1)
    expect(server.store.length).toBeGreaterThan(VALID_CREATES.length)
    expect(ledgered(run)).toEqual(stored(server.store))
    expect(run.results!.summary.recordsCreated).toBe(server.store.length)
    const html = run.files['report.html']
    const ledger = html.slice(html.indexOf('<section id="ledger">'))
    expect(ledger).toContain(`<h2>Records created: ${server.store.length}</h2>`)
    for (const record of server.store) expect(ledger).toContain(`<td><code>${record.id}</code></td>`)
    // the ones the server should have refused are marked as such
    expect(ledger.match(/should have been refused/g)?.length).toBe(server.store.length - VALID_CREATES.length)
    expect(run.stdout).toContain(`Records created: ${server.store.length} `)
    expect(run.files['summary.md']).toContain(`### Records created: ${server.store.length}`)
  })
})

describe('README', () => {
  // the Writes section lives in docs/production.md
  const readme = () => readFileSync(join(ROOT, 'docs/production.md'), 'utf8')
  let server: RunningServer | undefined
  let run: ConformRun | undefined
  afterAll(async () => {
    run?.cleanup()
    await server?.close()
  })

  test('the write budget the production recipe recommends verifies every rule, and creates what it says', async () => {
    const match = /`--max-writes (\d+)` verifies every rule with at least one check, and creates (\d+) records on a\s+conforming server/.exec(readme())
    expect(match, 'the ## Production acceptance section').not.toBeNull()
    server = await startReferenceServer({ apiKey: KEY })
    run = await conformAgainst(server, '--max-writes', match![1])
    expect(run.code, run.stdout).toBe(0)
    expect(run.results!.rules.filter((r) => r.status === 'skip').map((r) => r.id)).toEqual([])
    expect(posts(server).length).toBeLessThanOrEqual(Number(match![1]))
    expect(server.store).toHaveLength(Number(match![2]))
  })

  test('states how many POSTs, and so at most how many records, one run creates', () => {
    const match = /One run's checks send at most (\d+) POSTs:\s+(\d+) valid creations[\s\S]*?(\d+) that a conforming\s+server refuses[\s\S]*?and (\d+) that go only to a service that refuses long values/.exec(readme())
    expect(match, 'the ## Writes section').not.toBeNull()
    const followUps = POST_PROBES.filter((p) => p.followUp).length
    expect(Number(match![1])).toBe(POST_PROBE_ORDER.length)
    expect(Number(match![2])).toBe(VALID_CREATES.length)
    expect(Number(match![3])).toBe(POST_PROBE_ORDER.length - VALID_CREATES.length - followUps)
    expect(Number(match![4])).toBe(followUps)
  })
})
