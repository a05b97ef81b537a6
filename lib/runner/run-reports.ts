/**
 * What a run does once its checks have finished: the run's result from the checks' outcomes and the
 * journal, the report files written, the terminal summary. Apart from lib/runner/conform-run.ts so
 * that the runner loads it while the first requests are in flight, when it waits anyway
 * (docs/performance.md).
 */
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Config } from '../config/config.ts'
import { githubActionsOutput } from '../reporters/github-actions.ts'
import { htmlReport } from '../reporters/html-report.ts'
import { jsonReport } from '../reporters/json-report.ts'
import { junitReport } from '../reporters/junit-report.ts'
import { markdownSummary } from '../reporters/markdown-summary.ts'
import { redactedResult, resultOf, type CheckResult, type RunFacts, type RunResult } from '../result/run-result.ts'
import { terminalSummary } from '../reporters/terminal-summary.ts'
import { clearReports, makeFolder, shownPath, type ReportFile } from './report-files.ts'
import type { CheckOutcome } from './check-runner.ts'
import { applyBaseline, updatedBaseline, writeBaseline } from '../result/baseline.ts'

/** Each report file of a run (lib/runner/report-files.ts names them), from the run's result. */
const reportWriters: Record<ReportFile, (result: RunResult) => string> = {
  'results.json': jsonReport,
  'junit.xml': junitReport,
  'report.html': htmlReport,
  'summary.md': markdownSummary,
}

export interface RunReports {
  result: RunResult
  reportFiles: string[]
  summary: string
}

/**
 * --baseline: the known failures applied to the result; --update-baseline first writes the run's
 * failures into the file, so that the run applies (and exits 0 on) what it just recorded.
 */
function withBaseline(result: RunResult, config: Pick<Config, 'baseline' | 'updateBaseline'>): RunResult {
  if (!config.baseline) return result
  const today = new Date().toISOString().slice(0, 10)
  let baseline = config.baseline.data
  if (config.updateBaseline && result.verdict !== 'incomplete') {
    baseline = updatedBaseline(result, baseline, today)
    writeBaseline(config.baseline.path, baseline)
  }
  return applyBaseline(result, baseline, config.baseline.path, today)
}

function byRule(outcomes: readonly CheckOutcome[]): Map<string, CheckResult[]> {
  const grouped = new Map<string, CheckResult[]>()
  for (const { ruleId, result } of outcomes) grouped.set(ruleId, [...(grouped.get(ruleId) ?? []), result])
  return grouped
}

/** Builds the run's result, writes every report file (redacted; none when `files` is false) and returns the terminal summary. */
export function writeRunReports(
  outcomes: readonly CheckOutcome[],
  facts: RunFacts,
  config: Pick<Config, 'rules' | 'workingDir' | 'reportDir' | 'baseline' | 'updateBaseline'>,
  redact: (text: string) => string,
  env: NodeJS.ProcessEnv,
  files = true,
): RunReports {
  const result = withBaseline(resultOf(byRule(outcomes), facts, config.rules), config)
  const reportDir = resolve(config.workingDir, config.reportDir)
  if (files) {
    makeFolder(reportDir)
    clearReports(reportDir)
  }
  const shownResult = redactedResult(result, redact)
  const reportFiles: string[] = []
  for (const [file, write] of files ? Object.entries(reportWriters) : []) {
    const path = join(reportDir, file)
    writeFileSync(path, redact(write(shownResult)))
    reportFiles.push(shownPath(path, config.workingDir))
  }
  const terminal = terminalSummary(shownResult, reportFiles)
  const github = githubActionsOutput(shownResult, terminal, markdownSummary(shownResult), env, redact)
  return { result, reportFiles, summary: redact(github.stdout) }
}
