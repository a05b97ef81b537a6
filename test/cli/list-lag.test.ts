/**
 * --list-lag against a real loopback server whose list shows a created category only 3 s after its
 * creation (the variant list-lags-behind-writes, started 3 s behind: a read replica, a search index
 * under load). §4.1 says the list holds "all categories available", not how soon: the default
 * (5 s) waits that out and passes; --list-lag 1000 gives up before the records appear and fails
 * created-in-list, which proves the check is still able to fail on a list that lags.
 */
import { randomBytes } from 'node:crypto'
import { expect, test } from 'vitest'
import { caseKey, startCase } from '../../lib/server/server-cases.ts'
import { listLagsBehindWrites } from '../../lib/server/variants.ts'
import type { ConformRun } from '../helpers/run-conform.ts'
import { failedRules, runsWithKey } from '../helpers/run-conform.ts'

const LAG_MS = 3_000
const lagging = { ...listLagsBehindWrites(LAG_MS), apiKey: `key-${randomBytes(12).toString('hex')}` }
const { serve, conform } = runsWithKey(caseKey(lagging))
// each run waits seconds for the list; the failing one once more for each confirmation
const RUN_TIMEOUT_MS = 60_000

/** The lists created-in-list judged on (its evidence): the one after the POSTs, and each re-read. */
const listsJudged = (run: ConformRun) =>
  (run.results?.rules.find((r) => r.id === 'created-in-list')?.checks ?? [])
    .filter((c) => c.name.startsWith("GET /categories after the run's POSTs"))
    .flatMap((c) => c.exchanges.filter((e) => e.request.method === 'GET'))

test(
  `a list ${LAG_MS} ms behind the writes, with the default --list-lag (5000): read again until it shows the creates, exit 0`,
  async () => {
    const server = serve(await startCase(lagging, { apiKey: caseKey(lagging) }))
    const run = await conform(server)
    expect(failedRules(run), run.stdout).toEqual([])
    expect(run.code, run.stdout).toBe(0)
    // the lag was real: the list after the POSTs missed the creates, and was read again
    expect(listsJudged(run).length, run.stdout).toBeGreaterThanOrEqual(3)
    // results.json says how long the list was given
    expect(run.results?.options.listLagMs).toBe(5000)
  },
  RUN_TIMEOUT_MS,
)

test(
  `the same list with --list-lag 1000: the records are still missing when the waiting ends, created-in-list fails with MISSING_FROM_LIST`,
  async () => {
    const server = serve(await startCase(lagging, { apiKey: caseKey(lagging) }))
    const run = await conform(server, '--list-lag', '1000')
    expect(run.code, run.stdout).toBe(1)
    expect(failedRules(run), run.stdout).toEqual(['created-in-list'])
    const [failed] = run.results?.rules.find((r) => r.id === 'created-in-list')?.checks.filter((c) => c.status === 'fail') ?? []
    expect(failed?.failure?.code, run.stdout).toBe('MISSING_FROM_LIST')
    expect(failed?.failure?.message).toMatch(/is missing from the list that followed after 1000 ms of re-reads \(--list-lag 1000\)$/)
    expect(failed?.recurrence?.kind, run.stdout).toBe('deterministic')
    expect(run.results?.options.listLagMs).toBe(1000)
    // in each attempt (--confirm probes it again), the list after the POSTs and its three re-reads, 200, 400 and 400 ms apart
    expect(listsJudged(run)).toHaveLength(4 * (failed?.recurrence?.attempts ?? 0))
  },
  RUN_TIMEOUT_MS,
)
