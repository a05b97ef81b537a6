/**
 * A baseline entry whose failure no longer happens: the terminal said "1 fixed (no longer failing:
 * remove it, or --update-baseline)" without saying which, where a team that fixed one of two known
 * deviations reads it; only summary.md, report.html and a GitHub Actions warning named it. The
 * terminal names each now (the first five, then how many more).
 */
import { expect, test } from 'vitest'
import { applyBaseline, type BaselineEntry } from '../../lib/result/baseline.ts'
import { terminalSummary } from '../../lib/reporters/terminal-summary.ts'
import { markdownSummary } from '../../lib/reporters/markdown-summary.ts'
import { htmlReport } from '../../lib/reporters/html-report.ts'
import type { FailureDetail } from '../../lib/checks/failure.ts'
import { check, runResult } from './fixture.ts'

const fixedEntry = (rule: string, observed?: string): BaselineEntry => ({ rule, code: 'UNEXPECTED_STATUS', reason: 'OPS-112: the gateway answers 403', ...(observed ? { observed } : {}) })

test('the terminal names the entries that no longer fail, to remove', () => {
  const passing = runResult((id) => [check(`${id} check`, 'pass')])
  const one = applyBaseline(passing, { knownFailures: [fixedEntry('auth-missing-key-401', 'status 403')] }, 'conform-baseline.json', '2026-06-01')
  const text = terminalSummary(one, [])
  expect(text).toContain('Baseline conform-baseline.json: 0 known failures excused; 1 fixed (no longer failing: remove it, or --update-baseline)')
  expect(text).toContain('  fixed, no longer failing (remove it from the baseline): auth-missing-key-401 UNEXPECTED_STATUS › any check of the rule as status 403')
  const rules = ['auth-missing-key-401', 'auth-invalid-key-401', 'list-returns-200', 'create-returns-201', 'create-rejects-missing-name', 'create-rejects-missing-body', 'created-in-list']
  const many = terminalSummary(applyBaseline(passing, { knownFailures: rules.map((r) => fixedEntry(r)) }, 'b.json', '2026-06-01'), [])
  expect(many.match(/^ {2}fixed, no longer failing/gm)).toHaveLength(5)
  expect(many).toContain('  … and 2 more fixed: see summary.md')
})

test('entries of checks this version does not have: the first five named, then how many more, as fixed ones are', () => {
  const passing = runResult((id) => [check(`${id} check`, 'pass')])
  const renamed = Array.from({ length: 7 }, (_, i): BaselineEntry => ({ rule: 'list-returns-200', code: 'UNEXPECTED_STATUS', check: `an old check name ${i}`, reason: 'OPS-113' }))
  const text = terminalSummary(applyBaseline(passing, { knownFailures: renamed }, 'b.json', '2026-06-01'), [])
  expect(text.match(/^ {2}no such check in this version of the suite/gm)).toHaveLength(5)
  expect(text).toContain('  … and 2 more of no such check: see summary.md')
})

test('summary.md and report.html list the entries to remove before the known failures: below 40 of them, a fixed entry went unread', () => {
  const missing: FailureDetail = { code: 'SCHEMA_MISMATCH', message: 'the body is not an Error record', expected: 'an Error record', actual: 'no status', observed: 'body lacks required property "status"' }
  const known: BaselineEntry = { rule: 'error-body-is-error-record', code: 'SCHEMA_MISMATCH', observed: missing.observed, reason: 'API-7' }
  const run = runResult((id) => (id === 'error-body-is-error-record' ? Array.from({ length: 40 }, (_, i) => check(`error check ${i}`, 'fail', { failure: missing })) : [check(`${id} check`, 'pass')]))
  const result = applyBaseline(run, { knownFailures: [known, fixedEntry('auth-missing-key-401', 'status 403')] }, 'b.json', '2026-06-01')
  const md = markdownSummary(result)
  const fixedAt = md.indexOf('- fixed (no longer failing): `auth-missing-key-401`')
  expect(fixedAt).toBeGreaterThan(0)
  expect(fixedAt).toBeLessThan(md.indexOf('error check 0'))
  expect(md).toContain('- … and 10 more known failures: results.json lists each (baseline.known)')
  const html = htmlReport(result)
  expect(html.indexOf('fixed: no longer failing')).toBeLessThan(html.indexOf('error check 0'))
})
