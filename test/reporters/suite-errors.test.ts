/**
 * A check that failed inside the suite (CHECK_ERROR) judged nothing of the service
 * (lib/result/suite-errors.ts): not verified, one suite-error problem, and no verdict against the
 * service (exit 2) unless a must-rule failed on its own.
 */
import { expect, test } from 'vitest'
import { headline } from '../../lib/reporters/wording.ts'
import { check, runResult } from './fixture.ts'

const suiteBug = check('a check that throws', 'fail', { failure: { code: 'CHECK_ERROR', message: "Cannot read properties of undefined (reading 'id')", expected: '-', actual: 'TypeError' } })

test('CHECK_ERROR alone: not verified, one problem naming the first, INCOMPLETE (exit 2)', () => {
  const result = runResult((id) => [id === 'create-echoes-fields' ? suiteBug : check(`${id} check`, 'pass')])
  expect(result.verdict).toBe('incomplete')
  expect(result.exitCode).toBe(2)
  const rule = result.rules.find((r) => r.id === 'create-echoes-fields')!
  expect(rule.status).toBe('skip')
  expect(rule.checks[0]).toMatchObject({ status: 'skip', cause: 'suite-error' })
  expect(rule.checks[0]?.failure).toBeUndefined()
  expect(result.problems).toEqual([{ kind: 'suite-error', message: "1 check failed inside the suite itself (CHECK_ERROR; the first, create-echoes-fields: Cannot read properties of undefined (reading 'id')): a fault of the suite, not a verdict on the service; please report it" }])
  expect(headline(result)).toBe('INCOMPLETE: the suite itself failed (1 check not verified; no must-rule failed): a fault of the suite, not a verdict on the service')
})

test('beside a must-rule that failed on its own: the verdict is that failure (FAIL), and the suite error is still said', () => {
  const broken = check('a real failure', 'fail', { failure: { code: 'UNEXPECTED_STATUS', message: 'GET answered 500, expected 200', expected: 'status 200', actual: 'status 500' } })
  const result = runResult((id) => [id === 'create-echoes-fields' ? suiteBug : id === 'list-returns-200' ? broken : check(`${id} check`, 'pass')])
  expect(result.verdict).toBe('fail')
  expect(result.problems.map((p) => p.kind)).toEqual(['suite-error'])
})
