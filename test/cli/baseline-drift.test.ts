/**
 * A baselined failure that changes for the worse under the same failure code must not stay green:
 * an entry records what its failure showed (`observed`: the status, where the body breaks its
 * schema), and excuses it only while it shows the same. Before, a create baselined for answering
 * 200 stayed excused when a deploy made it answer 202, 404 or a record without id (the same code),
 * and the gate passed. What must NOT count as a change: the same fault met with other generated
 * names, ids, prefix and seed, on a server holding other records.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import type { Baseline } from '../../lib/result/baseline.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import type { Behaviour, RunningServer } from '../../lib/server/reference-server.ts'
import { errorReply, seedCategories, startCase, type Mutation } from '../../lib/server/server-cases.ts'
import { failedRules, runsWithKey, type ConformRun } from '../helpers/run-conform.ts'
import { RUN_TIMEOUT_MS } from '../hostile/expect-run.ts'

const KEY = 'baseline-drift-key-5b2e7a'
// every run --seed 1 unless it gives another (the last --seed wins)
const { serve: served, conform } = runsWithKey(KEY)
const dir = mkdtempSync(join(tmpdir(), 'conform-baseline-drift-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const mutation = (name: string) => MUTATIONS.find((m) => m.name === name) as Mutation

async function serve(name: string, behaviour: Partial<Behaviour>, records = 0): Promise<RunningServer> {
  return served(await startCase({ name, description: '', behaviour, ...(records > 0 ? { seed: () => seedCategories(records) } : {}) }, { apiKey: KEY }))
}

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Baseline
/** The failed checks of a rule, with what the baseline said of each. */
const failedChecks = (run: ConformRun, rule: string) => run.results!.rules.find((r) => r.id === rule)!.checks.filter((c) => c.status === 'fail')

/** After a deploy the create route is gone: 404 with an Error record, nothing stored. */
const CREATE_ANSWERS_404: Partial<Behaviour> = {
  finish: (reply, request, store) => {
    if (request.operation !== 'createCategory' || reply.status !== 201) return reply
    store.pop()
    return errorReply(404, 'not_found', 'No route for POST /v1/categories')
  },
}

