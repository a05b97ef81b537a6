/**
 * The verdict of a fleet, from the results.json of each deployment's report folder: the model that
 * fleet.json, fleet.md, fleet.html, the fleet's junit.xml and its terminal lines are written from.
 * A fleet run (lib/fleet/fleet-run.ts) and `merge` (lib/cli/merge.ts) both build it from the
 * folders on disk, with the same function, so that merging the folders of a fleet run gives its
 * verdict again.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { CannotRunResult } from '../runner/cannot-run-reports.ts'
import { connectionLimitNote } from '../result/observed-behaviour.ts'
import { faultGroups } from '../result/fault-groups.ts'
import { knownRule } from '../reporters/run-counts.ts'
import type { InterruptExit, RunResult, Status } from '../result/run-result.ts'
import { resultFromFile } from '../result/results-file.ts'
import { postsInDoubt, PREFIX } from '../result/record-prefixes.ts'
import { runFileProblem } from './run-file.ts'
import { readReportJson, whyUnreadable } from '../config/user-file.ts'
import { whyNoResults } from './run-folder-words.ts'
import { noteExpiredEntries, noteFixedEntries } from './fixed-entries.ts'
import { unverifiedWords } from '../result/known-problems.ts'

/** What one deployment's run said, as fleet.json holds it. */
export interface FleetDeployment {
  label: string
  /** The base URL as given (the flag or the targets file); read from results.json by `merge`. */
  baseUrl: string
  /** pass, fail, incomplete (cut short: no verdict), error (the run could not be made). */
  verdict: RunResult['verdict'] | 'error'
  exitCode: 0 | 1 | 2
  /** The rules that failed. */
  failedRules: string[]
  /**
   * The one fault every failed rule met, when more than one failed and a fault of the run's own
   * reports (server faults, no answer, answers that differ: lib/result/fault-groups.ts) holds them
   * all: "170 of 170 requests answered 502 (100 %)", a gateway with no service behind it.
   */
  fault?: string
  /** The rules whose only failures a --baseline excused (known failures): it passed them by its baseline. */
  knownRules?: string[]
  /** --update-baseline wrote the failures of knownRules down from this very run: recorded, not passes (its own reports say RECORDED). */
  baselineRecorded?: true
  /**
   * Why the deployment has no verdict (exit 2), or failed outside any rule: the run's first problem;
   * beside failed rules, what cut its run short (--deadline, a signal), which its own reports say.
   */
  reason?: string
  /** The must-rules none of whose checks ran (--read-only, --max-writes): a pass says it passed the others only. */
  notVerifiedRules?: string[]
  /**
   * The must-rules that ran with fewer checks than a full run for the writes it was denied (a write
   * budget, --read-only): a pass of 10 POSTs ran a check of every rule and skipped hundreds, and its
   * line said "every must-rule passed", a full run's words. Its own report lists the checks under
   * "Verified by fewer checks".
   */
  partlyVerifiedRules?: string[]
  /** The rules its run was limited to (--rule): a pass says it passed those only. */
  selectedRules?: string[]
  /** Each rule's status, for the deployment × rule matrix; empty when the run could not be made. */
  rules: Record<string, Status>
  /**
   * What its run observed that is no failure but changes how to read it (a server that refused
   * connections past a number of its own: the run went on with fewer at once), as its reports say it.
   */
  notes?: string[]
  /**
   * What its run wrote, so that a fleet with writes says where each record went: the POSTs it sent,
   * the records it created (its ledger) and the name prefixes they carry, which find them on that
   * deployment. Absent when the run could not be made, or its results.json (merge) holds none.
   */
  writes?: {
    readOnly: boolean; posts: number; recordsCreated: number; prefixes: string[]
    /** The POSTs that may have created a record no answer or list showed (no answer, a server fault: a deployment down mid-run), and their prefixes; absent when none. */
    inDoubt?: { posts: number; prefixes: string[] }
    /** Of `posts`, the resends of POSTs the lists showed not stored (answered 429 or 503, or their answer lost), as its own report counts them apart; absent when none. */
    resent?: number
  }
  /** Its report.html, relative to the fleet's folder. */
  report: string
  runId?: string
  durationMs?: number
}

export interface FleetResult {
  tool: { name: string; version: string }
  generatedAt: string
  /** 1 when any deployment failed; else 2 when one could not be judged; else 0. 130 or 143: a fleet run a signal stopped (the verdict is what it reached). */
  exitCode: 0 | 1 | 2 | InterruptExit
  verdict: 'pass' | 'fail' | 'incomplete' | 'error'
  summary: { deployments: number; passed: number; failed: number; notJudged: number }
  deployments: FleetDeployment[]
  /** The rules of the matrix, in catalogue order, as the runs listed them. */
  rules: { id: string; title: string; level: string }[]
  /** Why the fleet could not be run at all, or is not whole (merge --expect: a deployment's reports are missing). */
  error?: string
}

/** A run's results.json: a run that was made, or one that could not be (exit 2). */
export type RunFile = RunResult | CannotRunResult

