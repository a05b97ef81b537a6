/**
 * Under GitHub Actions (GITHUB_ACTIONS=true): failures become `::error` annotations, rules not
 * verified a `::notice`, advisory notes `::warning`s, and summary.md is appended to the job
 * summary ($GITHUB_STEP_SUMMARY). The terminal summary, which quotes server text, is printed
 * between `::stop-commands::` and its resume token, so nothing in it can act as a workflow command.
 * Server text in annotations is on one line per field, its controls and invisible characters shown
 * as markers (visible-text.ts), and escaped as workflow-command data.
 */
import { entryCheck } from '../result/baseline.ts'
import { randomBytes } from 'node:crypto'
import { appendFileSync } from 'node:fs'
import { failureGroups } from './failure-groups.ts'
import type { RunResult } from '../result/run-result.ts'
import { visibleLine, visibleValue } from './visible-text.ts'
import { failedChecks, notVerifiedByReason, plural } from './wording.ts'
import { knownRule } from './run-counts.ts'
import { baselineWords } from '../result/baseline.ts'
import { recurrenceWords } from '../result/fault-groups.ts'

/** GitHub shows at most 10 annotations of each kind per step; the rest would vanish silently. */
export const ANNOTATIONS_PER_KIND = 10
/** GitHub refuses a step summary over 1 MiB (of UTF-8); stay well under it. */
export const STEP_SUMMARY_BUDGET = 512 * 1024
const MESSAGE_BUDGET = 4000

/** Workflow-command data: %, CR and LF escaped (actions/toolkit `escapeData`). */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

/** Workflow-command property value: as data, plus : and , (actions/toolkit `escapeProperty`). */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')
}

type Kind = 'error' | 'warning' | 'notice'

/**
 * `markdown` as a job summary takes it: whole when its UTF-8 is within the budget, else cut at the
 * last line break before it (a table row or a list item whole, no character split) and followed by
 * where the rest is. GitHub counts bytes: half a MiB of servers' CJK text is 1.5 MiB.
 */
export function withinStepSummaryBudget(markdown: string, rest: string): string {
  if (markdown.length <= STEP_SUMMARY_BUDGET / 3 || Buffer.byteLength(markdown) <= STEP_SUMMARY_BUDGET) return markdown
  // a character cut in two decodes to U+FFFD at the end, which the line break before it drops
  const head = Buffer.from(markdown).subarray(0, STEP_SUMMARY_BUDGET).toString()
  const lastBreak = head.lastIndexOf('\n')
  return `${lastBreak > 0 ? head.slice(0, lastBreak) : ''}\n\n… cut to GitHub's size for a job summary: ${rest}\n`
}

export function workflowCommand(kind: Kind, title: string, message: string): string {
  const body = message.length > MESSAGE_BUDGET ? message.slice(0, MESSAGE_BUDGET - 1) + '…' : message
  return `::${kind} title=${escapeProperty(title)}::${escapeData(body)}`
}