describe('a baselined failure that changes under the same code', { timeout: RUN_TIMEOUT_MS }, () => {
  test('a create known to answer 200 that now answers 202 fails the run, saying what was known and what is seen', async () => {
    const file = join(dir, 'created-200.json')
    const recorded = await conform(await serve('create-answers-200', mutation('create-answers-200').behaviour), '--baseline', file, '--update-baseline')
    expect(recorded.code, recorded.stdout).toBe(0)
    const drifted = await conform(await serve('create-answers-202', mutation('create-answers-202').behaviour), '--baseline', file)
    expect(drifted.code, drifted.stdout).toBe(1)

    const baseline = read(file)
    // the one deviation is one entry of the rule: every create answered 200, whichever check met it
    expect(baseline.knownFailures).toHaveLength(1)
    expect(baseline.knownFailures[0]!.check).toBeUndefined()
    // every entry records the status it saw, and nothing the run generated
    expect(new Set(baseline.knownFailures.map((e) => `${e.rule} ${e.code} ${e.observed}`))).toEqual(new Set(['create-returns-201 UNEXPECTED_STATUS status 200']))
    expect(JSON.stringify(baseline)).not.toMatch(/cf-[0-9a-z]{5}|conform-\d{8}/)
    // the known deviation, changed, is all that fails: each of its checks says so
    expect(failedRules(drifted)).toEqual(['create-returns-201'])
    const failed = failedChecks(drifted, 'create-returns-201')
    expect(failed).toHaveLength(recorded.results!.baseline!.known.length)
    for (const check of failed) {
      expect(check.failure!.observed).toBe('status 202')
      expect(check.baselineNote).toMatch(/^an entry excuses this check for UNEXPECTED_STATUS as status 200; it now fails as status 202, which the entry does not excuse \(reason: "recorded by --update-baseline on /)
    }
    expect(drifted.results!.baseline!.known).toEqual([])
    expect(drifted.results!.baseline!.fixed).toEqual([])
    expect(drifted.results!.baseline!.changed).toHaveLength(1)
    expect(drifted.stdout).toContain(`Baseline ${file}: 0 known failures excused; 1 changed (its check fails otherwise now: it excused nothing)`)
    expect(drifted.stdout).toMatch(/^ {8}baseline: an entry excuses this check for UNEXPECTED_STATUS as status 200; it now fails as status 202/m)
    expect(drifted.files['summary.md']).toContain('(baseline: an entry excuses this check for UNEXPECTED\\_STATUS as status 200; it now fails as status 202')

    // 404 (a route gone) and 500: red as well, each named
    const routeGone = await serve('create-answers-404', CREATE_ANSWERS_404)
    const gone = await conform(routeGone, '--baseline', file, '--rule', 'create-returns-201')
    expect(gone.code, gone.stdout).toBe(1)
    expect(new Set(failedChecks(gone, 'create-returns-201').map((c) => c.baselineNote?.replace(/ \(reason: .*$/, '')))).toEqual(
      new Set(['an entry excuses this check for UNEXPECTED_STATUS as status 200; it now fails as status 404, which the entry does not excuse']),
    )
    const faulty = await conform(await serve('create-answers-500', { finish: (reply, request) => (request.operation === 'createCategory' && reply.status === 201 ? errorReply(500, 'internal', 'boom') : reply) }), '--baseline', file, '--rule', 'create-returns-201')
    expect(faulty.code, faulty.stdout).toBe(1)
    expect(failedChecks(faulty, 'create-returns-201')[0].baselineNote).toMatch(/^an entry excuses this check for UNEXPECTED_STATUS as status 200, not SERVER_ERROR as status 500 \(reason: /)
    // another code is not a fix either
    expect(faulty.results!.baseline!.fixed).toEqual([])

    // --update-baseline accepts the change deliberately: the new status, and a reason to give again
    const accepted = await conform(routeGone, '--baseline', file, '--update-baseline', '--rule', 'create-returns-201')
    expect(accepted.code, accepted.stdout).toBe(0)
    const updated = read(file)
    expect(new Set(updated.knownFailures.map((e) => e.observed))).toEqual(new Set(['status 404']))
    expect(updated.knownFailures.every((e) => /^recorded by --update-baseline on \d{4}-\d{2}-\d{2}( \(on \d+ checks of the rule, and on any other that shows it\))?: say why it is known, and when it will be fixed \(it was known as status 200\)$/.test(e.reason))).toBe(true)
  })

  test('a record known to carry its id as a string that now comes without one fails the run', async () => {
    const file = join(dir, 'id-as-string.json')
    const recorded = await conform(await serve('created-id-as-string', mutation('created-id-as-string').behaviour), '--baseline', file, '--update-baseline', '--rule', 'create-returns-category')
    expect(recorded.code, recorded.stdout).toBe(0)
    const drifted = await conform(await serve('created-id-missing', mutation('created-id-missing').behaviour), '--baseline', file, '--rule', 'create-returns-category')
    expect(drifted.code, drifted.stdout).toBe(1)
    expect(new Set(read(file).knownFailures.map((e) => `${e.code} ${e.observed}`))).toEqual(new Set(['SCHEMA_MISMATCH body.id must be integer']))
    expect(failedChecks(drifted, 'create-returns-category')[0].baselineNote).toMatch(/^an entry excuses this check for SCHEMA_MISMATCH as body.id must be integer; it now fails as body lacks required property "id", which the entry does not excuse/)
  })

  test('the same fault with other names, ids, prefix and seed, on a server holding other records, stays known', async () => {
    const file = join(dir, 'same-fault.json')
    const both = { ...mutation('create-answers-200').behaviour, ...mutation('created-id-as-string').behaviour }
    const recorded = await conform(await serve('200-and-id-as-string', both), '--baseline', file, '--update-baseline')
    expect(recorded.code, recorded.stdout).toBe(0)
    const entries = read(file).knownFailures
    expect(new Set(entries.map((e) => `${e.rule} ${e.observed}`))).toEqual(new Set(['create-returns-201 status 200', 'create-returns-category body.id must be integer']))
    // another instance of the same service: 40 records before the run, so other ids; another seed draws other values
    const again = await conform(await serve('200-and-id-as-string-elsewhere', both, 40), '--baseline', file, '--seed', '987654')
    expect(again.code, again.stdout).toBe(0)
    expect(again.results!.baseline!.known).toHaveLength(recorded.results!.baseline!.known.length)
    expect(again.results!.baseline!.changed).toBeUndefined()
    expect(again.results!.baseline!.fixed).toEqual([])
  })

  test('entries written before observed was recorded excuse their code as before, and --update-baseline adds it', async () => {
    const file = join(dir, 'older.json')
    const server = await serve('create-answers-202-older', mutation('create-answers-202').behaviour)
    const first = await conform(server, '--baseline', file, '--update-baseline', '--rule', 'create-returns-201')
    // as the file was written before: no observed, a reason and an expiry of the team's
    const older = read(file).knownFailures.map(({ observed: _o, ...e }) => ({ ...e, reason: 'API-7: the queue answers 202', expires: '2099-01-31' }))
    writeFileSync(file, JSON.stringify({ knownFailures: older }))
    const gone = await conform(await serve('create-answers-404-older', CREATE_ANSWERS_404), '--baseline', file, '--seed', '2', '--rule', 'create-returns-201')
    expect(gone.code, gone.stdout).toBe(0)
    expect(gone.results!.baseline!.known).toHaveLength(first.results!.baseline!.known.length)
    await conform(server, '--baseline', file, '--update-baseline', '--seed', '3', '--rule', 'create-returns-201')
    expect(read(file).knownFailures).toEqual(older.map((e) => ({ ...e, observed: 'status 202' })))
  })

  test('an observed that is not a non-empty string is exit 2 with one line', async () => {
    const file = join(dir, 'bad-observed.json')
    writeFileSync(file, JSON.stringify({ knownFailures: [{ rule: 'create-returns-201', code: 'UNEXPECTED_STATUS', check: 'c', reason: 'r', observed: { status: 200 } }] }))
    const run = await conform(await serve('conforming', {}), '--baseline', file)
    expect(run.code).toBe(2)
    expect(run.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/knownFailures\[0\] has an observed that is not a non-empty string/)])
  })
})