/** A problem's words: results.json of this version holds { kind, message }; one written by an earlier version (merge), a string. */
export function problemText(problem: RunResult['problems'][number] | string): string {
  return typeof problem === 'string' ? problem : problem.message
}

/** The results.json of a report folder; throws an Error whose message names the file and what is wrong. */
export function readRunFolder(dir: string): RunFile {
  const path = join(dir, 'results.json')
  let data: unknown
  try {
    data = readReportJson(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // a fleet.json's deployment whose folder is not there (copied or uploaded without it)
    const gone = existsSync(dir) ? undefined : 'no such folder (the fleet.json that lists this deployment came without its reports: were they left out of the copy or upload?)'
    const stopped = code === 'ENOENT' ? (gone ?? whyNoResults(dir)) : undefined
    // JSON cut short (an upload interrupted, a disk that filled) said V8's words alone, and not what to do
    const notJson = code === undefined && /JSON/.test((error as Error).message) ? ": not JSON as a run writes it (cut short by an upload or a full disk, or edited by hand?): run that deployment's job again, or upload its whole report folder" : ''
    throw new Error(`cannot read ${path}: ${code === 'ENOENT' ? (stopped ?? 'no such file (is it a report folder?)') : whyUnreadable(error)}${notJson}`)
  }
  // a file edited by hand or cut short is said to be so, here, not later as a page that cannot be written
  const run = typeof data === 'object' && data !== null ? resultFromFile(data) : data
  const problem = runFileProblem(run)
  if (problem !== undefined) throw new Error(`${path} is not the results.json of a run: ${problem}`)
  return run as RunFile
}

/** What a fleet says of a deployment whose results.json cannot be read: not judged, and why. */
export function unreadRun(tool: FleetResult['tool'], startedAt: string, reason: string): RunFile {
  return { tool, startedAt, baseUrl: null, verdict: 'error', exitCode: 2, error: reason, summary: { requests: 0, writes: 0, recordsCreated: 0 }, rules: [], ledger: [], journal: [] }
}

/** What a run wrote (FleetDeployment.writes), read with care: merge reads results.json files another job wrote, or a hand edited. */
function writesOf(run: RunResult): FleetDeployment['writes'] {
  const summary = (run.summary ?? {}) as Partial<RunResult['summary']>
  const posts = summary.writes
  if (typeof posts !== 'number' || !Array.isArray(run.ledger)) return undefined
  const prefixes = prefixesOf(run.ledger as unknown[])
  // a POST with no answer or a server fault may have stored its record: said beside the records, never as "no record created"
  const doubtful = Array.isArray(run.journal) ? postsInDoubt({ ledger: run.ledger.filter((e) => typeof e === 'object' && e !== null), journal: run.journal.filter((e) => typeof e === 'object' && e !== null) }) : []
  const inDoubt = doubtful.length > 0 ? { inDoubt: { posts: doubtful.length, prefixes: prefixesOf(doubtful) } } : {}
  const resent = [summary.resentWrites, summary.resentLostWrites].reduce<number>((sum, n) => sum + (typeof n === 'number' && n > 0 ? n : 0), 0)
  return { readOnly: run.options?.readOnly === true, posts, recordsCreated: run.ledger.length, prefixes, ...inDoubt, ...(resent > 0 && resent <= posts ? { resent } : {}) }
}

/** The name prefixes of ledger rows or POSTs, as the run's reports find them (lib/result/record-prefixes.ts): the body sent, else the record as listed. */
function prefixesOf(entries: readonly unknown[]): string[] {
  const prefixes = new Set<string>()
  for (const entry of entries) {
    if (typeof entry !== 'object' || entry === null) continue
    const { body, name, description } = entry as Record<string, unknown>
    const prefix = [body, name, description].map((text) => (typeof text === 'string' ? PREFIX.exec(text)?.[0] : undefined)).find((p) => p !== undefined)
    if (prefix !== undefined) prefixes.add(prefix)
  }
  return [...prefixes]
}

/**
 * The one fault every failed rule met, and every failed check, in the words of the run's own
 * reports, when more than one rule failed: a deployment that answered 502 to everything failed eight rules, and the fleet's
 * line says the fault. None from a results.json whose journal or options cannot be counted (an
 * earlier version's, or one edited by hand, that `merge` reads): its rules are listed as they are.
 */
function oneFault(run: RunResult, failedRules: readonly string[]): string | undefined {
  if (failedRules.length < 2) return undefined
  try {
    // every failed check met it: a fault that spans the failed rules beside another cause (timeouts of
    // a loaded run, a create answered 200 in one of them) is not the one fault, and its words hid the other
    const failedChecks = run.rules.reduce((n, r) => n + r.checks.filter((c) => c.status === 'fail').length, 0)
    return faultGroups(run).find((g) => g.checks === failedChecks && failedRules.every((id) => g.rules.includes(id)))?.what
  } catch {
    return undefined
  }
}

/**
 * The must-rules its run verified by fewer checks than a full run for the writes it was denied
 * (--max-writes, a targets entry's maxWrites, --read-only); not those a freedom of the service left
 * fewer to judge (a short name column), whose run was whole. Read with care: merge reads files another job wrote.
 */
function partlyVerifiedMust(run: RunResult): string[] {
  const heldBack = (c: unknown) => typeof c === 'object' && c !== null && (c as { status?: unknown }).status === 'skip' && ['write-budget', 'read-only'].includes((c as { cause?: unknown }).cause as string)
  return run.rules.filter((r) => r.level === 'must' && r.status !== 'skip' && Array.isArray(r.checks) && r.checks.some(heldBack)).map((r) => r.id)
}

/** A deployment's line of the fleet from its run. */
export function deploymentOf(label: string, baseUrl: string, report: string, run: RunFile): FleetDeployment {
  if (run.verdict === 'error') return { label, baseUrl, verdict: 'error', exitCode: 2, failedRules: [], reason: run.error, rules: {}, report }
  const failedRules = run.rules.filter((r) => r.status === 'fail').map((r) => r.id)
  const fault = oneFault(run, failedRules)
  const knownRules = run.rules.filter(knownRule).map((r) => r.id)
  // a failed run cut short (--deadline, a signal) says so beside its rules: the rules it did not reach are not verified
  const explain = run.verdict === 'incomplete' || run.verdict === 'fail'
  const notVerifiedRules = run.rules.filter((r) => r.status === 'skip' && r.level === 'must').map((r) => r.id)
  const partlyVerifiedRules = partlyVerifiedMust(run)
  // a results.json merge reads may be an earlier version's, or edited by hand
  const selectedRules = Array.isArray(run.options?.rules) ? run.options.rules.filter((id): id is string => typeof id === 'string') : []
  // a results.json of an earlier version (merge) may have no observations
  // a pass by a known problem its baseline excused (stray answers) said nothing on the fleet's page: no rule shows it
  // and what it left not verified, as its own report says: "every must-rule passed" of a deployment whose 403s went unjudged
  const knownProblems = (run.baseline?.knownProblems ?? []).map((k) => `passed with the known problem ${k.problem} its baseline excused (reason: "${k.reason}")${unverifiedWords(k)}: ${k.message}`)
  const notes = [run.observed && connectionLimitNote(run.observed), ...knownProblems].filter((note): note is string => note !== undefined)
  const writes = writesOf(run)
  return {
    label,
    baseUrl,
    verdict: run.verdict,
    // a run a signal interrupted exits 130 or 143: in a fleet it counts by its verdict
    exitCode: run.exitCode <= 2 ? (run.exitCode as 0 | 1 | 2) : run.verdict === 'fail' ? 1 : run.verdict === 'pass' ? 0 : 2,
    failedRules,
    ...(fault !== undefined ? { fault } : {}),
    ...(knownRules.length > 0 ? { knownRules } : {}),
    ...(knownRules.length > 0 && run.baseline?.recorded === true ? { baselineRecorded: true as const } : {}),
    ...(notVerifiedRules.length > 0 ? { notVerifiedRules } : {}),
    ...(partlyVerifiedRules.length > 0 ? { partlyVerifiedRules } : {}),
    ...(selectedRules.length > 0 ? { selectedRules } : {}),
    ...(explain && run.problems[0] !== undefined ? { reason: problemText(run.problems[0]) } : {}),
    rules: Object.fromEntries(run.rules.map((r) => [r.id, r.status])),
    ...(notes.length > 0 ? { notes } : {}),
    ...(writes !== undefined ? { writes } : {}),
    report,
    runId: run.runId,
    durationMs: run.durationMs,
  }
}

/** The fleet's verdict from its deployments' (in the order given). */
export function fleetOf(deployments: FleetDeployment[], runs: readonly RunFile[], tool: FleetResult['tool'], error?: string): FleetResult {
  // a baseline's entries no longer failing anywhere it was read: a note, as a single run names them
  noteFixedEntries(deployments, runs)
  noteExpiredEntries(deployments, runs)
  const failed = deployments.filter((d) => d.exitCode === 1).length
  const notJudged = deployments.filter((d) => d.exitCode === 2).length
  // a failure is the verdict whatever else went wrong; without one, anything not judged is none
  const exitCode = failed > 0 ? 1 : notJudged > 0 || deployments.length === 0 || error !== undefined ? 2 : 0
  const rules = new Map<string, FleetResult['rules'][number]>()
  for (const run of runs) if (run.verdict !== 'error') for (const r of run.rules) if (!rules.has(r.id)) rules.set(r.id, { id: r.id, title: r.title, level: r.level })
  return {
    tool,
    generatedAt: new Date().toISOString(),
    exitCode,
    verdict: exitCode === 1 ? 'fail' : error !== undefined ? 'error' : exitCode === 0 ? 'pass' : 'incomplete',
    summary: { deployments: deployments.length, passed: deployments.length - failed - notJudged, failed, notJudged },
    deployments,
    rules: [...rules.values()],
    ...(error !== undefined ? { error } : {}),
  }
}
