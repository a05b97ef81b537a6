/**
 * What a run does once its checks have finished: the run's result from the checks' outcomes and the
 * journal (completedRun), and, as a separate step, the report files written and the terminal
 * summary (writeRunReports). Apart from lib/runner/conform-run.ts so
 * that the runner loads it while the first requests are in flight, when it waits anyway
 * (docs/performance.md).
 */
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Config } from '../config/config.ts'
import { curlTlsFlags, withCurlFlags } from '../http/curl.ts'
import { githubActionsOutput } from '../reporters/github-actions.ts'
import { htmlReport } from '../reporters/html-report.ts'
import { jsonReport, redactedJsonText } from '../reporters/json-report.ts'
import { junitReport } from '../reporters/junit-report.ts'
import { markdownSummary } from '../reporters/markdown-summary.ts'
import { redactedMarkupText } from '../reporters/markup-redacted.ts'
import { redactedResult, resultOf, type CheckResult, type RunFacts, type RunResult } from '../result/run-result.ts'
import { commandAsRun, terminalSummary } from '../reporters/terminal-summary.ts'
import { clearReports, makeFolder, REPORT_FILES, shownPath, type ReportFile } from './report-files.ts'
import type { CheckOutcome } from './check-runner.ts'
import { applyBaseline, leavesOut, RECORDED_REASON, updatedBaseline, writeBaseline, type Baseline } from '../result/baseline.ts'

/** Each report file of a run (lib/runner/report-files.ts names them), from the run's result. */
const reportWriters: Record<ReportFile, (result: RunResult) => string> = {
  'results.json': jsonReport,
  'junit.xml': junitReport,
  'report.html': htmlReport,
  'summary.md': markdownSummary,
}

/** A run that has ended: its result (the baseline applied), and what writing its reports needs. */
export interface CompletedRun {
  result: RunResult
  /** Every secret of the run (key, secret --header values): what the reports must never show. */
  redact: (text: string) => string
  /** --update-baseline: the baseline with this run's failures recorded, which writeRunReports writes. */
  baselineUpdate?: { path: string; data: Baseline }
  /** --update-baseline on a run that reached no verdict: the file it left as it was. */
  baselineNotUpdated?: string
}

export interface RunReports {
  reportFiles: string[]
  /** The terminal summary (under GitHub Actions, with its annotations). */
  summary: string
  /** The result as results.json holds it (redacted): what a fleet's page is made of, not read back. */
  shown: RunResult
}

function byRule(outcomes: readonly CheckOutcome[]): Map<string, CheckResult[]> {
  const grouped = new Map<string, CheckResult[]>()
  for (const { ruleId, result } of outcomes) {
    const checks = grouped.get(ruleId)
    if (checks) checks.push(result)
    else grouped.set(ruleId, [result])
  }
  return grouped
}

/**
 * The run's result from its checks' outcomes and facts. --baseline: the known failures applied;
 * --update-baseline first records the run's failures (written by writeRunReports), so that the
 * run applies (and exits 0 on) what it just recorded. Writes nothing.
 */
export function completedRun(
  outcomes: readonly CheckOutcome[],
  facts: RunFacts,
  config: Pick<Config, 'rules' | 'baseline' | 'updateBaseline' | 'keySource' | 'tls'>,
  redact: (text: string) => string,
): CompletedRun {
  // where the key came from, named if the server refuses it (the embedded server's key comes from nowhere the user set)
  const keyFrom = config.keySource !== undefined && !facts.embeddedServer ? { keyFrom: config.keySource } : {}
  // the user's TLS files and client certificate as reports name them (no key: `material` is not enumerable, and not copied)
  const tls = config.tls ? { tls: { ...(config.tls.caCert ? { caCert: config.tls.caCert } : {}), ...(config.tls.clientCertificate ? { clientCertificate: config.tls.clientCertificate } : {}) } } : {}
  const flags = config.tls ? curlTlsFlags(config.tls) : ''
  // a reproduction against a service behind mutual TLS needs the files the run used, as curl takes them
  const reproducible = flags === '' ? outcomes : outcomes.map((o) => ({ ...o, result: { ...o.result, reproduce: o.result.reproduce.map((line) => withCurlFlags(line, flags)) } }))
  const result = resultOf(byRule(reproducible), { ...facts, options: { ...facts.options, ...keyFrom, ...tls } }, config.rules)
  if (!config.baseline) return { result, redact }
  const today = new Date().toISOString().slice(0, 10)
  let baseline = config.baseline.data
  let baselineUpdate: CompletedRun['baselineUpdate']
  if (config.updateBaseline && result.verdict !== 'incomplete') {
    baseline = updatedBaseline(result, baseline, today)
    baselineUpdate = { path: config.baseline.path, data: baseline }
  }
  const notUpdated = config.updateBaseline && !baselineUpdate ? { baselineNotUpdated: config.baseline.path } : {}
  const judged = applyBaseline(result, baseline, config.baseline.path, today)
  if (baselineUpdate && judged.baseline) judged.baseline.recorded = true
  return { result: judged, redact, ...(baselineUpdate ? { baselineUpdate } : {}), ...notUpdated }
}

