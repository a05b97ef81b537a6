/**
 * --update-baseline on a run with intermittent failures (a replica answering 500 to one request in
 * nine; --confirm said `intermittent: failed 1 of 2 probes`). Two checks of a rule met the 500
 * alike, and it wrote an entry of the whole rule, `SERVER_ERROR as status 500`: from then on a 500
 * on any check of the rule was excused, a deploy that broke one for good among them, and in a run
 * the fault missed the entry read as "fixed". A failure some probes passed is no deviation that
 * stays the same from run to run: it is not recorded (an entry that already excuses it is kept), the
 * run fails on it, and the line that says the file was written says why.
 */
import { expect, test } from 'vitest'
import type { FailureDetail } from '../../lib/checks/failure.ts'
import { applyBaseline, updatedBaseline, type BaselineEntry } from '../../lib/result/baseline.ts'
import { baselineWritten } from '../../lib/runner/run-reports.ts'
import { check, runResult } from './fixture.ts'

const TODAY = '2026-06-01'
const RULE = 'auth-invalid-key-401'
const flaky: FailureDetail = { code: 'SERVER_ERROR', message: 'GET answered 500', expected: 'status 401', actual: 'status 500', observed: 'status 500' }
const gateway: FailureDetail = { code: 'UNEXPECTED_STATUS', message: 'GET answered 403, expected 401', expected: 'status 401', actual: 'status 403', observed: 'status 403' }
const intermittent = { recurrence: { attempts: 2, failures: 1, kind: 'intermittent' as const } }
const deterministic = { recurrence: { attempts: 3, failures: 3, kind: 'deterministic' as const } }

const run = runResult((id) =>
  id === RULE
    ? [
        check('GET /categories with a wrong key → 401', 'fail', { failure: gateway, ...deterministic }),
        check('GET /categories with the key in the other case → 401', 'fail', { failure: flaky, ...intermittent }),
        check('GET /categories with the key without its last character → 401', 'fail', { failure: flaky, ...intermittent }),
      ]
    : [check(`${id} check`, 'pass')],
)

test('intermittent failures are not recorded: no entry of the rule for two alike, the deterministic one recorded, the run fails on them, and the line says why', () => {
  const written = updatedBaseline(run, { knownFailures: [] }, TODAY)
  expect(written.knownFailures.map((e) => [e.code, e.check ?? 'the rule'])).toEqual([['UNEXPECTED_STATUS', 'GET /categories with a wrong key → 401']])
  const result = applyBaseline(run, written, 'b.json', TODAY)
  expect(result.exitCode).toBe(1)
  const line = baselineWritten({ result, redact: (t) => t, baselineUpdate: { path: '/w/b.json', data: written } }, '/w')
  expect(line).toContain(`; 2 intermittent failures (${RULE}) not recorded: they failed on some probes only (a replica, a flaky dependency), so an entry would read as fixed in a run the fault missed`)
})

test('an entry that already excuses an intermittent failure (written by hand) is kept, and excuses it', () => {
  const byHand: BaselineEntry = { rule: RULE, code: 'SERVER_ERROR', observed: 'status 500', reason: 'OPS-77: one replica of four answers 500', expires: '2026-07-01' }
  const written = updatedBaseline(run, { knownFailures: [byHand] }, TODAY)
  expect(written.knownFailures).toContainEqual(byHand)
  expect(applyBaseline(run, written, 'b.json', TODAY).exitCode).toBe(0)
})
