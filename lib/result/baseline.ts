/**
 * A baseline of known failures (--baseline FILE): a team adopting the gate on a service with known
 * deviations gates on everything else. An entry names what stays the same from run to run (the
 * rule, the failure code and the check's name, never the run's prefix, a generated value or the
 * seed), carries a reason and may carry an expiry date. A failure an entry names (and has not
 * expired) is known: shown apart, as a note, and it does not fail the run; any other fails it as
 * ever. An entry also records what the failure showed (`observed`: a status, a media type, where
 * the body breaks its schema), and excuses it only while it shows the same: a known 200 that turns
 * into a 404 or a 500 after a deploy is a new failure, not the known one (Schemathesis' baseline
 * keys an entry on the failure's signature, its status or schema path, the same way). An entry
 * without it (written before it was recorded) excuses its code as before. An entry whose failure
 * no longer happens is reported as fixed; --update-baseline writes the run's failures, keeping the
 * reasons and expiry dates of the entries that still match.
 */
import { writeFileSync } from 'node:fs'
import type { Baseline, BaselineEntry } from '../config/baseline-file.ts'
import { ruleStatus, type BaselineOutcome, type CheckResult, type RunResult } from './run-result.ts'
import { portableJson } from '../json/portable-json.ts'
import type { SkipCause } from '../checks/skip-causes.ts'
import type { FailureDetail } from '../checks/failure.ts'
import { firstRoundName } from './check-rounds.ts'
import { currentCheckName } from './renamed-checks.ts'
import { applyKnownProblems, judgesProblems, updatedProblemEntries } from './known-problems.ts'
import { EXCUSABLE_PROBLEMS } from '../config/baseline-file.ts'
import { retiredRule } from '../spec/retired-rules.ts'

export type { Baseline, BaselineEntry, BaselineOutcome }

/** How a report names the check of an entry: its name, or, for an entry of the whole rule, that. */
export const entryCheck = (entry: { check?: string | undefined }): string => entry.check ?? 'any check of the rule'

/** Whether an entry's `check` is this check, in any round of --repeat (an entry recorded before rounds were one check names a further round's). */
const sameCheck = (entry: BaselineEntry, check: CheckResult) => entry.check !== undefined && currentCheckName(entry.rule, firstRoundName(entry.check)) === firstRoundName(check.name)

/** Whether an entry names the check: its own, or any of its rule's (an entry without `check`). */
const namesCheck = (entry: BaselineEntry, rule: string, check: CheckResult) => entry.rule === rule && (entry.check === undefined || sameCheck(entry, check))

const sameFailure = (entry: BaselineEntry, rule: string, check: CheckResult) => namesCheck(entry, rule, check) && entry.code === check.failure?.code

/**
 * Whether the failure shows what the entry recorded. An entry without `observed` (a file written
 * before it was recorded) excuses its code whatever it shows, so that no baseline turns red on an
 * upgrade; a failure without one (a code with one way to be wrong) has nothing to compare.
 */
function sameObserved(entry: BaselineEntry, check: CheckResult): boolean {
  const failure = check.failure
  if (entry.observed === undefined || failure?.observed === undefined) return true
  // the body shows no problem the entry does not name: one without alsoObserved (written by hand) names
  // `observed` alone, the deviation its writer knew, not whatever else comes to break the body
  return noProblemBeyond(entryProblems(entry, entry.observed), { observed: failure.observed, alsoObserved: failure.alsoObserved }) ?? entry.observed === failure.observed
}

/** The problems an entry of `observed` names: one without `alsoObserved` names `observed` alone. */
function entryProblems(entry: BaselineEntry, observed: string): ShownProblems {
  return { observed, alsoObserved: entry.alsoObserved ?? [] }
}

/** What a failure showed: its first problem, and a body's others when they were recorded (FailureDetail.alsoObserved). */
export interface ShownProblems {
  observed: string
  alsoObserved?: readonly string[] | undefined
}

