/** The one-screen summary every run ends with: rules, failures with evidence, counts, reports. */
import type { RunResult, Status } from './run-result.ts'

const MARK: Record<Status, string> = { pass: '✓', fail: '✗', skip: '-', warn: '!' }
const MAX_FAILED_CHECKS_SHOWN = 3
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

export function terminalSummary(result: RunResult, reportFiles: string[]): string {
  const lines: string[] = []
  const where = result.embeddedServer ? `${result.baseUrl} (embedded reference server)` : result.baseUrl
  lines.push(`Pet Store categories conformance · ${where} · run ${result.runId}`)
  const width = Math.max(...result.rules.map((r) => r.id.length))
  for (const rule of result.rules) {
    const checks = rule.checks
    const failed = checks.filter((c) => c.status === 'fail')
    const counted =
      rule.status === 'fail'
        ? `${failed.length} of ${checks.length} checks failed`
        : rule.status === 'skip'
          ? `skipped: ${checks[0]?.skipReason ?? 'not run'}`
          : `${plural(checks.filter((c) => c.status !== 'skip').length, 'check')}${checks.some((c) => c.status === 'skip') ? `, ${checks.filter((c) => c.status === 'skip').length} skipped` : ''}`
    const level = rule.level === 'advisory' ? ' (advisory)' : ''
    lines.push(`  ${MARK[rule.status]} ${rule.id.padEnd(width)}  ${counted}${level}`)
    for (const check of failed.slice(0, MAX_FAILED_CHECKS_SHOWN)) {
      lines.push(`      ${check.name}`)
      lines.push(`        ${check.failure?.message ?? 'failed'}`)
      lines.push(`        expected: ${check.failure?.expected ?? '-'}`)
      lines.push(`        actual:   ${check.failure?.actual ?? '-'}`)
      if (check.reproduce[0]) lines.push(`        reproduce: ${check.reproduce[check.reproduce.length - 1]}`)
    }
    if (failed.length > MAX_FAILED_CHECKS_SHOWN) lines.push(`      … and ${failed.length - MAX_FAILED_CHECKS_SHOWN} more in the reports`)
    if (rule.status === 'warn') {
      for (const note of [...new Set(checks.flatMap((c) => c.notes))].slice(0, 2)) lines.push(`      note: ${note}`)
    }
  }
  for (const problem of result.problems) lines.push(`  ✗ ${problem}`)
  const r = result.summary.rules
  lines.push('')
  lines.push(
    `Rules: ${r.pass} passed, ${r.fail} failed, ${r.skip} skipped, ${r.warn} with advisory notes · checks: ${result.summary.checks.pass + result.summary.checks.warn} passed, ${result.summary.checks.fail} failed, ${result.summary.checks.skip} skipped · ${result.summary.requests} requests · ${(result.durationMs / 1000).toFixed(1)} s`,
  )
  if (result.notVerified.length > 0) {
    lines.push(`Not verified: ${result.notVerified.map((n) => n.id).join(', ')} (${result.notVerified[0].reason})`)
  }
  if (result.ledger.length > 0) lines.push(`Records created: ${result.ledger.length} (names start with conform-${result.runId}-; listed in results.json)`)
  if (reportFiles.length > 0) lines.push(`Reports: ${reportFiles.join(', ')}`)
  lines.push(result.verdict === 'pass' ? 'Verdict: PASS (exit 0)' : 'Verdict: FAIL (exit 1)')
  return lines.join('\n') + '\n'
}
