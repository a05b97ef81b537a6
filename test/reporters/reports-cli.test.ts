/**
 * The reports of a real failing run, written by the real command: all four files, the key in none
 * of them, junit.xml well-formed, and under GitHub Actions the annotations and the job summary.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { MAX_LINES } from '../../lib/reporters/terminal-summary.ts'
import { failingRun, HOSTILE_HEADER, type FailingRun } from './failing-run.ts'
import { elements, parseXml } from './xml.ts'

const dir = mkdtempSync(join(tmpdir(), 'conform-gha-run-'))
const stepSummary = join(dir, 'step-summary.md')
let failing: FailingRun

beforeAll(async () => {
  failing = await failingRun({ env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: stepSummary } })
}, 120_000)
afterAll(async () => {
  await failing?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('reports of a failing run', () => {
  test('exit 1, and all four reports written, beside the journal', () => {
    expect(failing.run.code, failing.run.stderr).toBe(1)
    expect(Object.keys(failing.run.files).sort()).toEqual(['journal.ndjson', 'junit.xml', 'report.html', 'results.json', 'summary.md'])
  })

  test('the key is in no report, no output and no job summary, though the server echoed it back', () => {
    const everything = { ...failing.run.files, stdout: failing.run.stdout, stderr: failing.run.stderr, 'step summary': readFileSync(stepSummary, 'utf8') }
    for (const [name, text] of Object.entries(everything)) expect(text, name).not.toContain(failing.key)
    expect(failing.run.files['report.html']).toContain('set-cookie: [hidden by the report')
  })

  test('junit.xml is well-formed and reports every failed check of results.json', () => {
    const root = parseXml(failing.run.files['junit.xml'])
    const failed = failing.run.results!.rules.flatMap((r) => r.checks.filter((c) => c.status === 'fail').map((c) => `${r.id} ${c.name}`))
    const reported = elements(root, 'testcase')
      .filter((t) => t.children.some((c) => c.name === 'failure'))
      .map((t) => `${t.attributes.classname} ${t.attributes.name}`)
    expect(reported.sort()).toEqual(failed.sort())
    expect(failed.length).toBeGreaterThan(0)
  })

  test('check names are unique within each rule, so that CI test tabs do not merge test cases', () => {
    for (const rule of failing.run.results!.rules) {
      const names = rule.checks.map((c) => c.name)
      expect(new Set(names).size, rule.id).toBe(names.length)
    }
  })

  test('report.html escapes the hostile header the server sent', () => {
    const html = failing.run.files['report.html']
    expect(html).not.toMatch(/<script|<img/)
    expect(html).toContain('x-hostile: &lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;')
  })

  test('under GitHub Actions: ::error annotations first, the summary shielded from command processing', () => {
    const lines = failing.run.stdout.trimEnd().split('\n')
    const stop = lines.findIndex((l) => l.startsWith('::stop-commands::'))
    expect(stop).toBeGreaterThan(0)
    const token = lines[stop].slice('::stop-commands::'.length)
    expect(lines.at(-1)).toBe(`::${token}::`)
    const errors = lines.slice(0, stop).filter((l) => l.startsWith('::error title='))
    expect(errors.length).toBe(failing.run.results!.summary.rules.fail)
    expect(errors.some((l) => l.startsWith('::error title=create-rejects-missing-name (§4.2%2C 7)%3A '))).toBe(true)
    // the terminal summary between them is still one screen
    expect(lines.length - stop - 2).toBeLessThanOrEqual(MAX_LINES)
    // the forged command in the server's header only ever appears shielded or escaped
    for (const line of lines.slice(0, stop)) expect(line).not.toContain('::error title=forged')
    expect(HOSTILE_HEADER).toContain('::error title=forged')
  })

  test('summary.md is written, and appended as the job summary', () => {
    const markdown = failing.run.files['summary.md']
    expect(markdown).toMatch(/^## ❌ Pet Store categories conformance: FAIL: \d+ of \d+ rules failed/)
    expect(markdown).toContain('| `create-rejects-missing-name` §4.2, 7 |')
    expect(readFileSync(stepSummary, 'utf8')).toBe(markdown + '\n')
  })
})
