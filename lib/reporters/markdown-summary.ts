/**
 * summary.md: the run in GitHub-flavoured Markdown, short enough for a CI job summary (GitHub's
 * $GITHUB_STEP_SUMMARY, a merge-request note): verdict, counts, failures with expected/actual,
 * the rules not verified and the records created. The whole story is in report.html.
 *
 * Server-controlled text is escaped so that it renders as the text it is: no HTML, links,
 * mentions, math or table breaks.
 */
import type { RunResult } from './run-result.ts'
import { failedChecks, headline, notVerifiedByReason, partlyVerified, plural, seconds, writeMode } from './wording.ts'

/** Most failure rows and ledger rows shown; the rest are counted and left to report.html. */
export const MAX_ROWS = 30
const MAX_CELL = 300

/** Escapes text for one line of Markdown (a table cell or a list item). */
export function escapeMarkdown(text: string, max = MAX_CELL): string {
  let line = String(text).replace(/[\r\n\t\u2028\u2029]+/g, ' ').replace(/[\x00-\x1F\x7F-\x9F\u202A-\u202E\u2066-\u2069]/g, '\uFFFD')
  if (line.length > max) line = line.slice(0, max - 1) + '…'
  return line
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_{}[\]()#+!|~@$:]/g, '\\$&')
}

/** A fenced code block whose fence no run of backticks inside can close. */
function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  return `${fence}${lang}\n${text.replace(/[\x00-\x08\x0B-\x1F\x7F]/g, '\uFFFD')}\n${fence}`
}

const code = (id: string) => `\`${id.replace(/`/g, '')}\``

export function markdownSummary(result: RunResult): string {
  const lines: string[] = []
  const r = result.summary.rules
  const c = result.summary.checks
  const mark = result.verdict === 'pass' ? '✅' : '❌'
  lines.push(`## ${mark} Pet Store categories conformance: ${headline(result)}`)
  lines.push('')
  lines.push(
    `${escapeMarkdown(result.baseUrl)}${result.embeddedServer ? ' (embedded reference server)' : ''} · ${escapeMarkdown(result.startedAt)} · ${seconds(result.durationMs)} · run ${code(result.runId)} · exit code ${result.exitCode}`,
  )
  lines.push('')
  lines.push('| rules passed | rules failed | rules not verified | advisory notes | checks | requests | records created |')
  lines.push('| ---: | ---: | ---: | ---: | --- | ---: | ---: |')
  lines.push(
    `| ${r.pass} | ${r.fail} | ${r.skip} | ${r.warn} | ${c.pass + c.warn} passed, ${c.fail} failed, ${c.skip} skipped | ${result.summary.requests} | ${result.summary.recordsCreated} |`,
  )
  lines.push('')
  lines.push(`Writes: ${escapeMarkdown(writeMode(result))}.`)

  if (result.problems.length > 0) {
    lines.push('', '### Problems during the run', '')
    for (const problem of result.problems.slice(0, MAX_ROWS)) lines.push(`- ${escapeMarkdown(problem)}`)
  }

  const failures = result.rules.flatMap((rule) => failedChecks(rule).map((check) => ({ rule, check })))
  if (failures.length > 0) {
    lines.push('', `### Failures: ${plural(failures.length, 'check')} in ${plural(r.fail, 'rule')}`, '')
    lines.push('| rule | check | expected | actual |')
    lines.push('| --- | --- | --- | --- |')
    for (const { rule, check } of failures.slice(0, MAX_ROWS)) {
      lines.push(
        `| ${code(rule.id)} §${escapeMarkdown(rule.section)} | ${escapeMarkdown(check.name)} | ${escapeMarkdown(check.failure?.expected ?? '-')} | ${escapeMarkdown(check.failure?.actual ?? '-')} |`,
      )
    }
    if (failures.length > MAX_ROWS) lines.push('', `… and ${failures.length - MAX_ROWS} more failed checks: see report.html.`)
    const first = failures.find((f) => f.check.reproduce.length > 0)
    if (first) {
      lines.push('', `Reproduce the first failure (${escapeMarkdown(first.check.name)}), with \`CONFORM_API_KEY\` set:`, '')
      lines.push(fenced(first.check.reproduce[first.check.reproduce.length - 1], 'sh'))
    }
  }

  const groups = notVerifiedByReason(result)
  const partial = partlyVerified(result)
  if (groups.length > 0 || partial.length > 0) {
    lines.push('', '### Not verified', '')
    for (const group of groups) lines.push(`- ${escapeMarkdown(group.reason)}: ${group.rules.map((rule) => code(rule.id)).join(', ')}`)
    for (const p of partial) lines.push(`- ${code(p.rule.id)}: ${plural(p.skipped, 'check')} skipped (${escapeMarkdown(p.reasons.join('; '))})`)
  }

  lines.push('', `### Records created: ${result.ledger.length}`, '')
  if (result.ledger.length === 0) {
    lines.push(result.options.readOnly ? 'None: the run was read-only.' : 'None.')
  } else {
    lines.push(`The interface has no delete; these stay. Names start with ${code(`conform-${result.runId}-`)}.`, '')
    lines.push('| id | name | status |')
    lines.push('| --- | --- | ---: |')
    for (const entry of result.ledger.slice(0, MAX_ROWS)) lines.push(`| ${escapeMarkdown(entry.id)} | ${escapeMarkdown(entry.name)} | ${entry.status} |`)
    if (result.ledger.length > MAX_ROWS) lines.push('', `… and ${result.ledger.length - MAX_ROWS} more: see results.json.`)
  }
  lines.push('', 'Full report: `report.html` (open in a browser); `junit.xml` for test tabs; `results.json` for scripts.')
  return lines.join('\n') + '\n'
}
