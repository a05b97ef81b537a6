/**
 * A baseline's knownProblems (lib/config/baseline-file.ts): run problems that no rule owns and that
 * fail the run of themselves, which a team lives with as it lives with a rule's known failure.
 * Stray answers alone (lib/result/stray-answers.ts): the service writes bytes no request asked for
 * on a kept-alive connection, HTTP's framing broken (RFC 9112 §6.3), which the document's §1
 * delivers the service over. Without an entry for it, a service known to do so failed every gate
 * (exit 1) whatever its baseline said, and --update-baseline could record nothing to excuse it. An
 * entry excuses the problem while it shows what the entry observed (an extra answer is not the
 * answers to an unread body), until it expires; a run that reached a verdict without the problem
 * reports the entry fixed, and --update-baseline drops it.
 */
import type { Baseline, ProblemEntry } from '../config/baseline-file.ts'
import type { RunProblem } from './run-problems.ts'

/** What of a rule's result this reads (run-result.ts's RuleResult, which imports this file's types). */
type JudgedRule = { id: string; level: string; checks: readonly { status: string; cause?: string }[] }

/** What the baseline did to the run's problems, beside what it did to its failures (BaselineOutcome). */
export interface ProblemsOutcome {
  /**
   * Problems an entry excused: not counted against the run, shown apart. `unverified`: the checks of
   * must-rules the problem left not verified (an answer read on a reused connection may have been a
   * stray one), which no run judges while it is excused; `unverifiedIn`: their rules, with how many
   * of each (`create-rejects-invalid-values 19`), most first: the line said how many, not where.
   */
  knownProblems?: (ProblemEntry & { message: string; unverified?: number; unverifiedIn?: string[] })[]
  /** Entries past their date: they excused nothing. */
  expiredProblems?: ProblemEntry[]
  /** Entries whose problem the run, which reached a verdict, did not meet. */
  fixedProblems?: ProblemEntry[]
  /** Entries whose problem the run met showing another thing: they excused nothing. */
  changedProblems?: ProblemEntry[]
}

const isLive = (entry: ProblemEntry, today: string) => entry.expires === undefined || entry.expires > today

/** What of a run says whether it sent every request a whole run sends (run-result.ts's RunResult). */
type SentRun = { verdict: string; options?: { readOnly?: boolean; rules?: readonly string[] }; rules: readonly JudgedRule[] }

/**
 * Whether a run that did not meet a problem tells that the service no longer shows it: one that
 * reached a verdict and sent every request a whole run sends. A --read-only run sends no POST, a
 * --rule run some requests, one held to --max-writes some POSTs: stray answers to an unread body
 * follow a POST, and such a run, not meeting them, reported their entry fixed ("remove it") and
 * --update-baseline dropped it, for the next whole run to fail on them.
 */
export const judgesProblems = (run: SentRun): boolean =>
  run.verdict !== 'incomplete' && run.options?.readOnly !== true && (run.options?.rules?.length ?? 0) === 0 && !heldToWriteBudget(run)

/** Whether --max-writes kept some of the run's POSTs from being sent (a check skipped for it). */
export const heldToWriteBudget = (run: Pick<SentRun, 'rules'>): boolean => run.rules.some((r) => r.checks.some((c) => c.cause === 'write-budget'))

const shows = (entry: ProblemEntry, problem: RunProblem) => entry.problem === problem.kind && (entry.observed === undefined || problem.observed === undefined || entry.observed === problem.observed)

/**
 * The run's problems without those a live entry excuses, and what became of each entry. `judged`:
 * the run reached a verdict and sent every request (judgesProblems), so a problem it did not meet is
 * one the service no longer shows.
 */
