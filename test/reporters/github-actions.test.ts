/**
 * GitHub Actions: workflow-command escaping as actions/toolkit does it, at most ten annotations of
 * a kind, the terminal summary shielded by stop-commands, summary.md appended to the job summary.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { annotations, ANNOTATIONS_PER_KIND, escapeData, escapeProperty, githubActionsOutput, STEP_SUMMARY_BUDGET, withinStepSummaryBudget, workflowCommand } from '../../lib/reporters/github-actions.ts'
import { markdownSummary } from '../../lib/reporters/markdown-summary.ts'
import { terminalSummary } from '../../lib/reporters/terminal-summary.ts'
import { check, everythingFails, oneCauseManyChecks, runResult } from './fixture.ts'

const dir = mkdtempSync(join(tmpdir(), 'conform-gha-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** What the runner makes of a workflow command line: kind, properties and message, unescaped. */
function parseCommand(line: string): { kind: string; properties: Record<string, string>; message: string } {
  const match = /^::([a-z-]+)(?: ([^:]*))?::(.*)$/.exec(line)
  if (!match) throw new Error(`not a workflow command: ${line}`)
  const unescape = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%')
  const properties: Record<string, string> = {}
  for (const pair of (match[2] ?? '').split(',').filter(Boolean)) {
    const at = pair.indexOf('=')
    properties[pair.slice(0, at)] = unescape(pair.slice(at + 1))
  }
  return { kind: match[1], properties, message: unescape(match[3]) }
}

describe('workflow-command escaping', () => {
  test.each([
    ['100%', '100%25', '100%25'],
    ['a\r\nb', 'a%0D%0Ab', 'a%0D%0Ab'],
    ['k: v, w', 'k: v, w', 'k%3A v%2C w'],
    ['%0A', '%250A', '%250A'],
  ])('%j → data %j, property %j', (text, data, property) => {
    expect(escapeData(text)).toBe(data)
    expect(escapeProperty(text)).toBe(property)
  })

  test('a command carrying hostile text is one line that parses back to the text', () => {
    const title = 'rule: a, b\n::error::x'
    const message = 'line 1\nline 2 %0A ::warning::y\r\n'
    const line = workflowCommand('error', title, message)
    expect(line.split('\n')).toHaveLength(1)
    expect(parseCommand(line)).toEqual({ kind: 'error', properties: { title }, message })
  })
})

describe('annotations', () => {
  test(`one ::error per failing rule, with expected/actual and curl; never more than ${ANNOTATIONS_PER_KIND}`, () => {
    const lines = annotations(everythingFails())
    const errors = lines.map(parseCommand).filter((c) => c.kind === 'error')
    expect(errors).toHaveLength(ANNOTATIONS_PER_KIND)
    expect(errors[0].properties.title).toBe('Conformance run problem')
    expect(errors[1].properties.title).toBe('list-returns-200 (§4.1): 10 of 10 checks failed')
    expect(errors[1].message).toMatch(/\nexpected: status 400\nactual: {3}status 201 /)
    expect(errors[1].message).toContain('reproduce: curl -i -X POST')
    expect(errors[1].message).toContain('… and 9 other causes (9 failed checks) of this rule in report.html')
    expect(errors[ANNOTATIONS_PER_KIND - 1].properties.title).toMatch(/^\d+ more failing rules$/)
  })

  test("a failure's annotation says whether it recurred on a second probe (deterministic or intermittent)", () => {
    const failure = { code: 'SERVER_ERROR' as const, message: 'POST answered 502, expected 201', expected: 'status 201', actual: 'status 502' }
    const result = runResult((id) => (id === 'create-returns-201' ? [check('flaky', 'fail', { failure, recurrence: { attempts: 2, failures: 1, kind: 'intermittent' } })] : [check('x', 'pass')]))
    const error = annotations(result).find((line) => line.startsWith('::error title=create-returns-201'))
    expect(error).toContain('%0Aactual:   status 502%0Arecurred: intermittent: failed 1 of 2 probes')
  })

  test('one cause of many checks is said once, with every check named', () => {
    const [error] = annotations(oneCauseManyChecks(29)).map(parseCommand)
    expect(error.properties.title).toBe('error-status-matches-http (§2): 30 of 32 checks failed')
    const lines = error.message.split('\n')
    expect(lines.slice(0, 3)).toEqual(['29 checks: [ERROR_STATUS_MISMATCH] the Error record says status 400 in a 401 response', 'expected: "status": 401', 'actual:   "status": 400'])
    expect(lines[3].split('; ')).toHaveLength(29)
    expect(lines.at(-1)).toBe('… and 1 other cause (1 failed check) of this rule in report.html')
  })

  test('rules not verified become one ::notice; advisory notes ::warning', () => {
    const result = runResult(
      (id) =>
        id.startsWith('create')
          ? [check('c', 'skip')]
          : id === 'advisory-www-authenticate'
            ? [check('w', 'warn', { notes: ['401 without a WWW-Authenticate header'] })]
            : [check('p', 'pass')],
      { readOnly: true },
    )
    const commands = annotations(result).map(parseCommand)
    expect(commands.filter((c) => c.kind === 'error')).toHaveLength(0)
    const notice = commands.find((c) => c.kind === 'notice')!
    expect(notice.properties.title).toBe('8 rules not verified by this run')
    expect(notice.message).toMatch(/^--read-only sends no request that could create a record: create-returns-201, /)
    expect(commands.find((c) => c.kind === 'warning')?.message).toBe('401 without a WWW-Authenticate header')
  })
})

