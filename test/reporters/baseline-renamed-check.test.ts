/**
 * A baseline of entries of checks, read by a version of the suite that renamed one of them (check
 * names are words, and they get reworded). The entry was reported "fixed (no longer failing:
 * remove it)", and the failure under the new name "known on another check of this rule, not this
 * one (newly judged after a fix?)"; --update-baseline then dropped the entry and its reason. The
 * entry is reported apart now (a check this version does not have, never fixed), the failure says
 * it may be the renamed check, and --update-baseline moves the entry to it, reason and date kept.
 * It still fails the run: an entry names one check, and a baseline hides nothing it does not name.
 */
import { expect, test } from 'vitest'
import type { FailureDetail } from '../../lib/checks/failure.ts'
import { applyBaseline, baselineLine, updatedBaseline, type BaselineEntry } from '../../lib/result/baseline.ts'
import { terminalSummary } from '../../lib/reporters/terminal-summary.ts'
import { check, runResult } from './fixture.ts'

const TODAY = '2026-06-01'
const RULE = 'auth-missing-key-401'
const served: FailureDetail = { code: 'UNEXPECTED_STATUS', message: 'GET answered 403, expected 401', expected: 'status 401', actual: 'status 403', observed: 'status 403' }
const OLD = 'GET /store/orders without a key → 401'
const NEW = 'GET /store/orders with no Authorization header → 401'
const entry: BaselineEntry = { rule: RULE, code: 'UNEXPECTED_STATUS', check: OLD, observed: 'status 403', reason: 'OPS-112: the gateway answers 403', expires: '2027-01-31' }

/** The newer suite: the check under its new name, failing as the entry knew; another check of the rule passing. */
const newer = runResult((id) => (id === RULE ? [check(NEW, 'fail', { failure: served }), check('GET /categories with no Authorization header → 401', 'pass')] : [check(`${id} check`, 'pass')]))

test('an entry of a check this version does not have: not "fixed", the failure says it may be the renamed check', () => {
  const result = applyBaseline(newer, { knownFailures: [entry] }, 'b.json', TODAY)
  expect(result.exitCode).toBe(1)
  expect(result.baseline!.fixed).toEqual([])
  expect(result.baseline!.noSuchCheck).toEqual([entry])
  expect(baselineLine(result.baseline!)).toContain('1 of a check this version of the suite does not have (renamed or removed: --update-baseline moves it to the check that fails alike, or drops it)')
  const failed = result.rules.find((r) => r.id === RULE)!.checks[0]!
  expect(failed.baselineNote).toMatch(/^an entry names the check "GET \/store\/orders without a key → 401" for UNEXPECTED_STATUS as status 403, which this version of the suite does not have: renamed to this one\?/)
  expect(terminalSummary(result, [])).toContain(`  no such check in this version of the suite (renamed or removed?): ${RULE} UNEXPECTED_STATUS › ${OLD}`)
})

test('--update-baseline moves the entry to the renamed check, keeping its reason and date, and the next run passes', () => {
  const updated = updatedBaseline(newer, { knownFailures: [entry] }, TODAY)
  expect(updated.knownFailures).toEqual([{ ...entry, check: NEW }])
  expect(applyBaseline(newer, updated, 'b.json', TODAY).exitCode).toBe(0)
  // a check removed, with nothing failing alike: dropped, as before
  const removed = runResult((id) => [check(`${id} check`, 'pass')])
  expect(updatedBaseline(removed, { knownFailures: [entry] }, TODAY).knownFailures).toEqual([])
})

test('an entry of a check this version does not have, whose failure shows on several checks alike: the entry of the rule written names it and its reason, where it was dropped without a word', () => {
  const several = runResult((id) => (id === RULE ? [check(NEW, 'fail', { failure: served }), check('GET /categories with no Authorization header → 401', 'fail', { failure: served })] : [check(`${id} check`, 'pass')]))
  const updated = updatedBaseline(several, { knownFailures: [entry] }, TODAY)
  expect(updated.knownFailures).toHaveLength(1)
  expect(updated.knownFailures[0]!.check).toBeUndefined()
  expect(updated.knownFailures[0]!.reason).toContain(`(it was known on the check "${OLD}", which this version of the suite does not have: "OPS-112: the gateway answers 403")`)
  expect(applyBaseline(several, updated, 'b.json', TODAY).exitCode).toBe(0)
})

test('an entry of a check this version renamed itself (error-body-is-error-record came to judge 409 and 422, review59): it excuses the check under its new name, the gate stays green, nothing is named apart', () => {
  const rule = 'error-body-is-error-record'
  const body: FailureDetail = { code: 'SCHEMA_MISMATCH', message: 'the body is not an Error record', expected: 'an Error record', actual: '{"error": "too long"}', observed: 'body lacks required property "code"' }
  const create = 'POST /categories with a 16-character name and a 21,900-character description of € signs (65,670 bytes)'
  const known: BaselineEntry = { rule, code: 'SCHEMA_MISMATCH', check: `${create} → if refused with 400, the body is an Error record`, observed: 'body lacks required property "code"', reason: 'OPS-7: long bodies refused by hand' }
  const upgraded = runResult((id) => (id === rule ? [check(`${create} → if refused with 400, 409 or 422, the body is an Error record`, 'fail', { failure: body })] : [check(`${id} check`, 'pass')]))
  const result = applyBaseline(upgraded, { knownFailures: [known] }, 'b.json', TODAY)
  expect(result.exitCode).toBe(0)
  expect(result.baseline!.noSuchCheck ?? []).toEqual([])
  expect(result.baseline!.fixed).toEqual([])
  // --update-baseline writes it under the name it has now, reason kept
  expect(updatedBaseline(upgraded, { knownFailures: [known] }, TODAY).knownFailures).toEqual([{ ...known, check: `${create} → if refused with 400, 409 or 422, the body is an Error record` }])
  // in a further round of --repeat too
  const rounds = runResult((id) => (id === rule ? [check(`${create} → if refused with 400, 409 or 422, the body is an Error record (round 2 of 3)`, 'fail', { failure: body })] : [check(`${id} check`, 'pass')]))
  expect(applyBaseline(rounds, { knownFailures: [{ ...known, check: `${known.check} (round 2 of 3)` }] }, 'b.json', TODAY).exitCode).toBe(0)
})
