/**
 * Requests the client kept back although the run finished (a 429 or 503 it could not wait out, a
 * stall): no verdict unless a must-rule failed (lib/result/run-result.ts resultOf).
 */
import { expect, test } from 'vitest'
import { check, runResult } from '../reporters/fixture.ts'

const STALL = { kind: 'stalled', message: 'the server let GET /categories without the key go unanswered past --timeout (10000 ms), so the rest of that operation was not sent and their checks are not verified' } as const
const OUTLASTED = { kind: 'outlasted', message: "the server's 429 answers outlasted --deadline" } as const

test('kept back and nothing failed: INCOMPLETE (exit 2), saying why, never PASS', () => {
  const result = runResult(undefined, { keptBack: [STALL] })
  expect([result.verdict, result.exitCode]).toEqual(['incomplete', 2])
  expect(result.problems).toEqual([STALL])
})

test('kept back and a must-rule failed: the failure is the verdict (FAIL, exit 1), and no problem is added', () => {
  const result = runResult((id) => [check(`${id} check`, id === 'created-in-list' ? 'fail' : 'pass')], { keptBack: [STALL] })
  expect([result.verdict, result.exitCode]).toEqual(['fail', 1])
  expect(result.problems).toEqual([])
})

test('kept back for two reasons (a 429 outlasted the deadline, and an operation stalled): both are kept, each with its kind', () => {
  const result = runResult(undefined, { keptBack: [OUTLASTED, STALL] })
  expect([result.verdict, result.exitCode]).toEqual(['incomplete', 2])
  expect(result.problems.map((p) => p.kind)).toEqual(['outlasted', 'stalled'])
})

test('nothing kept back: a run whose checks all passed is PASS', () => {
  expect(runResult().verdict).toBe('pass')
})
