/** What "the same cause" means: same rule, code, message, expected and actual, character for character. */
import { describe, expect, test } from 'vitest'
import type { FailureDetail } from '../../lib/checks/failure.ts'
import { failureGroups, runFailureGroups } from '../../lib/reporters/failure-groups.ts'
import { check, oneCauseManyChecks, runResult, STATUS_400_IN_401 } from './fixture.ts'

const failing = (name: string, failure: FailureDetail) => check(name, 'fail', { failure })
const ruleOf = (checks: ReturnType<typeof check>[]) => runResult((id) => (id === 'error-status-matches-http' ? checks : [check('p', 'pass')])).rules.find((r) => r.id === 'error-status-matches-http')!

describe('failure groups', () => {
  test('29 checks with one cause are one group that keeps each check, in run order; another cause is another group', () => {
    const rule = oneCauseManyChecks(29).rules.find((r) => r.id === 'error-status-matches-http')!
    const groups = failureGroups(rule)
    expect(groups.map((g) => g.checks.length)).toEqual([29, 1])
    expect(groups[0].failure).toEqual(STATUS_400_IN_401)
    expect(groups[0].checks.map((c) => c.name)).toEqual(rule.checks.filter((c) => c.failure === STATUS_400_IN_401).map((c) => c.name))
    expect(groups[0].checks[0].name).toBe('GET /categories with no Authorization header → Error.status equals the HTTP status')
  })

  test.each([
    ['code', { ...STATUS_400_IN_401, code: 'UNEXPECTED_STATUS' }],
    ['message', { ...STATUS_400_IN_401, message: STATUS_400_IN_401.message + '.' }],
    ['expected', { ...STATUS_400_IN_401, expected: '"status":  401' }],
    ['actual', { ...STATUS_400_IN_401, actual: '"status": 400 ' }],
    ['actual (an invisible character)', { ...STATUS_400_IN_401, actual: '"status": 400\u200B' }],
  ] as [string, FailureDetail][])('failures that differ only in their %s are two groups', (_, other) => {
    const groups = failureGroups(ruleOf([failing('a', STATUS_400_IN_401), failing('b', other), failing('c', STATUS_400_IN_401)]))
    expect(groups.map((g) => g.checks.map((c) => c.name))).toEqual([['a', 'c'], ['b']])
  })

  test('equal failures are grouped whatever object holds them; passing and skipped checks are never in a group', () => {
    const groups = failureGroups(ruleOf([failing('a', { ...STATUS_400_IN_401 }), check('p', 'pass'), check('s', 'skip'), failing('b', { ...STATUS_400_IN_401 })]))
    expect(groups).toHaveLength(1)
    expect(groups[0].checks.map((c) => c.name)).toEqual(['a', 'b'])
  })

  test('the same failure in two rules is two groups: a group never spans rules', () => {
    const result = runResult((id) => (id === 'auth-missing-key-401' || id === 'auth-invalid-key-401' ? [failing('x', STATUS_400_IN_401)] : [check('p', 'pass')]))
    expect(runFailureGroups(result).map((g) => g.rule.id)).toEqual(['auth-missing-key-401', 'auth-invalid-key-401'])
  })
})