/**
 * Whether `seen` shows no problem beyond those `known` names, when both recorded a body's every
 * problem; undefined when either did not (a baseline entry or a results.json from before they were):
 * then only the first problems can be compared. A baseline entry excuses by it, and compare tells a
 * failure B shows otherwise than A by it.
 */
export function noProblemBeyond(known: ShownProblems, seen: ShownProblems): boolean | undefined {
  if (known.alsoObserved === undefined || seen.alsoObserved === undefined) return undefined
  const named = new Set([known.observed, ...known.alsoObserved])
  return [seen.observed, ...seen.alsoObserved].every((problem) => named.has(problem))
}

const excuses = (entry: BaselineEntry, rule: string, check: CheckResult) => sameFailure(entry, rule, check) && sameObserved(entry, check)

/** ` as <what it showed>`, when known, with a body's other problems. */
const shown = (observed: string | undefined, also: readonly string[] = []) => (observed === undefined ? '' : ` as ${[observed, ...also].join(' and ')}`)

/** Skips that leave nothing of the service unjudged: the check did not apply to it, or the run did not need it. */
const JUDGED_WHEN_SKIPPED: ReadonlySet<SkipCause> = new Set(['not-applicable', 'not-needed'])

/**
 * Whether the run did not judge the check an entry names: its rule was not run (--rule), or the
 * check was not verified (a read-only run, a deadline, not applicable). Such an entry is neither
 * known nor fixed, and --update-baseline keeps it: a run of some rules, or without writes, is no
 * evidence that a failure went away. (A rule that ran with no check of the entry's name: the
 * entry is stale, and reported fixed.)
 */
function notJudged(entry: BaselineEntry, result: RunResult): boolean {
  const rule = result.rules.find((r) => r.id === entry.rule)
  // an entry of the rule shows on checks it does not name: one skipped for the run's limits
  // (--read-only, --max-writes, the deadline…) may be one of them; one that does not apply is not
  if (entry.check === undefined) return !rule || rule.checks.some((c) => c.status === 'skip' && !(c.cause !== undefined && JUDGED_WHEN_SKIPPED.has(c.cause)))
  return !rule || rule.checks.some((c) => sameCheck(entry, c) && c.status === 'skip')
}

/**
 * Whether an entry names a check the run does not have, in a rule it ran: a check renamed or
 * removed in this version of the suite (or mistyped by hand). Reported apart, never as fixed: a
 * known failure is not gone because its check has another name now.
 */
function noSuchCheck(entry: BaselineEntry, result: RunResult): boolean {
  const rule = result.rules.find((r) => r.id === entry.rule)
  return entry.check !== undefined && rule !== undefined && !rule.checks.some((c) => sameCheck(entry, c))
}

/** An entry of a check the run does not have that would excuse this failure were it of its check: the check renamed? */
const renamedFrom = (rule: string, check: CheckResult, absent: readonly BaselineEntry[]) =>
  absent.find((e) => e.rule === rule && e.code === check.failure?.code && sameObserved(e, check))

/**
 * What the baseline says of a failure it does not excuse, for the team that reads a red gate
 * after a deploy: a failure an entry excused until it expired; a check an entry excuses for
 * another code (it now fails otherwise); or a new check of a rule and code the baseline knows on
 * other checks (the same deviation, met where no earlier run judged it: fixing one known failure
 * lets the checks it hid be judged). The failure counts as ever; this only says why it is new.
 */
