/**
 * summary.md: the run in GitHub-flavoured Markdown, short enough for a CI job summary (GitHub's
 * $GITHUB_STEP_SUMMARY, a merge-request note): verdict, counts, failures with expected/actual,
 * the rules not verified and the records created. The whole story is in report.html.
 *
 * Server-controlled text is escaped so that it renders as the text it is: no HTML, links,
 * mentions, math or table breaks; invisible and control characters are shown as markers
 * (visible-text.ts). Failures come one row per cause (failure-groups.ts), naming every check.
 */
import { entryCheck } from '../result/baseline.ts'
import { baselineLine, baselineWords } from '../result/baseline.ts'
import { problemEntryLines } from '../result/known-problems.ts'
import { faultGroups, recurrenceWords } from '../result/fault-groups.ts'
import { samplingLine } from '../result/sampling-line.ts'
import { observedLines } from '../result/observed-behaviour.ts'
import { runFailureGroups } from './failure-groups.ts'
import { recordPrefixWords, WHERE_THE_PREFIX_IS } from './record-prefix-words.ts'
import { runCounts } from './run-counts.ts'
import { serverWaits, type RunResult } from '../result/run-result.ts'
import { valueLegend, visibleLine, visibleValue } from './visible-text.ts'
import { reproduceKeyMarkdown } from './reproduce-key.ts'
import { faultAnsweredLabel, faultAnsweredWords, unprefixedNewWords, foundWords, headline, ledgerStatus, notVerifiedByReason, pacing, partlyVerified, plural, postAnswer, postsSent, seconds, writeMode } from './wording.ts'

/** Most failure rows and ledger rows shown; the rest are counted and left to report.html. */
export const MAX_ROWS = 30
const MAX_CELL = 300
/** How much of a row's list of checks is written before the rest is counted; GitHub caps a job summary at 1 MiB. */
const MAX_CHECKS_CELL = 3000

/** Escapes text for one line of Markdown (a table cell or a list item). */
export function escapeMarkdown(text: string, max = MAX_CELL): string {
  return markdownLine(visibleLine(text), max)
}

/** A failure's message, expected or actual value for a table cell, with its markers. */
function markdownValue(text: string): string {
  return markdownLine(visibleValue(text), MAX_CELL)
}

/**
 * Markdown escapes for a line that is already visible text. GitHub's autolinks (cmark-gfm) would
 * make a server's text a link in the job summary: an escaped ":" holds off `https://`, an escaped
 * dot `www.`, but an e-mail address is linked after the escapes are read, so an empty comment,
 * which the page drops, parts its "@" from the domain.
 */
function markdownLine(visible: string, max: number): string {
  const chars = [...visible]
  const line = chars.length > max ? chars.slice(0, max - 1).join('') + '…' : visible
  return line
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_{}[\]()#+!|~@$:]/g, '\\$&')
    .replace(/www\./g, 'www\\.')
    .replace(/(?<=[A-Za-z0-9._+-])\\@(?=[A-Za-z0-9])/g, '\\@<!-- -->')
}

/** A fenced code block whose fence no run of backticks inside can close. */
function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  return `${fence}${lang}\n${text.split('\n').map(visibleLine).join('\n')}\n${fence}`
}

const inlineCode = (id: string) => `\`${id.replace(/`/g, '')}\``

/** The checks of a failure row: the name of one, or how many and each name on a line of its own. */
function checksCell(names: string[]): string {
  if (names.length === 1) return escapeMarkdown(names[0])
  const shown: string[] = []
  let length = 0
  for (const name of names) {
    const cell = escapeMarkdown(name, 200)
    if (length + cell.length > MAX_CHECKS_CELL) break
    shown.push(cell)
    length += cell.length + 4
  }
  const rest = names.length > shown.length ? [`… and ${names.length - shown.length} more in report.html`] : []
  return [`**${names.length} checks:**`, ...shown, ...rest].join('<br>')
}