/**
 * Writes a completed run's reports (redacted) into its report folder, and the updated baseline
 * when asked; returns the terminal summary. `env`: the run's environment, where the GitHub Actions
 * output looks for its files; 'files only': the files, no summary (and no GitHub Actions output).
 * The run's journal.ndjson, written as the run went, is left as it is.
 */
export function writeRunReports(run: CompletedRun, config: Pick<Config, 'workingDir' | 'reportDir'>, env: NodeJS.ProcessEnv, summary: 'summary' | 'files only' = 'summary'): RunReports {
  const { result, redact } = run
  if (run.baselineUpdate) writeBaseline(run.baselineUpdate.path, run.baselineUpdate.data)
  const reportDir = resolve(config.workingDir, config.reportDir)
  makeFolder(reportDir)
  // the journal.ndjson the run appended to is this run's: kept
  clearReports(reportDir, REPORT_FILES)
  const shownResult = redactedResult(result, redact)
  const reportFiles: string[] = []
  const texts = new Map<ReportFile, string>()
  for (const [file, write] of Object.entries(reportWriters) as [ReportFile, (result: RunResult) => string][]) {
    const path = join(reportDir, file)
    // results.json keeps its property names whatever the key (redactedJsonText), junit.xml and report.html their markup (redactedMarkupText)
    const text = file === 'results.json' ? redactedJsonText(write(shownResult), redact) : file === 'summary.md' ? redact(write(shownResult)) : redactedMarkupText(write(shownResult), redact)
    writeFileSync(path, text)
    texts.set(file, text)
    reportFiles.push(shownPath(path, config.workingDir))
  }
  // a fleet prints lines of its own, and writes the GitHub Actions output once (lib/fleet/fleet-run.ts): a run's summary would go unread
  if (summary === 'files only') return { reportFiles, summary: '', shown: shownResult }
  const terminal = terminalSummary(shownResult, reportFiles, commandAsRun(env))
  // the job summary is summary.md's text, made once
  const github = githubActionsOutput(shownResult, terminal, texts.get('summary.md') ?? markdownSummary(shownResult), env, redact)
  return { reportFiles, summary: redact(github.stdout + baselineWritten(run, config.workingDir)), shown: shownResult }
}

/** --update-baseline: where the file went, and what its new entries still need (a reason and an expiry, which the run cannot know). */
export function baselineWritten(run: CompletedRun, workingDir: string): string {
  // asked for, and not done: said, or a team reads exit 2 as a refused key only and trusts a file that did not change
  if (run.baselineNotUpdated !== undefined) return `Baseline not written: the run reached no verdict, so its failures are no evidence of what is known; ${shownPath(run.baselineNotUpdated, workingDir)} is as it was\n`
  if (!run.baselineUpdate) return ''
  const entries = run.baselineUpdate.data.knownFailures
  const problems = run.baselineUpdate.data.knownProblems ?? []
  const unexplained = [...entries, ...problems].filter((e) => e.reason.startsWith(RECORDED_REASON)).length
  const still = unexplained > 0 ? `; ${unexplained} of them still say "${RECORDED_REASON}": give each its reason (a ticket) and an "expires" date, so that a known failure does not stay known for ever` : ''
  // an entry of the whole rule excuses each of its checks that fails alike: the file is shorter than the failures it excuses
  const excused = run.result.baseline?.known.length ?? entries.length
  const checks = excused === entries.length ? '' : `, excusing ${excused} failed checks`
  const known = problems.length === 0 ? '' : `, and the known problem ${problems.map((p) => p.problem).join(', ')} (knownProblems)`
  // intermittent failures are not recorded: they fail this run and the next, and the line says why
  const left = run.result.rules.flatMap((r) => r.checks.filter((c) => c.status === 'fail' && leavesOut(c)).map(() => r.id))
  const leftOut = left.length === 0 ? '' : `; ${left.length} intermittent ${left.length === 1 ? 'failure' : 'failures'} (${[...new Set(left)].join(', ')}) not recorded: ${left.length === 1 ? 'it' : 'they'} failed on some probes only (a replica, a flaky dependency), so an entry would read as fixed in a run the fault missed, and excuse its answer wherever else it came; fix ${left.length === 1 ? 'it' : 'them'}, or write an entry by hand (docs/adoption.md)`
  // an expired entry is kept as it is (a new date is a decision, not a recording): the run fails on it, and the line says why
  const expired = (run.result.baseline?.expired.length ?? 0) + (run.result.baseline?.expiredProblems?.length ?? 0)
  const kept = expired === 0 ? '' : `; ${expired} expired ${expired === 1 ? 'entry' : 'entries'} kept as ${expired === 1 ? 'it is' : 'they are'}: ${expired === 1 ? 'it excuses' : 'they excuse'} nothing, and the run fails on what ${expired === 1 ? 'it' : 'they'} excused, until given a new "expires" or removed`
  return `Baseline written: ${shownPath(run.baselineUpdate.path, workingDir)} (${entries.length} known ${entries.length === 1 ? 'failure' : 'failures'}${checks}${known}${still})${kept}${leftOut}\n`
}