function unexcusedNote(rule: string, check: CheckResult, entries: readonly BaselineEntry[], live: readonly BaselineEntry[], absent: readonly BaselineEntry[]): string | undefined {
  const code = check.failure?.code
  const observed = check.failure?.observed
  const expired = entries.find((e) => !live.includes(e) && sameFailure(e, rule, check))
  // what to do, beside what happened: a team read the note and did not know a new date was theirs to give
  if (expired) return `excused by an entry that expired ${expired.expires}: it fails the run again (reason: "${expired.reason}"); fix it, or give the entry a later "expires" once you agree it stays known`
  // the same code, another wrong answer: what was known, and what is seen now
  const changed = live.find((e) => sameFailure(e, rule, check))
  // a body that shows a problem beyond those the entry knows: the new one first, the line is cut in the terminal
  const problems = check.failure?.alsoObserved !== undefined ? [observed, ...check.failure.alsoObserved] : []
  const named = changed?.observed !== undefined ? [changed.observed, ...(changed.alsoObserved ?? [])] : []
  const beyond = named.some((p) => problems.includes(p)) ? problems.filter((p) => !named.includes(p!)) : []
  if (changed && beyond.length > 0) return `the body now shows ${beyond.join(' and ')}, beside what an entry excuses for ${code}${shown(changed.observed, changed.alsoObserved)}: the entry does not excuse it (reason: "${changed.reason}")${changed.alsoObserved === undefined ? ', and names no other problem (no alsoObserved)' : ''}: --update-baseline records it once you agree`
  if (changed) return `an entry excuses this check for ${code}${shown(changed.observed, changed.alsoObserved)}; it now fails${shown(observed, check.failure?.alsoObserved)}, which the entry does not excuse (reason: "${changed.reason}"): --update-baseline records it once you agree`
  const otherCode = live.find((e) => namesCheck(e, rule, check))
  if (otherCode) return `an entry excuses this check for ${otherCode.code}${shown(otherCode.observed)}, not ${code}${shown(observed)} (reason: "${otherCode.reason}")`
  // a check of a new name failing as an entry of an old one knew: worded before "known on other checks"
  const renamed = renamedFrom(rule, check, absent)
  if (renamed) return `an entry names the check "${renamed.check}" for ${code}${shown(renamed.observed, renamed.alsoObserved)}, which this version of the suite does not have: renamed to this one? --update-baseline moves the entry here, with its reason (reason: "${renamed.reason}")`
  const sameCode = live.filter((e) => e.rule === rule && e.code === code)
  if (sameCode.length > 0) {
    const others = sameCode.length === 1 ? 'another check' : `${sameCode.length} other checks`
    return `known on ${others} of this rule, not this one (newly judged after a fix?): --update-baseline adds it (reason: "${sameCode[0].reason}")`
  }
  return undefined
}

/** What the baseline says of a group of failed checks it did not excuse: the first note, and how many others ('' when none). */
export function baselineWords(checks: readonly CheckResult[]): string {
  const notes = [...new Set(checks.flatMap((c) => (c.baselineNote ? [c.baselineNote] : [])))]
  if (notes.length === 0) return ''
  return notes.length === 1 ? notes[0] : `${notes[0]} (and ${notes.length - 1} other ${notes.length === 2 ? 'note' : 'notes'} of these checks in results.json)`
}

