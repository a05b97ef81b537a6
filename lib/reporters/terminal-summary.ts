/**
 * The one-screen summary every run ends with: one line per rule, the first failures with
 * expected/actual and a curl line, counts, what was not verified, the records created, where the
 * reports are and the verdict. However many checks fail it stays within MAX_LINES lines of at
 * most MAX_WIDTH characters (a curl line may be longer, up to MAX_CURL_WIDTH, to stay usable), and
 * server text cannot move the cursor or start a line: control characters are shown as escapes.
 */
import { basename, dirname } from 'node:path'
import type { RunResult, Status } from './run-result.ts'
import { failedChecks, notVerifiedByReason, partlyVerified, plural, reasonText, seconds, skipReasons } from './wording.ts'

const MARK: Record<Status, string> = { pass: '✓', fail: '✗', skip: '-', warn: '!' }
/** Failed checks shown with expected/actual in full; later failing rules get one line each. */
const DETAILED_FAILURES = 3
export const MAX_LINES = 50
export const MAX_WIDTH = 160
const MAX_CURL_WIDTH = 400

/** One line of text safe for a terminal: control and bidi characters escaped, cut to `max`. */
export function terminalText(text: string, max = MAX_WIDTH): string {
  const line = String(text).replace(/[\x00-\x1F\x7F-\x9F\u202A-\u202E\u2066-\u2069]/g, (c) => {
    if (c === '\n') return '\\n'
    if (c === '\r') return '\\r'
    if (c === '\t') return '\\t'
    const code = c.charCodeAt(0)
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
  })
  return [...line].length > max ? [...line].slice(0, max - 1).join('') + '…' : line
}

/** `prefix item, item, …` wrapped greedily into lines of at most `width` characters. */
function wrapList(prefix: string, items: string[], width = MAX_WIDTH): string[] {
  const lines: string[] = []
  let current = prefix
  for (const [i, item] of items.entries()) {
    const piece = item + (i < items.length - 1 ? ',' : '')
    if (current !== prefix && current.length + 1 + piece.length > width) {
      lines.push(current)
      current = '   '
    }
    current += ' ' + piece
  }
  return [...lines, current]
}

/** Where the reports are: report.html first, since that is the one to open. */
function whereReportsAre(reportFiles: string[]): string {
  const html = reportFiles.find((f) => basename(f) === 'report.html')
  if (!html) return `Reports: ${reportFiles.join(', ')}`
  const others = reportFiles.filter((f) => f !== html)
  const sameDir = others.every((f) => dirname(f) === dirname(html))
  return `Reports: ${html} (open in a browser); ${sameDir ? `${others.map((f) => basename(f)).join(', ')} beside it` : others.join(', ')}`
}

