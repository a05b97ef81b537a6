/**
 * Checks this version of the suite renamed, and their former names: a baseline entry recorded under
 * the former name names the check still. A check renamed unknown to the suite (words reworded) is
 * named apart and fails the run (lib/result/baseline.ts, renamedFrom); one renamed here, with its
 * verdict widened, kept its failures' code and observed: its entry excused them the run before the
 * upgrade, and the gate went red on the first run after it over a failure the team had recorded
 * (review59: a create's 400 body, known, when error-body-is-error-record came to judge 409 and 422).
 */
const RENAMED_CHECKS: readonly { rule: string; former: string; now: string }[] = [
  { rule: 'error-body-is-error-record', former: ' → if refused with 400, the body is an Error record', now: ' → if refused with 400, 409 or 422, the body is an Error record' },
]

/** The check's name in this version, for an entry's `check` of a former name (else as it is). */
export function currentCheckName(rule: string, name: string): string {
  const renamed = RENAMED_CHECKS.find((r) => r.rule === rule && name.endsWith(r.former))
  return renamed ? name.slice(0, -renamed.former.length) + renamed.now : name
}