export function applyKnownProblems(problems: readonly RunProblem[], baseline: Baseline, today: string, judged: boolean, rules: readonly JudgedRule[] = []): { problems: RunProblem[]; outcome: ProblemsOutcome } {
  const entries = baseline.knownProblems ?? []
  if (entries.length === 0) return { problems: [...problems], outcome: {} }
  const live = entries.filter((e) => isLive(e, today))
  const known: (ProblemEntry & { message: string; unverified?: number; unverifiedIn?: string[] })[] = []
  // the checks a stray answer left not verified: the gate passes without judging them, and says how many, and of which rules
  const inDoubt = rules
    .filter((r) => r.level === 'must')
    .map((r) => ({ id: r.id, count: r.checks.filter((c) => c.status === 'skip' && c.cause === 'stray-answer').length }))
    .filter((r) => r.count > 0)
    .sort((a, b) => b.count - a.count)
  const unverified = inDoubt.reduce((n, r) => n + r.count, 0)
  const doubts = unverified > 0 ? { unverified, unverifiedIn: inDoubt.map((r) => `${r.id} ${r.count}`) } : {}
  const kept = problems.filter((problem) => {
    const entry = live.find((e) => shows(e, problem))
    if (entry) known.push({ ...entry, message: problem.message, ...(problem.kind === 'stray-answer' ? doubts : {}) })
    return entry === undefined
  })
  const met = (e: ProblemEntry) => problems.some((p) => p.kind === e.problem)
  const changed = live.filter((e) => met(e) && !problems.some((p) => shows(e, p)))
  const fixed = judged ? live.filter((e) => !met(e)) : []
  const expired = entries.filter((e) => !isLive(e, today))
  const outcome: ProblemsOutcome = {
    ...(known.length > 0 ? { knownProblems: known } : {}),
    ...(expired.length > 0 ? { expiredProblems: expired } : {}),
    ...(fixed.length > 0 ? { fixedProblems: fixed } : {}),
    ...(changed.length > 0 ? { changedProblems: changed } : {}),
  }
  return { problems: kept, outcome }
}

/** How the reason of an entry --update-baseline recorded starts (lib/result/baseline.ts's RECORDED_REASON). */
const RECORDED = 'recorded by --update-baseline'

/**
 * The knownProblems --update-baseline writes for a run that reached a verdict: an entry for each
 * excusable problem it met (the one that excused it kept, reason and date, with `observed` added;
 * else a new one with the placeholder reason, naming what was known when an entry knew it otherwise);
 * entries of problems it did not meet are dropped, unless it sent only some requests (`judged` false).
 */
export function updatedProblemEntries(problems: readonly RunProblem[], previous: Baseline, today: string, excusable: readonly string[], judged = true): ProblemEntry[] {
  const entries = previous.knownProblems ?? []
  // a run that sent only some requests keeps the entries of problems it did not meet, as they are
  const unmet = judged ? [] : entries.filter((e) => !problems.some((p) => p.kind === e.problem))
  return problems
    .filter((p) => excusable.includes(p.kind))
    .map((problem) => {
      const observed = problem.observed === undefined ? {} : { observed: problem.observed }
      const kept = entries.find((e) => shows(e, problem))
      if (kept) return { ...kept, ...observed }
      const was = entries.find((e) => e.problem === problem.kind)
      const known = was ? ` (it was known as ${was.observed ?? 'any'}${was.reason.startsWith(RECORDED) ? '' : `: "${was.reason}"`})` : ''
      return { problem: problem.kind, ...observed, reason: `${RECORDED} on ${today}: say why it is known, and when it will be fixed${known}` }
    })
    .concat(unmet)
}

/**
 * What a known problem left not verified, and where: ", which left 26 checks of must-rules not
 * verified (create-rejects-invalid-values 19, auth-missing-key-401 6, …)", each in results.json with
 * cause "stray-answer". The count alone left a team asking which of its rules went unjudged.
 */
export function unverifiedWords(k: { unverified?: number; unverifiedIn?: readonly string[] }): string {
  if (!k.unverified) return ''
  const where = Array.isArray(k.unverifiedIn) && k.unverifiedIn.length > 0 ? `${k.unverifiedIn.join(', ')}; ` : ''
  return `, which left ${k.unverified} ${k.unverified === 1 ? 'check' : 'checks'} of must-rules not verified (${where}each in results.json with cause "stray-answer": an answer read on a connection that carried an earlier request may have been a stray one): a fault there goes unjudged while the entry excuses it`
}

/** The lines every report gives of the entries of problems: excused, changed, expired, fixed. */
export function problemEntryLines(outcome: ProblemsOutcome): string[] {
  const as = (e: ProblemEntry) => (e.observed === undefined ? '' : ` as ${e.observed}`)
  return [
    ...(outcome.knownProblems ?? []).map((k) => `known problem (baseline: ${k.reason})${unverifiedWords(k)}: ${k.message}`),
    ...(outcome.changedProblems ?? []).map((e) => `problem ${e.problem} now shows otherwise than its entry${as(e)} (reason: "${e.reason}"): it fails the run; --update-baseline records it once you agree`),
    ...(outcome.expiredProblems ?? []).map((e) => `expired ${e.expires ?? ''}, excused nothing: problem ${e.problem}${as(e)}`),
    ...(outcome.fixedProblems ?? []).map((e) => `fixed, no longer met (remove it from the baseline): problem ${e.problem}${as(e)}`),
  ]
}