/** The run's result with the baseline applied: known failures become notes, and the verdict is recomputed. */
export function applyBaseline(result: RunResult, baseline: Baseline, file: string, today: string): RunResult {
  const outcome: BaselineOutcome = { file, known: [], expired: [], fixed: [] }
  const changed = new Set<BaselineEntry>()
  const live = baseline.knownFailures.filter((e) => e.expires === undefined || e.expires > today)
  outcome.expired = baseline.knownFailures.filter((e) => !live.includes(e))
  const used = new Set<BaselineEntry>()
  const absent = live.filter((e) => noSuchCheck(e, result))
  const rules = result.rules.map((rule) => {
    const checks = rule.checks.map((check) => {
      if (check.status !== 'fail') return check
      const entry = live.find((e) => excuses(e, rule.id, check))
      if (!entry) {
        // entries of this check that excuse another failure: it changed, it is not fixed
        for (const e of live) if (namesCheck(e, rule.id, check)) changed.add(e)
        const note = unexcusedNote(rule.id, check, baseline.knownFailures, live, absent)
        return note ? { ...check, baselineNote: note } : check
      }
      used.add(entry)
      // the check it excused, whether the entry names it or is the rule's
      outcome.known.push({ ...entry, check: check.name, message: check.failure?.message ?? '' })
      return { ...check, status: 'warn' as const, known: entry.reason, notes: [...check.notes, `known failure (baseline: ${entry.reason}): [${entry.code}] ${check.failure?.message ?? ''}`] }
    })
    return { ...rule, checks, status: ruleStatus(checks) }
  })
  outcome.fixed = live.filter((e) => !used.has(e) && !changed.has(e) && !absent.includes(e) && !notJudged(e, result) && !result.rules.some((r) => r.id === e.rule && r.checks.some((c) => sameFailure(e, r.id, c))))
  if (absent.length > 0) outcome.noSuchCheck = absent
  // of a rule an earlier version had: it matched nothing and read as not judged, said nowhere
  const retired = baseline.knownFailures.filter((e) => retiredRule(e.rule) !== undefined)
  if (retired.length > 0) outcome.retired = retired
  // an entry of the whole rule that excused some checks is not changed by one that fails otherwise
  for (const e of used) changed.delete(e)
  if (changed.size > 0) outcome.changed = [...changed]
  // a run problem the team lives with (stray answers): excused as a known failure is
  const excused = applyKnownProblems(result.problems, baseline, today, judgesProblems(result), rules)
  Object.assign(outcome, excused.outcome)
  const mustFailed = rules.some((r) => r.level === 'must' && r.status === 'fail')
  const verdict = mustFailed ? 'fail' : result.verdict === 'incomplete' ? 'incomplete' : excused.problems.length > 0 ? 'fail' : 'pass'
  const count = (items: { status: string }[]) => {
    const counts = { total: items.length, pass: 0, fail: 0, skip: 0, warn: 0 }
    for (const item of items) counts[item.status as 'pass']++
    return counts
  }
  return {
    ...result,
    rules,
    problems: excused.problems,
    verdict,
    exitCode: verdict === 'pass' ? 0 : verdict === 'fail' ? 1 : 2,
    summary: { ...result.summary, rules: count(rules), checks: count(rules.flatMap((r) => r.checks)) },
    baseline: outcome,
  }
}

/** Whether a live entry of `baseline` excuses a failed check (on `today`: expired entries excuse nothing), before the run's result is made. */
export function excusedBy(baseline: Baseline, today: string): (rule: string, check: CheckResult) => boolean {
  const live = baseline.knownFailures.filter((e) => e.expires === undefined || e.expires > today)
  return (rule, check) => live.some((e) => excuses(e, rule, check))
}

/** A failure --update-baseline does not record: it recurred on some probes only (--confirm), and no entry excused it. */
export const leavesOut = (check: CheckResult): boolean => check.recurrence?.kind === 'intermittent'

/** How the reason of an entry --update-baseline recorded starts, until someone gives it one. */
export const RECORDED_REASON = 'recorded by --update-baseline'

/**
 * The baseline that excuses every failure of `result`, keeping the reasons and expiry dates of the
 * entries that still match, and keeping as they are the entries of checks the run did not judge.
 * Failures no entry excuses become new entries: one of the rule (no `check`) for a failure that two
 * or more of its checks show alike (the same code and `observed`: one deviation, such as every error
 * in another media type, is one entry, not one per check), else one of the check.
 */
