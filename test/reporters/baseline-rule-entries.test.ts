/**
 * An entry of the whole rule (no `check`): one known deviation excused wherever it shows, on checks
 * a later version of the suite adds too, so that a team's baseline is a few entries, not one per
 * check (a service that answers every error as RFC 9457 problem details once needed 103).
 * --update-baseline writes one for a failure that two or more checks of a rule show alike (same
 * code and observed), and an entry of the check for a failure only one shows.
 */
import { describe, expect, test } from 'vitest'
import type { FailureDetail } from '../../lib/checks/failure.ts'
import { applyBaseline, baselineLine, updatedBaseline, type BaselineEntry } from '../../lib/result/baseline.ts'
import { check, runResult } from './fixture.ts'

const TODAY = '2026-06-01'
const status422: FailureDetail = { code: 'UNEXPECTED_STATUS', message: 'POST answered 422, expected 400', expected: 'status 400', actual: 'status 422', observed: 'status 422' }
const status404: FailureDetail = { ...status422, message: 'POST answered 404, expected 400', actual: 'status 404', observed: 'status 404' }
const serverError: FailureDetail = { code: 'SERVER_ERROR', message: 'POST answered 500', expected: 'status 400', actual: 'status 500', observed: 'status 500' }
const RULE = 'create-rejects-missing-name'

/** The rule's checks with these failures (undefined: passes), every other rule passing. */
const deployed = (...failures: (FailureDetail | undefined)[]) =>
  runResult((id) => (id === RULE ? failures.map((failure, i) => check(`POST /categories, case ${i + 1} → 400`, failure ? 'fail' : 'pass', failure ? { failure } : {})) : [check(`${id} check`, 'pass')]))

const ruleEntry = (extra: Partial<BaselineEntry> = {}): BaselineEntry => ({ rule: RULE, code: 'UNEXPECTED_STATUS', observed: 'status 422', reason: 'API-42: validation answers 422', ...extra })

describe('an entry of the whole rule', () => {
  test('excuses its failure on every check of the rule, one known failure each, and the run passes', () => {
    const result = applyBaseline(deployed(status422, status422, undefined, status422), { knownFailures: [ruleEntry()] }, 'b.json', TODAY)
    expect(result.exitCode).toBe(0)
    expect(result.baseline!.known.map((k) => k.check)).toEqual(['POST /categories, case 1 → 400', 'POST /categories, case 2 → 400', 'POST /categories, case 4 → 400'])
    expect(result.baseline!.fixed).toEqual([])
    expect(baselineLine(result.baseline!)).toBe('Baseline b.json: 3 known failures excused')
  })

  test('excuses nothing else: another status, another code, another rule fail the run, each saying what the entry excuses', () => {
    const result = applyBaseline(deployed(status422, status404, serverError), { knownFailures: [ruleEntry()] }, 'b.json', TODAY)
    expect(result.exitCode).toBe(1)
    const checks = result.rules.find((r) => r.id === RULE)!.checks
    expect(checks.map((c) => c.status)).toEqual(['warn', 'fail', 'fail'])
    expect(checks[1]!.baselineNote).toMatch(/^an entry excuses this check for UNEXPECTED_STATUS as status 422; it now fails as status 404/)
    expect(checks[2]!.baselineNote).toMatch(/^an entry excuses this check for UNEXPECTED_STATUS as status 422, not SERVER_ERROR as status 500/)
    // it excused one check: neither changed nor fixed
    expect(result.baseline!.changed).toBeUndefined()
    expect(result.baseline!.fixed).toEqual([])
  })

  test('no check of the rule fails alike: changed when one fails otherwise, fixed when none fails, kept when the rule was not judged', () => {
    expect(applyBaseline(deployed(status404, undefined), { knownFailures: [ruleEntry()] }, 'b.json', TODAY).baseline!.changed).toHaveLength(1)
    expect(applyBaseline(deployed(undefined, undefined), { knownFailures: [ruleEntry()] }, 'b.json', TODAY).baseline!.fixed).toHaveLength(1)
    const notJudged = runResult((id) => (id === RULE ? [check('POST /categories, case 1 → 400', 'skip')] : [check(`${id} check`, 'pass')]))
    const outcome = applyBaseline(notJudged, { knownFailures: [ruleEntry()] }, 'b.json', TODAY).baseline!
    expect([outcome.fixed, outcome.changed]).toEqual([[], undefined])
    expect(updatedBaseline(notJudged, { knownFailures: [ruleEntry()] }, TODAY).knownFailures).toEqual([ruleEntry()])
  })
})

