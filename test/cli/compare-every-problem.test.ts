/**
 * compare reads a body's other problems as a baseline entry does (alsoObserved): B whose error
 * bodies lack status as A's do, and write code as a number too, fails otherwise than A (exit 1);
 * before, the first problem alone was compared, and the two read as failing alike.
 * A rule both runs failed, each excused by its own baseline, is no status change.
 */
import { expect, test } from 'vitest'
import type { FailureDetail } from '../../lib/checks/failure.ts'
import { compareRuns } from '../../lib/cli/compare.ts'
import { check, runResult } from '../reporters/fixture.ts'

const RULE = 'error-body-is-error-record'
const noStatus: FailureDetail = { code: 'SCHEMA_MISMATCH', message: 'the body is not an Error record', expected: 'an Error record', actual: 'x', observed: 'body lacks required property "status"', alsoObserved: [] }
const alsoCode: FailureDetail = { ...noStatus, alsoObserved: ['body.code must be string'] }
const run = (failure: FailureDetail) => runResult((id) => (id === RULE ? [check('POST /categories with an empty object → the error body is an Error record', 'fail', { failure })] : [check(`${id} check`, 'pass')]))

test('a body that shows a problem A\'s did not is failing otherwise in B; one problem fewer is not', () => {
  const worse = compareRuns(run(noStatus), run(alsoCode))
  expect(worse.changed).toHaveLength(1)
  expect(worse.changed[0]).toMatchObject({ observedInA: 'body lacks required property "status"' })
  const better = compareRuns(run(alsoCode), run(noStatus))
  expect([better.changed, better.both.length]).toEqual([[], 1])
})

test("a rule both runs failed and their baselines excused has not changed status: A's and B's baseline are no difference", () => {
  const excused = (failure: FailureDetail) => runResult((id) => (id === RULE ? [check('POST /categories with an empty object → the error body is an Error record', 'warn', { failure, known: 'API-7' })] : [check(`${id} check`, 'pass')]))
  expect(compareRuns(excused(noStatus), excused(noStatus)).ruleChanges).toEqual([])
  expect(compareRuns(run(noStatus), excused(noStatus)).ruleChanges).toEqual([`${RULE}: fail → fail (excused by B's baseline)`])
})