export function markdownSummary(result: RunResult): string {
  const lines: string[] = []
  const r = result.summary.rules
  const c = result.summary.checks
  const mark = { pass: '✅', fail: '❌', incomplete: '⚠️' }[result.verdict]
  lines.push(`## ${mark} Pet Store categories conformance: ${headline(result)}`)
  lines.push('')
  lines.push(
    `${escapeMarkdown(result.baseUrl)}${result.embeddedServer ? ' (embedded reference server)' : ''} · ${escapeMarkdown(result.startedAt)} · ${seconds(result.durationMs)} · run ${inlineCode(result.runId)}${result.options.seed === undefined ? '' : ` · seed ${inlineCode(String(result.options.seed))}`}${result.traceId ? ` · trace ${inlineCode(result.traceId)}` : ''} · exit code ${result.exitCode}`,
  )
  lines.push('')
  const counts = runCounts(result)
  const known = counts.rules.known > 0
  lines.push(`| rules passed | rules failed | rules not verified | advisory notes |${known ? ' known failures (baseline) |' : ''} checks | requests | records created |`)
  lines.push(`| ---: | ---: | ---: | ---: |${known ? ' ---: |' : ''} --- | ---: | ---: |`)
  lines.push(
    `| ${r.pass} | ${r.fail} | ${r.skip} | ${counts.rules.advisory} |${known ? ` ${counts.rules.known} |` : ''} ${counts.checks.pass} passed, ${c.fail} failed,${known ? ` ${counts.checks.known} known failures,` : ''} ${c.skip} skipped | ${result.summary.requests} | ${result.summary.recordsCreated} |`,
  )
  lines.push('')
  lines.push(`Writes: ${escapeMarkdown(writeMode(result))}.`)
  lines.push('', `Pacing: ${escapeMarkdown(pacing(result))}.`)
  lines.push('', `Waits: ${escapeMarkdown(serverWaits(result))}.`)
  const sampling = samplingLine(result)
  if (sampling) lines.push('', `Rounds: ${escapeMarkdown(sampling)}.`)
  const { unansweredWrites: unanswered, faultAnsweredWrites: faulted, unansweredFound, faultAnsweredFound } = result.summary
  if (unanswered) lines.push('', `POSTs without an answer: ${unanswered}; each may have created a record (results.json lists them in its journal)${foundWords(unansweredFound, unanswered)}.`)
  if (faulted) lines.push('', `${faultAnsweredLabel(result)}: ${faulted}; ${faultAnsweredWords(result)}${foundWords(faultAnsweredFound, faulted)}.`)

  if (result.problems.length > 0) {
    lines.push('', '### Problems during the run', '')
    for (const problem of result.problems.slice(0, MAX_ROWS)) lines.push(`- ${escapeMarkdown(problem.message)}`)
  }

  const faults = faultGroups(result)
  if (faults.length > 0) {
    lines.push('', '### Faults (one cause, several failures)', '')
    for (const f of faults) lines.push(`- ${escapeMarkdown(f.line)}: ${f.rules.map((id) => inlineCode(id)).join(', ')}`)
  }

  const failures = runFailureGroups(result)
  if (failures.length > 0) {
    const total = failures.reduce((sum, g) => sum + g.checks.length, 0)
    const causes = failures.length < total ? ` (${plural(failures.length, 'cause')})` : ''
    lines.push('', `### Failures: ${plural(total, 'check')} in ${plural(r.fail, 'rule')}${causes}`, '')
    lines.push('| rule | failure | checks | expected | actual |')
    lines.push('| --- | --- | --- | --- | --- |')
    for (const { rule, failure, checks } of failures.slice(0, MAX_ROWS)) {
      lines.push(
        `| ${inlineCode(rule.id)} §${escapeMarkdown(rule.section)} | ${inlineCode(failure.code)} ${markdownValue(failure.message)}${recurrenceWords(checks) ? ` (${escapeMarkdown(recurrenceWords(checks))})` : ''}${baselineWords(checks) ? ` (baseline: ${escapeMarkdown(baselineWords(checks), 400)})` : ''} | ${checksCell(checks.map((c) => c.name))} | ${markdownValue(failure.expected)} | ${markdownValue(failure.actual)} |`,
      )
    }
    if (failures.length > MAX_ROWS) {
      const rest = failures.slice(MAX_ROWS).reduce((sum, g) => sum + g.checks.length, 0)
      lines.push('', `… and ${plural(failures.length - MAX_ROWS, 'more failure')} (${plural(rest, 'check')}): see report.html.`)
    }
    const legend = valueLegend(failures.slice(0, MAX_ROWS).flatMap((g) => [g.failure.message, g.failure.expected, g.failure.actual]))
    if (legend) lines.push('', `Shown by a marker in the table: ${markdownLine(legend, 2000)}.`)
    const first = failures.flatMap((g) => g.checks).find((check) => check.reproduce.length > 0)
    if (first) {
      lines.push('', `Reproduce the first failure (${escapeMarkdown(first.name)}), ${reproduceKeyMarkdown(result)}:`, '')
      lines.push(fenced(first.reproduce[first.reproduce.length - 1], 'sh'))
    }
  }

  if (result.baseline) {
    const b = result.baseline
    lines.push('', '### Known failures (baseline)', '', escapeMarkdown(baselineLine(b)), '')
    // what asks for a change of the file first: a stale entry below 30 known failures went unread
    for (const e of b.expired) lines.push(`- expired ${escapeMarkdown(e.expires ?? '')}, excused nothing: ${inlineCode(e.rule)} ${escapeMarkdown(entryCheck(e))}`)
    for (const e of b.fixed) lines.push(`- fixed (no longer failing): ${inlineCode(e.rule)} ${escapeMarkdown(entryCheck(e))}`)
    for (const e of b.noSuchCheck ?? []) lines.push(`- no such check in this version of the suite (renamed or removed?): ${inlineCode(e.rule)} ${escapeMarkdown(entryCheck(e))}`)
    for (const line of problemEntryLines(b)) lines.push(`- ${escapeMarkdown(line)}`)
    for (const k of b.known.slice(0, MAX_ROWS)) lines.push(`- ${inlineCode(k.rule)} ${inlineCode(k.code)} ${escapeMarkdown(entryCheck(k))}: ${escapeMarkdown(k.reason)}`)
    if (b.known.length > MAX_ROWS) lines.push(`- … and ${b.known.length - MAX_ROWS} more known failures: results.json lists each (baseline.known)`)
  }

  const groups = notVerifiedByReason(result)
  const partial = partlyVerified(result)
  if (groups.length > 0 || partial.length > 0) {
    // as report.html says it: the table above counts rules none of whose checks ran; a rule judged
    // by fewer checks passed or failed on those, and is listed apart, not as a rule not verified
    lines.push('', '### Not verified', '')
    if (groups.length > 0) lines.push('This run says nothing about these rules: none of their checks ran.', '')
    else lines.push('Every rule was verified by at least one check.', '')
    for (const group of groups) lines.push(`- ${escapeMarkdown(group.reason)}: ${group.rules.map((rule) => inlineCode(rule.id)).join(', ')}`)
    if (partial.length > 0) lines.push(...(groups.length > 0 ? [''] : []), 'Verified by fewer checks than a full run:', '')
    for (const p of partial) lines.push(`- ${inlineCode(p.rule.id)}: ${plural(p.skipped, 'check')} skipped (${escapeMarkdown(p.reasons.join('; '))})`)
  }

  if (result.observed) {
    lines.push('', '### Observed where the document is silent (notes, not verdicts)', '')
    for (const line of observedLines(result.observed)) lines.push(`- ${escapeMarkdown(line)}`)
  }

  lines.push('', `### Records created: ${result.ledger.length}`, '')
  if (result.ledger.length === 0) {
    const inDoubt = (result.summary.unansweredWrites ?? 0) + (result.summary.faultAnsweredWrites ?? 0)
    lines.push(result.options.readOnly ? 'None: the run was read-only.' : result.summary.faultAnsweredWrites ? `None that the server answered as created; ${inDoubt} POSTs got no answer or a server fault, and each may have created one (see above).` : inDoubt ? `None that the server answered; ${inDoubt} POSTs got no answer, and each may have created one (see above).` : 'None.')
  } else {
    lines.push(`The interface has no delete; these stay. ${escapeMarkdown(WHERE_THE_PREFIX_IS.replace(/^n/, 'N'), 200)} ${escapeMarkdown(recordPrefixWords(result), 1000)}.`, '')
    lines.push('| id | name | status |')
    lines.push('| --- | --- | ---: |')
    for (const entry of result.ledger.slice(0, MAX_ROWS)) lines.push(`| ${escapeMarkdown(entry.id)} | ${escapeMarkdown(entry.name)} | ${escapeMarkdown(ledgerStatus(entry))} |`)
    if (result.ledger.length > MAX_ROWS) lines.push('', `… and ${result.ledger.length - MAX_ROWS} more: see results.json.`)
  }
  const gained = unprefixedNewWords(result)
  if (gained) lines.push('', `${escapeMarkdown(gained, 2000)}.`)
  const posts = postsSent(result)
  if (!result.options.readOnly) {
    // what was written to the deployment, each POST that went out, not only those that created a record
    lines.push('', `### POSTs sent: ${posts.length}`, '')
    if (posts.length > 0) lines.push('| # | probe | answer | body sent |', '| ---: | --- | ---: | --- |')
    posts.slice(0, MAX_ROWS).forEach((e, i) => lines.push(`| ${i + 1} | ${escapeMarkdown(e.probe ?? '')} | ${escapeMarkdown(postAnswer(e))} | ${escapeMarkdown(e.body ?? (e.bodyBase64 !== undefined ? '(bytes: see the journal)' : '(no body)'), 120)} |`))
    if (posts.length > MAX_ROWS) lines.push('', `… and ${posts.length - MAX_ROWS} more: see report.html.`)
  }
  lines.push('', 'Full report: `report.html` (open in a browser); `junit.xml` for test tabs; `results.json` for scripts.')
  return lines.join('\n') + '\n'
}
