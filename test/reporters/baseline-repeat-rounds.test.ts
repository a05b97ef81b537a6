/**
 * --repeat N (production behind a load balancer, docs/production.md) names a further round's
 * failed check as the first round's with "(round 2 of 3)" after it. A baseline entry of the check
 * excused the first round only: the known deviation failed the gate in rounds 2 and 3, with the
 * note "known on other checks of this rule, not this one (newly judged after a fix?)". An entry of
 * the check excuses it in every round now, and --update-baseline names it as its first round.
 */
import { expect, test } from 'vitest'
import type { FailureDetail } from '../../lib/checks/failure.ts'
import { applyBaseline, excusedBy, updatedBaseline, type BaselineEntry } from '../../lib/result/baseline.ts'
import { roundCheckName } from '../../lib/result/check-rounds.ts'
import { check, runResult } from './fixture.ts'

const TODAY = '2026-06-01'
const RULE = 'auth-missing-key-401'
const CHECK = 'GET /store/orders with no Authorization header → 401'
const served: FailureDetail = { code: 'UNEXPECTED_STATUS', message: 'GET answered 200, expected 401', expected: 'status 401', actual: 'status 200', observed: 'status 200' }
const entry: BaselineEntry = { rule: RULE, code: 'UNEXPECTED_STATUS', check: CHECK, observed: 'status 200', reason: 'OPS-9: the orders route is public until the gateway moves' }

/** The check failing in the first round and in rounds 2 and 3 of --repeat 3, every other rule passing. */
const repeated = runResult((id) =>
  id === RULE ? [CHECK, roundCheckName(CHECK, 2, 3), roundCheckName(CHECK, 3, 3)].map((name) => check(name, 'fail', { failure: served })) : [check(`${id} check`, 'pass')],
)

test('an entry of the check excuses it in every round of --repeat, and is neither changed nor fixed', () => {
  const result = applyBaseline(repeated, { knownFailures: [entry] }, 'b.json', TODAY)
  expect(result.exitCode).toBe(0)
  expect(result.baseline!.known).toHaveLength(3)
  expect([result.baseline!.fixed, result.baseline!.changed]).toEqual([[], undefined])
  // not probed again either: the confirmation asks the same question
  expect(excusedBy({ knownFailures: [entry] }, TODAY)(RULE, repeated.rules.find((r) => r.id === RULE)!.checks[2]!)).toBe(true)
})

test('--update-baseline on a run with --repeat: one entry of the check, named as its first round', () => {
  const recorded = updatedBaseline(repeated, { knownFailures: [] }, TODAY).knownFailures
  expect(recorded).toHaveLength(1)
  expect(recorded[0]).toMatchObject({ rule: RULE, check: CHECK, observed: 'status 200' })
  expect(updatedBaseline(repeated, { knownFailures: [entry] }, TODAY).knownFailures).toEqual([entry])
})

test("an entry an earlier version recorded of a further round (\"… (round 2 of 3)\") still excuses the check it names, in every round: an upgrade turns no gate red", () => {
  const ofRound2 = { ...entry, check: roundCheckName(CHECK, 2, 3) }
  const result = applyBaseline(repeated, { knownFailures: [ofRound2] }, 'b.json', TODAY)
  expect(result.exitCode).toBe(0)
  expect(result.baseline!.known).toHaveLength(3)
  expect([result.baseline!.fixed, result.baseline!.noSuchCheck]).toEqual([[], undefined])
})
