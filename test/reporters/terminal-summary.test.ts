/** The terminal summary stays one screen however much fails, says where the reports are and what was not verified. */
import { describe, expect, test } from 'vitest'
import { MAX_LINES, MAX_WIDTH, terminalSummary, terminalText } from '../../lib/reporters/terminal-summary.ts'
import { check, everythingFails, runResult } from './fixture.ts'

const FILES = ['reports/results.json', 'reports/junit.xml', 'reports/report.html', 'reports/summary.md']

describe('terminal summary', () => {
  test(`stays within ${MAX_LINES} lines, even when every check of every rule fails`, () => {
    const text = terminalSummary(everythingFails(), FILES)
    const lines = text.trimEnd().split('\n')
    expect(lines.length).toBeLessThanOrEqual(MAX_LINES)
    for (const line of lines) {
      const limit = line.trimStart().startsWith('reproduce:') || line.startsWith('Reports:') ? 400 : MAX_WIDTH
      expect([...line].length, line).toBeLessThanOrEqual(limit)
    }
    expect(text).toMatch(/… \d+ more failed checks: each with expected, actual and curl in the reports/)
    expect(text).toContain('Verdict: FAIL (exit 1)')
  })

  test('shows the first failures with expected, actual and a curl line', () => {
    const text = terminalSummary(everythingFails(), FILES)
    expect(text.match(/^ {8}expected: status 400$/gm)?.length).toBeGreaterThan(0)
    expect(text).toMatch(/^ {8}actual: {3}status 201 /m)
    expect(text).toMatch(/^ {8}reproduce: curl -i -X POST .*\$CONFORM_API_KEY/m)
  })

  test('server text cannot move the cursor, colour the terminal or start a line of its own', () => {
    const text = terminalSummary(everythingFails(), FILES)
    expect(text).not.toMatch(/[\x00-\x09\x0B-\x1F\x7F\u202A-\u202E]/)
    expect(text).toContain('\\x1b[31mred')
    for (const line of text.split('\n')) expect(line.trimStart().startsWith('::')).toBe(false)
  })

  test('says where the reports are, report.html first', () => {
    const text = terminalSummary(runResult(), FILES)
    expect(text).toContain('Reports: reports/report.html (open in a browser); results.json, junit.xml, summary.md beside it')
  })

  test('a read-only run says so, and names every rule it did not verify, grouped by why', () => {
    const result = runResult((id) => [check(`${id} check`, id.startsWith('create') ? 'skip' : 'pass')], { readOnly: true })
    const text = terminalSummary(result, FILES)
    expect(text).toContain('Read-only run (--read-only): no POST sent, so the rules about creating are not verified.')
    expect(text).toContain('Not verified (no check of these rules ran):')
    expect(text).toContain('  --read-only sends no request that could create a record:')
    for (const rule of result.rules.filter((r) => r.id.startsWith('create'))) expect(text).toContain(rule.id)
    expect(text).toContain('Verdict: PASS (exit 0)')
  })

  test('terminalText escapes controls and cuts long lines', () => {
    expect(terminalText('a\nb\rc\td\x1b[0m\u202E')).toBe('a\\nb\\rc\\td\\x1b[0m\\u202e')
    expect([...terminalText('x'.repeat(500))].length).toBe(MAX_WIDTH)
  })
})