export function terminalSummary(result: RunResult, reportFiles: string[]): string {
  const head: string[] = []
  const where = result.embeddedServer ? `${result.baseUrl} (embedded reference server)` : result.baseUrl
  head.push(terminalText(`Pet Store categories conformance · ${where} · run ${result.runId}`, MAX_WIDTH))
  if (result.options.readOnly) head.push('Read-only run (--read-only): no POST sent, so the rules about creating are not verified.')

  // the end of the summary, always shown whole
  const tail: string[] = []
  for (const problem of result.problems.slice(0, 3)) tail.push(terminalText(`  ✗ ${problem}`))
  if (result.problems.length > 3) tail.push(`  … and ${result.problems.length - 3} more problems in the reports`)
  const r = result.summary.rules
  const c = result.summary.checks
  tail.push('')
  tail.push(
    `Rules: ${r.pass} passed, ${r.fail} failed, ${r.skip} not verified, ${r.warn} with advisory notes · checks: ${c.pass + c.warn} passed, ${c.fail} failed, ${c.skip} skipped · ${plural(result.summary.requests, 'request')} · ${seconds(result.durationMs)}`,
  )
  const groups = notVerifiedByReason(result)
  if (groups.length > 0) {
    tail.push(`Not verified (no check of these rules ran):`)
    for (const group of groups.slice(0, 3)) tail.push(...wrapList(terminalText(`  ${group.reason}:`, 100), group.rules.map((rule) => rule.id)))
    if (groups.length > 3) tail.push(`  … and ${plural(groups.reduce((n, g) => n + g.rules.length, 0) - groups.slice(0, 3).reduce((n, g) => n + g.rules.length, 0), 'more rule')}: see the reports`)
  }
  const partial = partlyVerified(result)
  if (partial.length > 0) {
    const skipped = partial.reduce((sum, p) => sum + p.skipped, 0)
    const reasons = skipReasons(partial.flatMap((p) => p.rule.checks))
    const most = reasons[0] ? `; most often: ${reasons[0].reason}` : ''
    tail.push(terminalText(`Partly verified: ${plural(partial.length, 'rule')} judged without ${plural(skipped, 'of their checks', 'of their checks')}${most}`))
  }
  if (result.ledger.length > 0) {
    tail.push(`Records created: ${result.ledger.length} (names start with conform-${result.runId}-; listed in the reports)`)
  } else if (!result.options.readOnly) {
    tail.push('Records created: none')
  }
  if (reportFiles.length > 0) tail.push(terminalText(whereReportsAre(reportFiles), 400))
  tail.push(result.verdict === 'pass' ? 'Verdict: PASS (exit 0)' : 'Verdict: FAIL (exit 1)')

  // the rule lines, and as many failure details as the screen has room for
  const width = Math.max(0, ...result.rules.map((rule) => rule.id.length))
  const totalFailed = result.rules.reduce((sum, rule) => sum + failedChecks(rule).length, 0)
  let room = MAX_LINES - head.length - tail.length - result.rules.length - (totalFailed > 0 ? 1 : 0)
  let detailed = 0
  let mentioned = 0
  const body: string[] = []
  for (const rule of result.rules) {
    const checks = rule.checks
    const failed = failedChecks(rule)
    const skipped = checks.filter((ch) => ch.status === 'skip').length
    const counted =
      rule.status === 'fail'
        ? `${failed.length} of ${checks.length} checks failed`
        : rule.status === 'skip'
          ? `not verified: ${reasonText(checks.find((ch) => ch.skipReason)?.skipReason)}`
          : `${plural(checks.length - skipped, 'check')}${skipped > 0 ? `, ${skipped} skipped` : ''}`
    const level = rule.level === 'advisory' ? ' (advisory)' : ''
    body.push(terminalText(`  ${MARK[rule.status]} ${rule.id.padEnd(width)}  ${counted}${level}`))
    if (rule.status === 'warn' && room > 0) {
      const note = [...new Set(checks.flatMap((ch) => ch.notes))][0]
      if (note) (body.push(terminalText(`      note: ${note}`)), room--)
    }
    for (const check of failed) {
      const curl = check.reproduce[check.reproduce.length - 1]
      const block = [
        `      ${check.name}`,
        `        ${check.failure?.message ?? 'failed'}`,
        `        expected: ${check.failure?.expected ?? '-'}`,
        `        actual:   ${check.failure?.actual ?? '-'}`,
        ...(curl ? [`        reproduce: ${curl}`] : []),
      ]
      if (detailed < DETAILED_FAILURES && room >= block.length) {
        body.push(...block.map((line) => terminalText(line, line.startsWith('        reproduce: ') ? MAX_CURL_WIDTH : MAX_WIDTH)))
        room -= block.length
        detailed++
        mentioned++
      } else if (check === failed[0] && room >= 1) {
        body.push(terminalText(`      ${check.name}: ${check.failure?.message ?? 'failed'}`))
        room--
        mentioned++
      }
    }
  }
  if (totalFailed > mentioned) body.push(`  … ${plural(totalFailed - mentioned, 'more failed check')}: each with expected, actual and curl in the reports`)
  return [...head, ...body, ...tail].join('\n') + '\n'
}
