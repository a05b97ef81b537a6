/**
 * The fleet's reports, at the top of its report folder: fleet.json (the verdict of each deployment),
 * fleet.md and fleet.html (a deployment × rule matrix with a link to each deployment's report.html),
 * junit.xml (one testsuite per deployment), and what the terminal and GitHub Actions show: one line
 * per deployment and the fleet's verdict; annotations and the job summary under GITHUB_ACTIONS.
 * Labels are folder names (lib/fleet/targets.ts); every other text (base URLs as given, reasons
 * quoting a server) is escaped for its format, and everything written is redacted.
 */
import { randomBytes } from 'node:crypto'
import { appendFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { escapeData, workflowCommand, withinStepSummaryBudget, ANNOTATIONS_PER_KIND } from '../reporters/github-actions.ts'
import { escapeMarkdown } from '../reporters/markdown-summary.ts'
import { visibleLine } from '../reporters/visible-text.ts'
import { clearReports, makeFolder, shownPath } from '../runner/report-files.ts'
import { FLEET_FILES, type FleetFile } from './fleet-files.ts'
import { fleetHtml } from './fleet-html.ts'
import { fleetJunit } from './fleet-junit.ts'
import type { FleetResult, RunFile } from './fleet-result.ts'
import { CELL_WORD, cellWord, deploymentDetail as detail, deploymentWord, fleetHeadline, fleetTitle, linkTarget, NO_VERDICT_LEGEND, noStatusWord, ruleStatus, writesDetail } from './fleet-wording.ts'
import { portableJson } from '../json/portable-json.ts'
import { redactedJsonText } from '../reporters/json-report.ts'
import { redactedMarkupText } from '../reporters/markup-redacted.ts'

/** The terminal's lines: one per deployment, then the fleet's verdict and where its page is. */
export function fleetTerminal(fleet: FleetResult, pagePath: string): string {
  // a label merge read from a folder's name may hold what a terminal acts on (it is then no label, and the line says so): marked, as every page marks it
  const label = (d: FleetResult['deployments'][number]) => visibleLine(d.label)
  const width = Math.max(0, ...fleet.deployments.map((d) => label(d).length))
  const lines = fleet.deployments.map((d) => `${deploymentWord(d).padEnd(10)}  ${label(d).padEnd(width)}  ${visibleLine(d.baseUrl)}  ${visibleLine(detail(d))}`)
  // what fleet.md and fleet.html say under Notes, as a single run's terminal says its notes
  for (const d of fleet.deployments) for (const note of d.notes ?? []) lines.push(`Note: ${label(d)}: ${visibleLine(note)}`)
  // where each deployment's records went, as a run's "Records created:" line says it (a read-only fleet wrote nothing to say)
  for (const d of fleet.deployments) {
    const writes = writesDetail(d)
    if (writes !== undefined && d.writes?.readOnly !== true) lines.push(`Writes: ${label(d)}: ${visibleLine(writes)}`)
  }
  lines.push(`Fleet: ${visibleLine(fleetHeadline(fleet))}`, `Fleet page: ${pagePath} (each deployment's reports in its folder)`)
  return lines.join('\n') + '\n'
}

/**
 * fleet.md: the verdict, a line per deployment with a link to its report, and the rule matrix.
 * `links: false` for GitHub's job summary, whose page is no folder: a relative link there leads
 * nowhere (a 404 under the run's address), so it names the file in the reports instead.
 */
export function fleetMarkdown(fleet: FleetResult, { links = true }: { links?: boolean } = {}): string {
  const icon = fleet.exitCode === 0 ? '✅' : fleet.exitCode === 1 ? '❌' : '⚠️'
  const out = [`## ${icon} Pet Store categories conformance: ${fleetTitle(fleet)}`, '', escapeMarkdown(fleetHeadline(fleet), 2000), '']
  if (fleet.deployments.length > 0) {
    out.push('| deployment | base URL | verdict | failed rules or why not judged | writes | report |', '|---|---|---|---|---|---|')
    for (const d of fleet.deployments) {
      out.push(`| ${escapeMarkdown(d.label)} | ${escapeMarkdown(d.baseUrl)} | ${deploymentWord(d)} | ${escapeMarkdown(detail(d) || '—')} | ${escapeMarkdown(writesDetail(d) ?? '—')} | ${links ? `[${escapeMarkdown(d.report.slice(d.report.lastIndexOf('/') + 1))}](${linkTarget(d.report)})` : escapeMarkdown(d.report)} |`)
    }
  }
  const noted = fleet.deployments.filter((d) => d.notes !== undefined)
  if (noted.length > 0) {
    out.push('', '### Notes', '', ...noted.flatMap((d) => (d.notes ?? []).map((note) => `- ${escapeMarkdown(d.label)}: ${escapeMarkdown(note, 2000)}`)))
  }
  if (fleet.rules.length > 0) {
    out.push('', '### Rules by deployment', '', `| rule | ${fleet.deployments.map((d) => escapeMarkdown(d.label)).join(' | ')} |`, `|---|${fleet.deployments.map(() => '---|').join('')}`)
    let unjudged = false
    for (const rule of fleet.rules) {
      const cells = fleet.deployments.map((d) => {
        const status = ruleStatus(d, rule.id)
        if (status === undefined && noStatusWord(d) === '—') unjudged = true
        return status === undefined ? noStatusWord(d) : status === 'fail' ? `**${CELL_WORD.fail}**` : (cellWord(d, rule.id) as string)
      })
      // a rule's level comes from a results.json merge read, which a hand or a hostile job may have edited
      out.push(`| ${escapeMarkdown(rule.id)} (${escapeMarkdown(rule.level)}) | ${cells.join(' | ')} |`)
    }
    // the legend of a cell the matrix shows, only when it shows one
    if (unjudged) out.push('', NO_VERDICT_LEGEND)
  }
  return out.join('\n') + '\n'
}

/** The annotations of a fleet under GitHub Actions: one error per deployment that failed or could not be judged. */
function fleetAnnotations(fleet: FleetResult): string[] {
  if (fleet.error !== undefined && fleet.deployments.length === 0) return [workflowCommand('error', 'conformance fleet could not be run', visibleLine(fleet.error))]
  // a merge not whole (--expect, a fleet of no verdict) still says each deployment that failed: the error goes first, not in their place
  const whole = fleet.error === undefined ? [] : [workflowCommand('error', 'conformance fleet not whole', visibleLine(fleet.error))]
  const items = fleet.deployments
    .filter((d) => d.exitCode !== 0)
    .map((d) => ({ title: `${visibleLine(d.label)}: ${d.exitCode === 1 ? 'conformance failed' : 'could not be judged'}`, message: visibleLine(`${d.baseUrl}: ${detail(d)}`) }))
  const shown = items.length > ANNOTATIONS_PER_KIND - whole.length ? items.slice(0, ANNOTATIONS_PER_KIND - whole.length - 1) : items
  const out = [...whole, ...shown.map((i) => workflowCommand('error', i.title, i.message))]
  if (items.length > shown.length) out.push(workflowCommand('error', `${items.length - shown.length} more deployments`, 'not shown here: see the job summary and fleet.html'))
  return out
}

export interface FleetOutput {
  /** What to print: the terminal lines (under GitHub Actions: annotations, then the lines shielded from command processing). */
  stdout: string
  /** The fleet's files as the user reads their paths. */
  files: string[]
}

/**
 * Writes fleet.json, fleet.md, fleet.html and junit.xml to `reportDir` (removing what an earlier
 * single run or fleet left at its top, so that nothing there can be read as this fleet's), and
 * returns what to print. Under GitHub Actions fleet.md goes to the job summary too.
 */
export function writeFleetReports(reportDir: string, userCwd: string, fleet: FleetResult, runs: readonly RunFile[], redact: (text: string) => string, env: NodeJS.ProcessEnv): FleetOutput {
  makeFolder(reportDir)
  clearReports(reportDir)
  for (const file of FLEET_FILES) rmSync(join(reportDir, file), { force: true })
  const markdown = fleetMarkdown(fleet)
  const writers: Record<FleetFile, () => string> = {
    'fleet.json': () => portableJson(fleet, 2) + '\n',
    'fleet.md': () => markdown,
    'fleet.html': () => fleetHtml(fleet),
    'junit.xml': () => fleetJunit(fleet, runs),
  }
  const files = FLEET_FILES.map((file) => {
    const path = join(reportDir, file)
    // fleet.json keeps its property names whatever the key ("verdict" renamed each deployment's verdict to [REDACTED]), as results.json does
    // fleet.html and junit.xml their markup (redactedMarkupText)
    writeFileSync(path, file === 'fleet.json' ? redactedJsonText(writers[file](), redact) : file === 'fleet.md' ? redact(writers[file]()) : redactedMarkupText(writers[file](), redact))
    return shownPath(path, userCwd)
  })
  const terminal = redact(fleetTerminal(fleet, shownPath(join(reportDir, 'fleet.html'), userCwd)))
  if (env.GITHUB_ACTIONS !== 'true') return { stdout: terminal, files }
  const lines = fleetAnnotations(fleet).map(redact)
  if (env.GITHUB_STEP_SUMMARY) {
    try {
      appendFileSync(env.GITHUB_STEP_SUMMARY, withinStepSummaryBudget(redact(fleetMarkdown(fleet, { links: false })), 'see fleet.html') + '\n')
    } catch (error) {
      lines.push(`::warning title=Job summary::${escapeData(redact(`could not append the job summary to $GITHUB_STEP_SUMMARY: ${(error as Error).message}`))}`)
    }
  }
  // the lines quote base URLs and servers' words: nothing in them may act as a workflow command
  const token = `conform-${randomBytes(12).toString('hex')}`
  lines.push(`::stop-commands::${token}`, terminal.replace(/\n$/, ''), `::${token}::`)
  return { stdout: lines.join('\n') + '\n', files }
}
