/**
 * Failed checks grouped by cause, so that one defect met by 29 checks reads as one entry that
 * names its 29 instances, in every report a person reads (report.html, summary.md, the terminal,
 * GitHub annotations). results.json and junit.xml keep one entry per check.
 */
import type { FailureDetail } from '../checks/failure.ts'
import type { CheckResult, RuleResult, RunResult } from '../result/run-result.ts'

/** One cause of failure of one rule, and every check that met it, in run order. */
export interface FailureGroup {
  rule: RuleResult
  /** The failure every check of the group reported, word for word. */
  failure: FailureDetail
  checks: CheckResult[]
}

// run-result.ts gives every failed check a failure; this stands in should one come without
const NO_DETAIL: FailureDetail = { code: 'CHECK_ERROR', message: 'failed', expected: '-', actual: '-' }

/**
 * The failed checks of a rule, grouped by cause. Two failed checks have the same cause when they
 * belong to the same rule and their failures have the same code (FailureDetail.code), the same message,
 * the same expected and the same actual, compared character for character. Nothing is normalised
 * (no ids, numbers or names stripped): failures that read differently in any character stay
 * separate entries, so a group never hides a difference a reader needs to see, and what the group
 * shows once is exactly what each of its checks said. Groups come in the order of their first
 * check.
 */
export function failureGroups(rule: RuleResult): FailureGroup[] {
  const groups = new Map<string, FailureGroup>()
  for (const check of rule.checks) {
    if (check.status !== 'fail') continue
    const failure = check.failure ?? NO_DETAIL
    const key = JSON.stringify([failure.code, failure.message, failure.expected, failure.actual])
    const group = groups.get(key)
    if (group) group.checks.push(check)
    else groups.set(key, { rule, failure, checks: [check] })
  }
  return [...groups.values()]
}

/** Every failure group of a run, rule by rule in catalogue order. */
export function runFailureGroups(result: RunResult): FailureGroup[] {
  return result.rules.flatMap(failureGroups)
}
