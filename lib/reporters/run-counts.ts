/**
 * The counts every report shows, with the failures a baseline knows (--baseline) apart: such a
 * check is a note (warn) in the result, but neither a pass nor an advisory note, and its rule is
 * a must-rule with known failures, not an advisory one. Declared once, so that the terminal,
 * summary.md, report.html and the GitHub annotations count alike.
 */
import type { RuleResult, RunResult } from '../result/run-result.ts'

export interface RunCounts {
  rules: { pass: number; fail: number; skip: number; advisory: number; known: number }
  checks: { pass: number; fail: number; skip: number; known: number }
}

/** A rule whose note is a failure the baseline knows (and not an advisory rule's note). */
export const knownRule = (rule: RuleResult): boolean => rule.status === 'warn' && rule.checks.some((check) => check.known !== undefined)

export function runCounts(result: Pick<RunResult, 'summary' | 'rules'>): RunCounts {
  const r = result.summary.rules
  const c = result.summary.checks
  const knownChecks = result.rules.flatMap((rule) => rule.checks).filter((check) => check.known !== undefined).length
  const knownRules = result.rules.filter(knownRule).length
  return {
    rules: { pass: r.pass, fail: r.fail, skip: r.skip, advisory: r.warn - knownRules, known: knownRules },
    // an advisory rule's checks with notes still passed what they judge; known failures did not
    checks: { pass: c.pass + c.warn - knownChecks, fail: c.fail, skip: c.skip, known: knownChecks },
  }
}
