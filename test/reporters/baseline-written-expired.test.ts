/**
 * --update-baseline with an entry past its "expires" date that still matches: the entry is kept as
 * it is (a new date is the team's decision, not a recording), so it excuses nothing and the run
 * fails on it. The line said "Baseline written: … (2 known failures …)" and nothing of why a run
 * that was to record every failure exited 1; it says so now.
 */
import { expect, test } from 'vitest'
import type { FailureDetail } from '../../lib/checks/failure.ts'
import { applyBaseline, updatedBaseline, type BaselineEntry } from '../../lib/result/baseline.ts'
import { baselineWritten } from '../../lib/runner/run-reports.ts'
import { check, runResult } from './fixture.ts'

const TODAY = '2026-11-27'
const gateway: FailureDetail = { code: 'UNEXPECTED_STATUS', message: 'GET answered 403, expected 401', expected: 'status 401', actual: 'status 403', observed: 'status 403' }
const lapsed: BaselineEntry = { rule: 'auth-missing-key-401', code: 'UNEXPECTED_STATUS', observed: 'status 403', reason: 'OPS-112', expires: '2026-11-01' }

test('an expired entry kept by --update-baseline: the run fails on it, and the line says why', () => {
  const run = runResult((id) => [id === 'auth-missing-key-401' ? check('GET /categories with no Authorization header → 401', 'fail', { failure: gateway }) : check(`${id} check`, 'pass')])
  const written = updatedBaseline(run, { knownFailures: [lapsed] }, TODAY)
  expect(written.knownFailures).toEqual([lapsed])
  const result = applyBaseline(run, written, 'b.json', TODAY)
  expect(result.exitCode).toBe(1)
  const line = baselineWritten({ result, redact: (t) => t, baselineUpdate: { path: '/w/b.json', data: written } }, '/w')
  expect(line).toContain('; 1 expired entry kept as it is: it excuses nothing, and the run fails on what it excused, until given a new "expires" or removed')
})