export function updatedBaseline(result: RunResult, previous: Baseline, today: string): Baseline {
  // an entry of a retired rule is dropped: no version to come judges it
  const knownFailures: BaselineEntry[] = previous.knownFailures.filter((e) => notJudged(e, result) && retiredRule(e.rule) === undefined)
  // each entry that excused a check today, at its place, and the failures it excused (written below)
  const excusedNow = new Map<BaselineEntry, FailureDetail[]>()
  const keep = (entry: BaselineEntry, failure: FailureDetail) => {
    const seen = excusedNow.get(entry)
    if (seen) return void seen.push(failure)
    excusedNow.set(entry, [failure])
    // an entry of the rule kept above (a check of it skipped) that excused a check too: once
    if (!knownFailures.includes(entry)) knownFailures.push(entry)
  }
  // entries of a check this version does not have, each moved once to a check of a new name that fails alike
  const absent = previous.knownFailures.filter((e) => noSuchCheck(e, result))
  for (const rule of result.rules) {
    const unexcused = new Map<string, CheckResult[]>()
    for (const check of rule.checks) {
      const failed = check.status === 'fail' || check.known !== undefined
      if (!failed || !check.failure) continue
      const kept = previous.knownFailures.find((e) => excuses(e, rule.id, check))
      if (kept) keep(kept, check.failure)
      // a failure some probes passed (a replica, a flaky dependency) is no deviation that stays the same from run to run:
      // its entry read as fixed where the fault missed, and two alike made one of the rule, which excused the code wherever it came
      else if (leavesOut(check)) continue
      else {
        const alike = JSON.stringify([check.failure.code, check.failure.observed ?? null, check.failure.alsoObserved ?? null])
        unexcused.set(alike, [...(unexcused.get(alike) ?? []), check])
      }
    }
    for (const checks of unexcused.values()) {
      const { code, observed, alsoObserved } = checks[0]!.failure!
      // a known failure that now shows another answer is accepted here, deliberately: it asks for its reason again
      const changed = checks.map((c) => previous.knownFailures.find((e) => sameFailure(e, rule.id, c))).find((e) => e !== undefined)
      const was = changed ? ` (it was known${shown(changed.observed)}${changed.reason.startsWith(RECORDED_REASON) ? '' : `: "${changed.reason}"`})` : ''
      // one check met in several rounds of --repeat is one check, named as its first round
      const names = [...new Set(checks.map((c) => firstRoundName(c.name)))]
      const where = names.length === 1 ? { check: names[0]! } : {}
      const on = names.length === 1 ? '' : ` (on ${names.length} checks of the rule, and on any other that shows it)`
      const answer = observed === undefined ? {} : { observed, ...(alsoObserved !== undefined ? { alsoObserved } : {}) }
      // the check renamed: its entry moves to the new name, with its reason and date
      const renamed = renamedFrom(rule.id, checks[0]!, absent)
      if (renamed) absent.splice(absent.indexOf(renamed), 1)
      if (renamed && names.length === 1) {
        knownFailures.push({ ...renamed, check: names[0]!, ...answer })
        continue
      }
      // of one check among several failing alike: the entry of the rule asks for a reason of its own, naming the one it had (it was dropped without a word)
      const known = renamed ? ` (it was known on the check "${renamed.check}", which this version of the suite does not have: "${renamed.reason}")` : ''
      knownFailures.push({ rule: rule.id, code, ...where, ...answer, reason: `${RECORDED_REASON} on ${today}${on}: say why it is known, and when it will be fixed${was}${known}` })
    }
  }
  // an entry written before what it excuses was recorded gets it, in place: from now on it excuses what it shows today
  for (const [entry, failures] of excusedNow) knownFailures.splice(knownFailures.indexOf(entry), 1, ...recordedAnswers(entry, failures))
  const knownProblems = updatedProblemEntries(result.problems, previous, today, EXCUSABLE_PROBLEMS, judgesProblems(result))
  // an entry of a check this version renamed itself (renamed-checks.ts) is written with its name now
  const named = knownFailures.map((e) => (e.check === undefined || currentCheckName(e.rule, e.check) === e.check ? e : { ...e, check: currentCheckName(e.rule, e.check) }))
  return { knownFailures: named, ...(knownProblems.length > 0 ? { knownProblems } : {}) }
}

