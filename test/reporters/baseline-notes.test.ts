/**
 * What a team reads when its baselined gate turns red, or stays green with entries gone stale: a
 * failure the baseline does not excuse says how it relates to the entries that are there (one
 * expired, one names the check for another code, or the rule and code are known on other checks:
 * a fix of one known deviation lets checks be judged that it hid, and the other known deviation
 * then shows on them), in every report; and under GitHub Actions the entries that no longer fail
 * are a warning on the run's page, not only a line in the log of a job that passed.
 */
import { describe, expect, test } from 'vitest'
import type { FailureDetail } from '../../lib/checks/failure.ts'
import { applyBaseline, type BaselineEntry } from '../../lib/result/baseline.ts'
import { annotations } from '../../lib/reporters/github-actions.ts'
import { htmlReport } from '../../lib/reporters/html-report.ts'
import { junitReport } from '../../lib/reporters/junit-report.ts'
import { markdownSummary } from '../../lib/reporters/markdown-summary.ts'
import { terminalSummary } from '../../lib/reporters/terminal-summary.ts'
import { check, runResult } from './fixture.ts'

const TODAY = '2026-06-01'
const status422: FailureDetail = { code: 'UNEXPECTED_STATUS', message: 'POST answered 422, expected 400', expected: 'status 400', actual: 'status 422' }
const serverError: FailureDetail = { code: 'SERVER_ERROR', message: 'POST answered 500', expected: 'status 400', actual: 'status 500' }
const noStatus: FailureDetail = { code: 'SCHEMA_MISMATCH', message: 'the body is not an Error record', expected: 'an Error record', actual: 'body lacks required property "status"' }

/** create-rejects-missing-name fails four checks; error-body-is-error-record one; the rest pass. */
function deployed() {
  return runResult((id) => {
    if (id === 'create-rejects-missing-name') {
      return [
        check('POST /categories with an empty object → 400', 'fail', { failure: status422 }),
        check('POST /categories with a body without name → 400', 'fail', { failure: status422 }),
        check('POST /categories with the name under the key "Name" → 400', 'fail', { failure: serverError }),
        check('POST /categories with a name in the query string → 400', 'fail', { failure: status422 }),
      ]
    }
    if (id === 'error-body-is-error-record') return [check('POST /categories with an empty object → the error body is an Error record', 'fail', { failure: noStatus })]
    return [check(`${id} check`, 'pass')]
  })
}

const entry = (check: string, extra: Partial<BaselineEntry> = {}): BaselineEntry => ({ rule: 'create-rejects-missing-name', code: 'UNEXPECTED_STATUS', check, reason: 'API-42: validation answers 422', ...extra })

describe('a failure the baseline does not excuse says what the baseline holds of it', () => {
  const baseline = {
    knownFailures: [
      entry('POST /categories with an empty object → 400', { expires: '2026-05-31' }),
      entry('POST /categories with the name under the key "Name" → 400'),
      entry('POST /categories with a name in the query string → 400'),
    ],
  }
  const result = applyBaseline(deployed(), baseline, 'conform-baseline.json', TODAY)
  const checks = result.rules.find((r) => r.id === 'create-rejects-missing-name')!.checks
  const note = (name: string) => checks.find((c) => c.name.startsWith(name))!.baselineNote

  test('each kind of relation, and none where the baseline holds nothing of the rule and code', () => {
    expect(result.exitCode).toBe(1)
    expect(note('POST /categories with an empty object')).toBe('excused by an entry that expired 2026-05-31: it fails the run again (reason: "API-42: validation answers 422"); fix it, or give the entry a later "expires" once you agree it stays known')
    expect(note('POST /categories with the name under the key')).toBe('an entry excuses this check for UNEXPECTED_STATUS, not SERVER_ERROR (reason: "API-42: validation answers 422")')
    expect(note('POST /categories with a body without name')).toMatch(/^known on 2 other checks of this rule, not this one \(newly judged after a fix\?\): --update-baseline adds it/)
    // excused, so no note; and a rule the baseline knows nothing of gets none
    expect(note('POST /categories with a name in the query string')).toBeUndefined()
    expect(result.rules.find((r) => r.id === 'error-body-is-error-record')!.checks[0].baselineNote).toBeUndefined()
  })

  test('every report says it beside the failure', () => {
    expect(terminalSummary(result, [])).toContain('        baseline: excused by an entry that expired 2026-05-31: it fails the run again')
    expect(annotations(result).find((a) => a.startsWith('::error title=create-rejects-missing-name'))).toContain('%0Abaseline: excused by an entry that expired 2026-05-31')
    expect(junitReport(result)).toContain('baseline: an entry excuses this check for UNEXPECTED_STATUS, not SERVER_ERROR')
    // two checks of one cause with two different notes: the first, and a count of the others
    expect(markdownSummary(result)).toContain('(baseline: excused by an entry that expired 2026-05-31')
    expect(markdownSummary(result)).toContain('\\(and 1 other note of these checks in results.json\\))')
    expect(htmlReport(result)).toContain('baseline: excused by an entry that expired 2026-05-31')
  })
})

