/**
 * The journal kept by the transport is the record of the run: against a reference server on
 * loopback that counts every request it receives and keeps what it stores, the request count of
 * results.json equals what the server received, the write count its POSTs, and the ledger what it
 * stored; with --rule, a selection that needs no POST sends none and says so first. The
 * journal.ndjson the run appended as it went tells the same requests.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, describe, expect, test } from 'vitest'
import { journalEntries, parseJournalLines } from '../../lib/http/journal.ts'
import { POST_RESENDS_PER_WRITE } from '../../lib/http/retry-after.ts'
import { startReferenceServer, type ReferenceServerOptions, type RunningServer, type StoredCategory } from '../../lib/server/reference-server.ts'
import { findCase } from '../../lib/server/server-cases.ts'
import { TRANSPORT_VARIANTS } from '../../lib/server/variants/transport.ts'
import { POST_PROBES } from '../../suites/cases/write-order.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { RUN_TIMEOUT_MS } from '../hostile/expect-run.ts'
import { portableJson } from '../../lib/json/portable-json.ts'

/** A name as results.json writes it: a lone surrogate as the text of its escape. */
const asWritten = (name: string): string => JSON.parse(portableJson(name)) as string

const KEY = `journal-${randomBytes(12).toString('hex')}`
const servers: RunningServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((r) => r.cleanup())
  await Promise.all(servers.map((s) => s.close()))
})

async function runAgainst(behaviour: ReferenceServerOptions['behaviour'], ...args: string[]) {
  const server = await startReferenceServer({ apiKey: KEY, ...(behaviour ? { behaviour } : {}) })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl, ...args], { env: { CONFORM_API_KEY: KEY } })
  runs.push(run)
  return { server, run }
}

const posts = (server: RunningServer) => server.requests.filter((r) => r.method === 'POST')
// a name that was not a string is ledgered as the body sent, "(sent: …)"
// a lone surrogate in a stored name is the text of its escape in results.json (lib/json/portable-json.ts)
const stored = (store: StoredCategory[]) => store.map((r) => `${r.id} ${typeof r.name === 'string' ? asWritten(r.name) : '(not a string)'}`).sort()
const ledgered = (run: ConformRun) => run.results!.ledger.map((e) => `${e.id} ${e.name.startsWith('(sent: ') ? '(not a string)' : e.name}`).sort()

/**
 * What every run must show: the journal's counts are the server's. `cutByDeadline`: a run the
 * deadline ended may count more, requests whose head was written when it cut their connections
 * (the server may never have read them: the journal counts what may have reached it), never fewer.
 */
function expectJournalIsTheWire(run: ConformRun, server: RunningServer, cutByDeadline = false): void {
  const summary = run.results!.summary
  const sent = run.results!.journal!.filter((e) => e.outcome !== 'refused')
  const cut = cutByDeadline ? sent.filter((e) => e.outcome === 'failed').length : 0
  expect(summary.requests, 'requests in results.json = requests the server received').toBeGreaterThanOrEqual(server.requests.length)
  expect(summary.requests - cut, 'requests in results.json = requests the server received').toBeLessThanOrEqual(server.requests.length)
  expect((summary.writes ?? 0) - cut, 'POSTs in results.json = POSTs the server received').toBeLessThanOrEqual(posts(server).length)
  expect(summary.writes, 'POSTs in results.json = POSTs the server received').toBeGreaterThanOrEqual(posts(server).length)
  expect(ledgered(run), 'the ledger = what the server stored').toEqual(stored(server.store))
  expect(summary.recordsCreated).toBe(server.store.length)
  const shown = (e: { method: string; url: string }) => `${e.method} ${e.url.replace(/^[a-z]+:\/\/[^/]+/i, '')}`
  const received = server.requests.map((r) => `${r.method} ${r.path}`).sort()
  if (!cutByDeadline) expect(sent.map(shown).sort()).toEqual(received)
  else expect(received.every((r) => sent.some((e) => shown(e) === r))).toBe(true)
  expect(run.stdout).toMatch(new RegExp(` ${summary.requests} requests? · `))
  // journal.ndjson, appended as the run went, tells the same requests as results.json
  expect(journalEntries(parseJournalLines(run.files['journal.ndjson'] ?? ''))).toEqual(run.results!.journal)
}