/**
 * A kept entry as --update-baseline writes it, from the failures it excused today. One without
 * `observed` gets it; when it excused several answers (an entry of the rule written by hand, on a
 * gateway's 403s and its 404s), one entry for each, with its reason and date, not the first answer
 * alone, which turned the others red on the next run. One of a body's problem without
 * `alsoObserved` (by hand) gets it: every other problem the bodies it excused showed.
 */
function recordedAnswers(entry: BaselineEntry, failures: readonly FailureDetail[]): BaselineEntry[] {
  const withAll = (observed: string, of: readonly FailureDetail[]): BaselineEntry => {
    if (entry.alsoObserved !== undefined || of.some((f) => f.alsoObserved === undefined)) return { ...entry, observed }
    const also = new Set(of.flatMap((f) => [f.observed!, ...f.alsoObserved!]))
    also.delete(observed)
    return { ...entry, observed, alsoObserved: [...also].sort() }
  }
  if (entry.observed !== undefined) return [withAll(entry.observed, failures)]
  const answers = [...new Set(failures.flatMap((f) => (f.observed === undefined ? [] : [f.observed])))]
  if (answers.length === 0) return [entry]
  return answers.map((observed) => withAll(observed, failures.filter((f) => f.observed === observed)))
}

export function writeBaseline(path: string, baseline: Baseline): void {
  writeFileSync(path, portableJson(baseline, 2) + '\n')
}

/** One line for the terminal: what the baseline excused, and what is stale in it. */
export function baselineLine(outcome: BaselineOutcome): string {
  const problems = (outcome.knownProblems ?? []).map((k) => k.problem)
  const parts = [`${outcome.known.length} known ${outcome.known.length === 1 ? 'failure' : 'failures'} excused${problems.length > 0 ? `, and the known problem ${problems.join(', ')}` : ''}`]
  const expired = outcome.expired.length + (outcome.expiredProblems?.length ?? 0)
  if (expired > 0) parts.push(`${expired} expired (${expired === 1 ? 'it' : 'they'} excused nothing: fix what ${expired === 1 ? 'it' : 'they'} excused, or give ${expired === 1 ? 'it' : 'them'} a later "expires")`)
  const changed = outcome.changed?.length ?? 0
  if (changed > 0) parts.push(`${changed} changed (${changed === 1 ? 'its check fails' : 'their checks fail'} otherwise now: ${changed === 1 ? 'it' : 'they'} excused nothing)`)
  // a problem is no check: its entry's change said as its own
  for (const e of outcome.changedProblems ?? []) parts.push(`the entry of the problem ${e.problem} changed (it shows otherwise now: it excused nothing)`)
  const absent = outcome.noSuchCheck?.length ?? 0
  if (absent > 0) parts.push(`${absent} of a check this version of the suite does not have (renamed or removed: --update-baseline moves ${absent === 1 ? 'it' : 'them'} to the check that fails alike, or drops ${absent === 1 ? 'it' : 'them'})`)
  const retired = [...new Set((outcome.retired ?? []).map((e) => e.rule))]
  if (retired.length > 0) parts.push(`${outcome.retired!.length} of a rule this version of the suite retired (${retired.map((id) => `${id}: ${retiredRule(id) ?? 'no longer judged'}`).join('; ')}): excusing nothing, remove ${outcome.retired!.length === 1 ? 'it' : 'them'}, or --update-baseline drops ${outcome.retired!.length === 1 ? 'it' : 'them'}`)
  const fixed = outcome.fixed.length + (outcome.fixedProblems?.length ?? 0)
  if (fixed > 0) parts.push(`${fixed} fixed (no longer failing: remove ${fixed === 1 ? 'it' : 'them'}, or --update-baseline)`)
  return `Baseline ${outcome.file}: ${parts.join('; ')}`
}