describe('githubActionsOutput', () => {
  const result = everythingFails()
  const terminal = terminalSummary(result, ['reports/report.html'])
  const markdown = markdownSummary(result)

  test('outside GitHub Actions the terminal summary is printed as it is, and no file is touched', () => {
    const file = join(dir, 'untouched.md')
    expect(githubActionsOutput(result, terminal, markdown, { GITHUB_STEP_SUMMARY: file })).toEqual({ stdout: terminal })
    expect(() => readFileSync(file)).toThrow()
  })

  test('under GitHub Actions: annotations, then the summary between ::stop-commands:: and its token', () => {
    const { stdout } = githubActionsOutput(result, terminal, markdown, { GITHUB_ACTIONS: 'true' })
    const lines = stdout.trimEnd().split('\n')
    const stop = lines.findIndex((l) => l.startsWith('::stop-commands::'))
    const token = lines[stop].slice('::stop-commands::'.length)
    expect(token).toMatch(/^conform-[0-9a-f]{24}$/)
    expect(lines.at(-1)).toBe(`::${token}::`)
    expect(lines.slice(0, stop).every((l) => l.startsWith('::error ') || l.startsWith('::notice ') || l.startsWith('::warning '))).toBe(true)
    expect(lines.slice(stop + 1, -1).join('\n') + '\n').toBe(terminal)
  })

  test('appends summary.md to $GITHUB_STEP_SUMMARY (appends: earlier steps keep theirs)', () => {
    const file = join(dir, 'step-summary.md')
    writeFileSync(file, '# earlier step\n')
    githubActionsOutput(result, terminal, markdown, { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: file })
    expect(readFileSync(file, 'utf8')).toBe(`# earlier step\n${markdown}\n`)
  })

  test('a job summary that cannot be written is a warning, not a crash', () => {
    const out = githubActionsOutput(result, terminal, markdown, { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(dir, 'no/such/dir/x.md') })
    expect(out.stdout.trimEnd().split('\n').at(-1)).toMatch(/^::warning title=Job summary::could not append/)
  })

  test('redacts what it writes', () => {
    const file = join(dir, 'redacted.md')
    const { stdout } = githubActionsOutput(result, 'key sk-123\n', 'summary sk-123\n', { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: file }, (t) =>
      t.replaceAll('sk-123', '[REDACTED]'),
    )
    expect(stdout).not.toContain('sk-123')
    expect(readFileSync(file, 'utf8')).toBe('summary [REDACTED]\n\n')
  })

  test("a summary past GitHub's budget in UTF-8 bytes (servers' CJK text) is cut at a line's end, whole characters, and says where the rest is", () => {
    // 200,000 characters: under the budget as a string's length, 600,000 bytes as UTF-8
    const row = `| ${'漢'.repeat(97)} |\n`
    const markdown = '# head\n' + row.repeat(2_000)
    expect(markdown.length).toBeLessThan(STEP_SUMMARY_BUDGET)
    const cut = withinStepSummaryBudget(markdown, 'see report.html')
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(STEP_SUMMARY_BUDGET + 100)
    expect(cut).not.toContain('\uFFFD')
    const [kept, note] = cut.split('\n\n')
    expect(`${kept}\n`).toBe('# head\n' + row.repeat((kept!.split('\n').length - 1)))
    expect(note).toBe("… cut to GitHub's size for a job summary: see report.html\n")
    expect(withinStepSummaryBudget('# short\n', 'x')).toBe('# short\n')
  })
})