/** The annotations of a run, at most ANNOTATIONS_PER_KIND of each kind (the last one says what was left out). */
export function annotations(result: RunResult): string[] {
  const errors: { title: string; message: string }[] = []
  for (const problem of result.problems) errors.push({ title: 'Conformance run problem', message: visibleLine(problem.message) })
  for (const rule of result.rules) {
    const failed = failedChecks(rule)
    if (failed.length === 0) continue
    // the first cause in full, the others counted: one annotation per rule
    const [first, ...others] = failureGroups(rule)
    const what = first.checks.length === 1 ? visibleLine(first.checks[0].name) : `${first.checks.length} checks`
    const lines = [
      `${what}: [${first.failure.code}] ${visibleValue(first.failure.message)}`,
      `expected: ${visibleValue(first.failure.expected)}`,
      `actual:   ${visibleValue(first.failure.actual)}`,
    ]
    const recurred = recurrenceWords(first.checks)
    if (recurred) lines.push(`recurred: ${visibleLine(recurred)}`)
    const known = baselineWords(first.checks)
    if (known) lines.push(`baseline: ${visibleLine(known)}`)
    if (first.checks.length > 1) lines.push(`checks: ${first.checks.map((c) => visibleLine(c.name)).join('; ')}`)
    const curl = first.checks[0].reproduce[first.checks[0].reproduce.length - 1]
    if (curl) lines.push(`reproduce${first.checks.length > 1 ? ' the first' : ''}: ${visibleLine(curl)}`)
    if (others.length > 0) {
      const rest = others.reduce((sum, g) => sum + g.checks.length, 0)
      lines.push(`… and ${plural(others.length, 'other cause')} (${plural(rest, 'failed check')}) of this rule in report.html`)
    }
    errors.push({ title: `${rule.id} (§${rule.section}): ${failed.length} of ${rule.checks.length} checks failed`, message: lines.join('\n') })
  }
  const out: string[] = []
  const capped = (kind: Kind, items: { title: string; message: string }[], what: string) => {
    const shown = items.length > ANNOTATIONS_PER_KIND ? items.slice(0, ANNOTATIONS_PER_KIND - 1) : items
    for (const item of shown) out.push(workflowCommand(kind, item.title, item.message))
    if (items.length > shown.length) {
      out.push(workflowCommand(kind, `${items.length - shown.length} more ${what}`, 'GitHub shows 10 annotations of a kind per step: the rest are in the job summary and report.html'))
    }
  }
  capped('error', errors, 'failing rules')

  const groups = notVerifiedByReason(result)
  if (groups.length > 0) {
    const message = groups.map((g) => `${g.reason}: ${g.rules.map((r) => r.id).join(', ')}`).join('\n')
    out.push(workflowCommand('notice', `${plural(result.summary.rules.skip, 'rule')} not verified by this run`, message))
  }
  const advisories = result.rules
    .filter((r) => r.status === 'warn')
    .map((r) => ({
      title: knownRule(r) ? `${r.id} (known failures, --baseline, §${r.section})` : `${r.id} (advisory, §${r.section})`,
      message: [...new Set(r.checks.flatMap((c) => (c.known !== undefined ? [`known failure: ${c.known}`] : c.notes)))].map(visibleLine).join('\n'),
    }))
  // a green run with entries that no longer fail: without a mark on the run's page nobody reads
  // the log of a job that passed, and a stale entry excuses its failure should it come back
  const stale = [...(result.baseline?.fixed ?? []).map((e) => `${e.rule} [${e.code}] ${visibleLine(entryCheck(e))}`), ...(result.baseline?.fixedProblems ?? []).map((e) => `problem ${e.problem}`)]
  if (stale.length > 0) {
    const list = stale
    advisories.unshift({
      title: `Baseline: ${plural(stale.length, 'entry', 'entries')} no longer ${stale.length === 1 ? 'fails' : 'fail'}`,
      message: [`remove ${stale.length === 1 ? 'it' : 'them'} (--update-baseline does): until then each would excuse its failure, should it come back`, ...list].join('\n'),
    })
  }
  // a run problem its baseline excused (stray answers): a warning, as a known failure is, never an error
  for (const k of result.baseline?.knownProblems ?? []) advisories.push({ title: `${k.problem} (known problem, --baseline)`, message: `known problem: ${visibleLine(k.reason)}\n${visibleLine(k.message)}` })
  capped('warning', advisories, 'advisory notes')
  return out
}

export interface GithubOutput {
  /** What to print instead of the bare terminal summary; a job summary that could not be written is a ::warning in it. */
  stdout: string
}

/**
 * Under GitHub Actions, appends `markdown` to $GITHUB_STEP_SUMMARY and returns the annotations
 * followed by the terminal summary, shielded from command processing; elsewhere returns the
 * terminal summary unchanged. `redact` is applied to everything written.
 */
export function githubActionsOutput(
  result: RunResult,
  terminal: string,
  markdown: string,
  env: NodeJS.ProcessEnv,
  redact: (text: string) => string = (t) => t,
): GithubOutput {
  if (env.GITHUB_ACTIONS !== 'true') return { stdout: terminal }
  let problem: string | undefined
  const summaryFile = env.GITHUB_STEP_SUMMARY
  if (summaryFile) {
    try {
      appendFileSync(summaryFile, withinStepSummaryBudget(redact(markdown), 'see report.html') + '\n')
    } catch (error) {
      problem = `could not append the job summary to $GITHUB_STEP_SUMMARY: ${(error as Error).message}`
    }
  }
  const token = `conform-${randomBytes(12).toString('hex')}`
  const lines = [...annotations(result).map(redact), `::stop-commands::${token}`, redact(terminal).replace(/\n$/, ''), `::${token}::`]
  if (problem) lines.push(`::warning title=Job summary::${escapeData(redact(problem))}`)
  return { stdout: lines.join('\n') + '\n' }
}