describe('an entry of the whole rule, where the run judged only some of its checks', () => {
  // the rule's POST checks skipped by --read-only (or --max-writes), a check of it that sends no POST passing
  const readOnly = runResult((id) =>
    id === RULE
      ? [check('POST /categories, case 1 → 400', 'skip', { cause: 'read-only' }), check('POST /categories, case 2 → 400', 'skip', { cause: 'read-only' }), check('GET /categories → 200', 'pass')]
      : [check(`${id} check`, 'pass')],
  )

  test('a run whose checks skipped for the user\'s own limits (--read-only) shows nothing fixed, and --update-baseline keeps the entry', () => {
    const outcome = applyBaseline(readOnly, { knownFailures: [ruleEntry()] }, 'b.json', TODAY).baseline!
    expect([outcome.fixed, outcome.changed]).toEqual([[], undefined])
    expect(updatedBaseline(readOnly, { knownFailures: [ruleEntry()] }, TODAY).knownFailures).toEqual([ruleEntry()])
  })

  test('where it excused a check of such a run too, --update-baseline keeps it once', () => {
    const partly = runResult((id) => (id === RULE ? [check('POST /categories, case 1 → 400', 'skip', { cause: 'read-only' }), check('POST /categories, case 2 → 400', 'fail', { failure: status422 })] : [check(`${id} check`, 'pass')]))
    expect(updatedBaseline(partly, { knownFailures: [ruleEntry()] }, TODAY).knownFailures).toEqual([ruleEntry()])
  })

  test('checks not applicable to the service still let the entry be judged: fixed when no check fails alike', () => {
    const judged = runResult((id) => (id === RULE ? [check('POST /categories, case 1 → 400', 'pass'), check('POST /categories, case 2 → 400', 'skip', { cause: 'not-applicable' })] : [check(`${id} check`, 'pass')]))
    expect(applyBaseline(judged, { knownFailures: [ruleEntry()] }, 'b.json', TODAY).baseline!.fixed).toHaveLength(1)
  })
})

describe('--update-baseline', () => {
  test('a failure two or more checks show alike is one entry of the rule; one only one shows, an entry of its check', () => {
    const { knownFailures } = updatedBaseline(deployed(status422, status422, serverError, status422), { knownFailures: [] }, TODAY)
    expect(knownFailures).toEqual([
      { rule: RULE, code: 'UNEXPECTED_STATUS', observed: 'status 422', reason: `recorded by --update-baseline on ${TODAY} (on 3 checks of the rule, and on any other that shows it): say why it is known, and when it will be fixed` },
      { rule: RULE, code: 'SERVER_ERROR', check: 'POST /categories, case 3 → 400', observed: 'status 500', reason: `recorded by --update-baseline on ${TODAY}: say why it is known, and when it will be fixed` },
    ])
  })

  test('keeps an entry that still excuses, once, with its reason; per-check entries of an older file stay as they are', () => {
    const perCheck: BaselineEntry = { ...ruleEntry(), check: 'POST /categories, case 2 → 400' }
    const { knownFailures } = updatedBaseline(deployed(status422, status422, status422), { knownFailures: [ruleEntry(), perCheck] }, TODAY)
    expect(knownFailures).toEqual([ruleEntry()])
    const older = updatedBaseline(deployed(undefined, status422), { knownFailures: [perCheck] }, TODAY).knownFailures
    expect(older).toEqual([perCheck])
  })
})
