/**
 * Whether a parsed results.json is one the fleet's pages can be made of, as `merge` reads it from
 * a folder another job wrote: a run that was made (its verdict, an exit code that is that verdict's
 * or a signal's, its rules with their checks, its problems) or one that could not be (exit 2 and
 * why). A file edited by hand or cut short is said to be so, by what is wrong with it, instead of
 * passing a deployment whose own rules failed, or failing later as a report that cannot be written.
 */
import type { CannotRunResult } from '../runner/cannot-run-reports.ts'
import type { Status } from '../result/run-result.ts'

/** The exit code of each verdict; a run a signal interrupted exits 130 or 143 whatever its verdict. */
const VERDICT_EXIT: Readonly<Record<string, number>> = { pass: 0, fail: 1, incomplete: 2 }
const INTERRUPT_EXITS: readonly unknown[] = [130, 143]
const STATUSES: readonly unknown[] = ['pass', 'fail', 'skip', 'warn'] satisfies Status[]

type Loose = Record<string, unknown>
const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value)
const quoted = (value: unknown) => JSON.stringify(String(value).slice(0, 40))

/** A check as the fleet's junit.xml writes it (its exchanges resolved by resultFromFile). */
function isCheck(check: unknown): boolean {
  if (!isObject(check) || typeof check.name !== 'string' || !STATUSES.includes(check.status) || !Array.isArray(check.notes) || !Array.isArray(check.exchanges)) return false
  const failure = check.failure
  return failure === undefined || (isObject(failure) && typeof failure.message === 'string' && typeof failure.code === 'string' && Array.isArray(check.reproduce))
}

/** What is wrong with a parsed results.json, or undefined when the fleet can be made of it. */
export function runFileProblem(data: unknown): string | undefined {
  if (!isObject(data)) return 'it holds no object'
  if (data.verdict === 'error') {
    const notMade = data as Partial<CannotRunResult>
    // 130 or 143: a signal stopped the command before its run started
    const exitCode = notMade.exitCode === 2 || INTERRUPT_EXITS.includes(notMade.exitCode)
    return exitCode && typeof notMade.error === 'string' && Array.isArray(notMade.rules) ? undefined : 'a run that could not be made has exitCode 2 (130 or 143: stopped by a signal) and its error'
  }
  if (typeof data.runId !== 'string' || !Array.isArray(data.rules) || !Array.isArray(data.problems)) return 'it has no runId, rules or problems'
  const verdict = data.verdict
  if (typeof verdict !== 'string' || !Object.hasOwn(VERDICT_EXIT, verdict)) return `its verdict ${quoted(verdict)} is none of pass, fail, incomplete`
  if (data.exitCode !== VERDICT_EXIT[verdict] && !INTERRUPT_EXITS.includes(data.exitCode)) return `its exitCode ${quoted(data.exitCode)} is not that of its verdict, ${verdict}`
  const rules = data.rules as unknown[]
  const bad = rules.findIndex((rule) => !isObject(rule) || typeof rule.id !== 'string' || typeof rule.level !== 'string' || !STATUSES.includes(rule.status) || !Array.isArray(rule.checks) || !rule.checks.every(isCheck))
  if (bad >= 0) return `its rule ${bad + 1} is not a rule's result (id, level, status, checks)`
  const problem = (data.problems as unknown[]).findIndex((p) => typeof p !== 'string' && !(isObject(p) && typeof p.message === 'string'))
  if (problem >= 0) return `its problem ${problem + 1} has no message`
  // a rule's status is its checks' (any failed check fails it, lib/result/run-result.ts ruleStatus): a rule edited to pass keeps the failure its checks say
  const hidden = (rules as Loose[]).find((rule) => rule.status !== 'fail' && (rule.checks as Loose[]).some((check) => check.status === 'fail'))
  if (hidden) return `its rule ${quoted(hidden.id)} is ${quoted(hidden.status)} while a check of it failed`
  const failed = (rules as Loose[]).find((rule) => rule.level === 'must' && rule.status === 'fail')
  if (verdict === 'pass' && failed) return `its verdict is pass, while its must-rule ${quoted(failed.id)} failed`
  // a run judges one rule at least (--rule names one): a pass of none is a list emptied
  if (verdict === 'pass' && rules.length === 0) return 'its verdict is pass, with no rule judged'
  // a problem of the run (its deadline, a crash, the key refused) makes its verdict fail or incomplete, never pass (lib/result/run-result.ts)
  const firstProblem = (data.problems as unknown[])[0]
  if (verdict === 'pass' && firstProblem !== undefined) return `its verdict is pass, beside a problem of its run, which no pass has: ${quoted(typeof firstProblem === 'string' ? firstProblem : (firstProblem as Loose).message)}`
  // and a run fails by a must-rule or a problem: a fail of neither was a deployment FAIL with no reason on the page, all green in junit.xml
  if (verdict === 'fail' && !failed && firstProblem === undefined) return 'its verdict is fail, with no must-rule failed and no problem of its run, one of which every failed run has'
  return undefined
}
