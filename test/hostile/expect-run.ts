/**
 * What every hostile-server run must show whatever the server did: an exit code on its own (the
 * helper kills a child that hangs, and the code is then null), no stack trace, no unhandled error,
 * and failures that say what went wrong.
 */
import { expect } from 'vitest'
import type { ConformRun } from '../helpers/run-conform.ts'
import type { CheckResult } from '../../lib/result/run-result.ts'

/**
 * Per-test timeout for tests that run the whole suite in a child: a run takes 2–3 s on an idle
 * machine, many times that when every test file spawns runs at once on two cores.
 */
export const RUN_TIMEOUT_MS = 120_000

/** A line of a JavaScript stack trace: "    at fn (file.ts:1:2)" or "    at file.ts:1:2". */
export const STACK_LINE = /^\s+at (?:.+ \()?(?:file:|node:|\/|[A-Z]:\\).*:\d+:\d+\)?$/m

export function expectNoStackTrace(run: ConformRun): void {
  expect(run.stdout, 'stdout').not.toMatch(STACK_LINE)
  expect(run.stderr, 'stderr').not.toMatch(STACK_LINE)
}

/** Exit 1 by itself, nothing on stderr, no problem outside the checks (no crash, no unhandled error). */
export function expectCleanFailure(run: ConformRun): void {
  expect(run.code, `exit code; stderr: ${run.stderr}\nstdout: ${run.stdout.slice(0, 2000)}`).toBe(1)
  expect(run.stderr).toBe('')
  expectNoStackTrace(run)
  expect(run.stdout).toContain('Verdict: FAIL (exit 1)')
  expect(run.results, 'results.json written').toBeDefined()
  expect(run.results!.problems).toEqual([])
}

/** Every check of a run that failed. */
export function failedChecks(run: ConformRun): CheckResult[] {
  return (run.results?.rules ?? []).flatMap((rule) => rule.checks.filter((check) => check.status === 'fail'))
}

/** Exit 2 with one line on stderr, naming the problem; nothing on stdout, no stack trace. */
export function expectRefused(run: ConformRun, pattern: RegExp): void {
  expect(run.code, `exit code; stderr: ${run.stderr}\nstdout: ${run.stdout.slice(0, 2000)}`).toBe(2)
  expectNoStackTrace(run)
  expect(run.stdout).toBe('')
  const lines = run.stderr.trimEnd().split('\n')
  expect(lines, run.stderr).toHaveLength(1)
  expect(lines[0]).toMatch(/^conform: /)
  expect(lines[0]).toMatch(pattern)
}