test('after a fix, the other known deviation met on the checks the fix let be judged is red, and says it is the known one', () => {
  // the baseline knew the missing status on one check; the 422 being fixed, it shows on another
  const known = 'GET /categories with no Authorization header → the error body is an Error record'
  const baseline = { knownFailures: [{ rule: 'error-body-is-error-record', code: 'SCHEMA_MISMATCH', check: known, reason: 'API-43: no status' }] }
  // the check the entry names is in the run, and passes (an entry of a check the run does not have reads as renamed)
  const run = deployed()
  run.rules = run.rules.map((r) => (r.id === 'error-body-is-error-record' ? { ...r, checks: [...r.checks, check(known, 'pass')] } : r))
  const result = applyBaseline(run, baseline, 'conform-baseline.json', TODAY)
  expect(result.exitCode).toBe(1)
  const failed = result.rules.find((r) => r.id === 'error-body-is-error-record')!.checks[0]
  expect(failed.status).toBe('fail')
  expect(failed.baselineNote).toBe(
    'known on another check of this rule, not this one (newly judged after a fix?): --update-baseline adds it (reason: "API-43: no status")',
  )
})

test('under GitHub Actions, entries that no longer fail are a warning on the page of a run that passed', () => {
  const passing = runResult()
  const baseline = { knownFailures: [{ rule: 'ids-unique', code: 'DUPLICATE_ID', check: 'ids-unique check', reason: 'OPS-7' }] }
  const result = applyBaseline(passing, baseline, 'conform-baseline.json', TODAY)
  expect(result.exitCode).toBe(0)
  expect(result.baseline!.fixed).toHaveLength(1)
  const warning = annotations(result).find((a) => a.startsWith('::warning title=Baseline'))
  expect(warning).toBe(
    '::warning title=Baseline%3A 1 entry no longer fails::remove it (--update-baseline does): until then each would excuse its failure, should it come back%0Aids-unique [DUPLICATE_ID] ids-unique check',
  )
  // nothing stale, no warning
  expect(annotations(applyBaseline(passing, { knownFailures: [] }, 'conform-baseline.json', TODAY)).some((a) => a.includes('Baseline'))).toBe(false)
})

test('an entry excuses its failure while it shows what the entry observed; an entry or a failure without observed compares the code alone', () => {
  const entries = (observed?: string) => ({ knownFailures: ['POST /categories with an empty object → 400', 'POST /categories with a body without name → 400', 'POST /categories with a name in the query string → 400'].map((c) => entry(c, observed === undefined ? {} : { observed })) })
  const withObserved = (observed: string | undefined) => runResult((id) => (id === 'create-rejects-missing-name' ? deployed().rules.find((r) => r.id === id)!.checks.filter((c) => c.failure?.code === 'UNEXPECTED_STATUS').map((c) => ({ ...c, failure: { ...c.failure!, ...(observed === undefined ? {} : { observed }) } })) : [check(`${id} check`, 'pass')]))
  const known = (result: ReturnType<typeof applyBaseline>) => [result.exitCode, result.baseline!.known.length, result.baseline!.changed?.length ?? 0]
  expect(known(applyBaseline(withObserved('status 422'), entries('status 422'), 'b.json', TODAY))).toEqual([0, 3, 0])
  expect(known(applyBaseline(withObserved('status 404'), entries('status 422'), 'b.json', TODAY))).toEqual([1, 0, 3])
  // a file written before observed was recorded, and a failure that records none: the code decides, as before
  expect(known(applyBaseline(withObserved('status 404'), entries(), 'b.json', TODAY))).toEqual([0, 3, 0])
  expect(known(applyBaseline(withObserved(undefined), entries('status 422'), 'b.json', TODAY))).toEqual([0, 3, 0])
})
