/**
 * A check that threw an error of the suite itself (CHECK_ERROR: a bug in a check, an answer its
 * code did not expect, a note() on a must rule) judged nothing of the service. It is not verified,
 * and the run says so as a problem of the suite: without a must-rule failure the run is incomplete
 * (exit 2), never failed for it, so that a deploy gate does not blame a service for the suite's fault.
 */
import type { RunProblem } from './run-problems.ts'

interface Judged {
  status: string
  failure?: { code: string; message: string }
}

/** The checks that failed inside the suite, not verified; and the problem that says how many, and the first. */
export function withoutSuiteErrors<C extends Judged>(byRule: ReadonlyMap<string, C[]>): { byRule: Map<string, C[]>; problem?: RunProblem } {
  let count = 0
  let first: string | undefined
  const kept = new Map<string, C[]>()
  for (const [rule, checks] of byRule) {
    kept.set(
      rule,
      checks.map((c) => {
        if (c.status !== 'fail' || c.failure?.code !== 'CHECK_ERROR') return c
        count++
        first ??= `${rule}: ${c.failure.message}`
        return { ...c, status: 'skip', cause: 'suite-error', skipReason: `not verified: the suite itself failed on this check (${c.failure.message}), a fault of the suite, not of the service`, failure: undefined, reproduce: [] }
      }),
    )
  }
  if (count === 0) return { byRule: kept }
  return { byRule: kept, problem: { kind: 'suite-error', message: `${count} ${count === 1 ? 'check' : 'checks'} failed inside the suite itself (CHECK_ERROR; the first, ${first}): a fault of the suite, not a verdict on the service; please report it` } }
}
