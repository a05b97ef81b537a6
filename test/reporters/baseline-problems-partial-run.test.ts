/**
 * A baseline's knownProblems entry of stray answers to an unread body (they follow a POST the
 * service answered without reading it) beside a run that sent only some requests: --read-only (no
 * POST), --rule, or held to --max-writes. Such a run did not meet them because it did not send what
 * provokes them: it reported the entry "fixed, no longer met (remove it from the baseline)",
 * --update-baseline dropped it, and `compare` listed it as fixed in B, for the next whole run to
 * fail on them. The entry is kept, neither fixed nor excusing; a whole run without them still
 * reports it fixed.
 */
import { expect, test } from 'vitest'
import { applyBaseline, updatedBaseline } from '../../lib/result/baseline.ts'
import { compareRuns } from '../../lib/cli/compare.ts'
import type { Baseline } from '../../lib/result/baseline.ts'
import type { RunResult } from '../../lib/result/run-result.ts'
import { check, runResult } from './fixture.ts'

const ENTRY = { problem: 'stray-answer', observed: 'answers to an unread body', reason: 'OPS-31: the gateway answers 413 before reading' }
const BASELINE: Baseline = { knownFailures: [], knownProblems: [ENTRY] }
const TODAY = '2026-06-01'
const STRAYS = [{ kind: 'stray-answer' as const, observed: 'answers to an unread body', message: 'stray answers (2 times): …' }]

const partial: [string, RunResult][] = [
  ['--read-only', runResult(undefined, { readOnly: true })],
  ['--rule', { ...runResult(), options: { ...runResult().options, rules: ['auth-missing-key-401'] } }],
  ['--max-writes', runResult((id) => [check(`${id} check`, 'pass'), check(`${id} create`, 'skip', { cause: 'write-budget', skipReason: 'not verified: the write budget was spent' })], { maxWrites: 3 })],
]

test.each(partial)('a %s run without the stray answers keeps their entry: not fixed, not dropped by --update-baseline', (_how, run) => {
  const applied = applyBaseline(run, BASELINE, 'b.json', TODAY)
  expect(applied.baseline?.fixedProblems).toBeUndefined()
  expect(updatedBaseline(run, BASELINE, TODAY).knownProblems).toEqual([ENTRY])
})

test('a whole run without them reports the entry fixed, and --update-baseline drops it', () => {
  const run = runResult()
  expect(applyBaseline(run, BASELINE, 'b.json', TODAY).baseline?.fixedProblems).toEqual([ENTRY])
  expect(updatedBaseline(run, BASELINE, TODAY).knownProblems).toBeUndefined()
})

test('compare: stray answers in A, beside a --read-only B that sent none of what provokes them, are not fixed in B', () => {
  const a = runResult(undefined, { problems: STRAYS })
  const b = runResult(undefined, { readOnly: true })
  const c = compareRuns(a, b)
  expect(c.fixed.filter((f) => f.code === 'stray-answer')).toEqual([])
  expect(c.notJudgedInB.map((f) => [f.code, f.notJudged])).toEqual([['stray-answer', expect.stringMatching(/only some of the requests a whole run sends \(--read-only\)/)]])
  expect(compareRuns(a, runResult()).fixed.map((f) => f.code)).toEqual(['stray-answer'])
  // two runs of the same --read-only or --rule sent the same requests: judged
  expect(compareRuns({ ...a, options: { ...a.options, readOnly: true } }, b).fixed.map((f) => f.code)).toEqual(['stray-answer'])
})