describe('the journal against a server that counts what it receives', () => {
  test('a whole run: every request and every record', async () => {
    const { server, run } = await runAgainst(undefined)
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(server.store.length).toBeGreaterThan(0)
    expectJournalIsTheWire(run, server)
    const creating = POST_PROBES.filter((p) => p.creates).length
    const followUps = POST_PROBES.filter((p) => p.followUp).length
    expect(run.stdout.split('\n')).toContain(
      `Writes: at most ${POST_PROBES.length} POSTs, and at most 2 more for each failed POST to confirm it (--confirm 2), and at most ${POST_PROBES.length} sent again after an answer lost that the list showed not stored: ${4 * POST_PROBES.length} in all, creating at most ${creating} records on a conforming server; ${POST_PROBES.length - creating - followUps} create one only on a server that wrongly accepts them; ` +
        `${followUps} go only to a service that refuses long values, to send those classes of strings in short values (at most ${followUps / 2} records, each in place of a long one refused: still at most ${creating} in all). The interface has no delete. Besides, a POST answered 429 or 503 (a limit, which should store nothing: the list is read before the first of them go again, and one it shows stored does not) goes again once its wait is over: at most ${POST_RESENDS_PER_WRITE * POST_PROBES.length} such resends in a run.`,
    )
    // the reference server limits no length: none of them went out
    expect(run.results!.journal!.filter((e) => POST_PROBES.some((p) => p.followUp && p.key === e.probe))).toEqual([])
  }, RUN_TIMEOUT_MS)

  test('--rule with a rule that needs no POST: none is sent, and the first lines say so', async () => {
    const { server, run } = await runAgainst(undefined, '--rule', 'list-returns-200')
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(posts(server)).toEqual([])
    expect(server.store).toEqual([])
    expectJournalIsTheWire(run, server)
    expect(run.stdout.split('\n').slice(0, 3).join('\n')).toContain('Writes: none. The selected rules (--rule) need no POST')
    // the POSTs that a check of the rule would have waited for are journalled as not sent, and why
    const refused = run.results!.journal!.filter((e) => e.outcome === 'refused')
    expect(refused.length).toBeGreaterThan(0)
    expect(refused.every((e) => e.method === 'POST' && e.reason === 'not-needed')).toBe(true)
    expect(run.results!.summary.refused).toEqual({ 'not-needed': refused.length })
  }, RUN_TIMEOUT_MS)

  test('--rule with a rule that creates: only the POSTs it judges, each ledgered', async () => {
    const { server, run } = await runAgainst(undefined, '--rule', 'create-returns-201')
    expect(run.code, run.stdout + run.stderr).toBe(0)
    const creates = POST_PROBES.filter((p) => p.creates).length
    const followUps = POST_PROBES.filter((p) => p.followUp && p.serves.includes('create-returns-201')).length
    expect(posts(server)).toHaveLength(creates)
    expect(server.store).toHaveLength(creates)
    expectJournalIsTheWire(run, server)
    expect(run.stdout.split('\n')).toContain(
      `Writes: at most ${creates + followUps} POSTs, and at most 2 more for each failed POST to confirm it (--confirm 2), and at most ${creates + followUps} sent again after an answer lost that the list showed not stored: ${4 * (creates + followUps)} in all, creating at most ${creates} records on a conforming server; ${followUps} go only to a service that refuses long values, to send those classes of strings in short values (at most ${followUps / 2} records, each in place of a long one refused: still at most ${creates} in all). The interface has no delete. Besides, a POST answered 429 or 503 (a limit, which should store nothing: the list is read before the first of them go again, and one it shows stored does not) goes again once its wait is over: at most ${POST_RESENDS_PER_WRITE * (creates + followUps)} such resends in a run.`,
    )
  }, RUN_TIMEOUT_MS)

  test('--rule and --max-writes against a server that stores what it should refuse: the ledger has every record it stored', async () => {
    const { server, run } = await runAgainst({ validate: () => null }, '--rule', 'create-rejects-invalid-values', '--max-writes', '3')
    expect(run.code).toBe(1)
    expect(posts(server)).toHaveLength(3)
    expect(server.store).toHaveLength(3)
    expectJournalIsTheWire(run, server)
    expect(run.results!.summary.refused!['write-budget']).toBeGreaterThan(0)
  }, RUN_TIMEOUT_MS)

  test.each([0, 2, 7])('--max-writes %i: the ledger and the counts are the server\'s', async (n) => {
    const { server, run } = await runAgainst(undefined, '--max-writes', String(n))
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(posts(server)).toHaveLength(n)
    expectJournalIsTheWire(run, server)
  }, RUN_TIMEOUT_MS)

  test.each(['rate-limited-429', 'unavailable-503-once', 'rate-limited-503-like-nginx'])('%s: every attempt is journalled and counted, the waits reported, the ledger still what was stored', async (name) => {
    const variant = findCase(TRANSPORT_VARIANTS, name)!
    const { server, run } = await runAgainst(variant.behaviour, '--max-writes', '6')
    expect(run.code, run.stdout + run.stderr).toBe(0)
    const waits = run.results!.summary.waits!
    expect(waits.count).toBeGreaterThan(0)
    // the run's time spent waiting: never more than the waits added up, nor than the run
    expect(waits.heldMs).toBeGreaterThan(0)
    expect(waits.heldMs).toBeLessThanOrEqual(Math.min(waits.totalMs, run.results!.durationMs))
    // Retry-After: 1, a 429's at least (it also waits out the hold the others' 429s made,
    // lib/http/rate-hold.ts), a 503's and up to half as long again, drawn for each; none (nginx):
    // about 1 s each, spread from 0.5 to 1.5 s
    if (name === 'rate-limited-503-like-nginx') expect(waits.totalMs).toBeGreaterThanOrEqual(waits.count * 500)
    else if (name === 'rate-limited-429') expect(waits.totalMs).toBeGreaterThanOrEqual(waits.count * 1000)
    else {
      expect(waits.totalMs).toBeGreaterThanOrEqual(waits.count * 1000)
      expect(waits.totalMs).toBeLessThanOrEqual(waits.count * 1500)
    }
    // a POST answered 429 was not processed and was sent again: each attempt arrived, and counts; one
    // answered 503 is not sent again under --max-writes (a 503 may follow a store the list shows late)
    const retried = run.results!.journal!.filter((e) => e.method === 'POST' && (e.attempt ?? 1) > 1)
    if (name !== 'rate-limited-429') expect(retried.length).toBe(0)
    expect(posts(server).length).toBe(6 + retried.length)
    expectJournalIsTheWire(run, server)
    // the budget counts POSTs; their resends are said apart
    const resent = retried.length > 0 ? `, and ${retried.length} sent again after the server answered 429 or 503 \\(a limit or a pause: the lists read for the first of them showed none stored\\)` : ''
    expect(run.stdout).toMatch(new RegExp(`^Sent: 6 POSTs sent, of at most 6 \\(--max-writes 6\\)${resent}, answered [^;]+;`, 'm'))
    expect(run.stdout).toMatch(new RegExp(`^Waits: the server made the run wait ${waits.count} times \\(429 or 503\\): \\d+\\.\\d s of the run spent waiting \\(\\d+\\.\\d s of waits added up, side by side\\); --rate-limit or --concurrency under its limits spares it the resends$`, 'm'))
    expect(run.files['summary.md']).toContain(`Waits: the server made the run wait ${waits.count} times`)
  }, RUN_TIMEOUT_MS)

  test('a rate limit that outlasts --deadline: the checks still answered 429 are not verified, and the run is INCOMPLETE (exit 2), not failed (§8 leaves limits free)', async () => {
    const variant = findCase(TRANSPORT_VARIANTS, 'rate-limited-10-per-second')!
    const { server, run } = await runAgainst(variant.behaviour, '--deadline', '3000')
    expect(run.code, run.stdout + run.stderr).toBe(2)
    expect(run.results!.verdict).toBe('incomplete')
    expect(run.results!.rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
    expect(run.results!.problems).toContainEqual({
      kind: 'outlasted',
      message: "the server's 429 answers (a rate limit or a pause) outlasted --deadline: checks whose requests were still answered 429 are not verified; raise --deadline, or set --rate-limit under the server's limit",
    })
    expectJournalIsTheWire(run, server, true)
  }, RUN_TIMEOUT_MS)
})
