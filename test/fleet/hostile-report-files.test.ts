/**
 * `merge` and `compare` read report folders another job wrote: a CI artifact of a run against a
 * hostile server, or a results.json / fleet.json edited by hand. Their text is data in every output
 * (no markup in fleet.md or compare's Markdown, no terminal control or workflow command on a line
 * of the terminal), and a list of deployments past what a fleet holds is refused at once, in one
 * line, before the page of a quarter of a million rows takes the process's memory. A file in such a
 * folder that is no file (a FIFO, a link to /dev/zero) or that links to a secret's file is read as
 * what it is: a report it is not, in bounded time, never quoted.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { compareMain } from '../../lib/cli/compare.ts'
import { mergeMain } from '../../lib/cli/merge.ts'
import { fleetMarkdown } from '../../lib/fleet/fleet-reports.ts'
import { fleetHtml } from '../../lib/fleet/fleet-html.ts'
import { deploymentOf, fleetOf, type RunFile } from '../../lib/fleet/fleet-result.ts'
import { MAX_DEPLOYMENTS, readTargetsFile } from '../../lib/fleet/targets.ts'
import { linkTarget } from '../../lib/fleet/fleet-wording.ts'
import { checkBaseUrl, type Config } from '../../lib/config/config.ts'
import { resultsFileOf } from '../../lib/result/results-file.ts'
import type { RunResult } from '../../lib/result/run-result.ts'
import { check, HOSTILE, oneFailure, runResult } from '../reporters/fixture.ts'
import { applyBaseline } from '../../lib/result/baseline.ts'
import type { FailureDetail } from '../../lib/checks/failure.ts'
import { annotations } from '../../lib/reporters/github-actions.ts'
import { htmlReport } from '../../lib/reporters/html-report.ts'
import { junitReport } from '../../lib/reporters/junit-report.ts'
import { markdownSummary } from '../../lib/reporters/markdown-summary.ts'
import { terminalSummary } from '../../lib/reporters/terminal-summary.ts'
import { runNode } from '../helpers/child-process.ts'
import { CONFORM_BIN, runConformInProcess } from '../helpers/run-conform.ts'

const scratch = mkdtempSync(join(tmpdir(), 'conform-hostile-report-files-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const TOOL = { name: 'petstore-categories-conformance', version: '0.0.0' }
/** Markup, a terminal control or a workflow command that would act, were the text not escaped. */
const ACTIVE = /<script|<img|<b>|\x1b|\u202e|!\[|\]\(http|(^|\n)::/i
/** On a terminal or in a CI log, markup is text: a control character or a line starting with :: acts. */
const TERMINAL_ACTIVE = /[\x00-\x09\x0b-\x1f\x7f\u202e]|(^|\n)::/

function write(name: string, content: unknown): string {
  const path = join(scratch, name)
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

describe("fleet.md of a results.json whose rule's level was edited", () => {
  test('the level is escaped as every other text of the matrix, the row one line', () => {
    const run = runResult() as RunResult
    run.rules[0] = { ...run.rules[0], level: HOSTILE } as unknown as RunResult['rules'][number]
    const fleet = fleetOf([deploymentOf('eu', 'https://a.example/v1', 'eu/report.html', run)], [run as RunFile], TOOL)
    const md = fleetMarkdown(fleet)
    expect(md).not.toMatch(ACTIVE)
    const row = md.split('\n').find((line) => line.startsWith(`| ${run.rules[0].id} `)) as string
    // an unescaped | would add a cell
    expect(row.replace(/\\\|/g, '').split('|')).toHaveLength(4)
  })
})

test("a link to the report of a folder merge was given, named with a parenthesis, is one link in fleet.md", () => {
  const run = runResult() as RunFile
  const fleet = fleetOf([deploymentOf('x-y', 'https://a.example/v1', "../jobs/x)(y!'*/report.html", run)], [run], TOOL)
  expect(linkTarget("../jobs/x)(y!'*/report.html")).toBe('../jobs/x%29%28y%21%27%2A/report.html')
  expect(fleetMarkdown(fleet)).toContain('[report.html](../jobs/x%29%28y%21%27%2A/report.html) |')
})

test('a rule id every object inherits (constructor, __proto__), edited into one results.json, is no verdict of the others', () => {
  const plain = runResult() as RunFile
  const edited = runResult() as RunResult
  for (const id of ['constructor', '__proto__']) edited.rules.push({ ...edited.rules[0], id, checks: [] } as RunResult['rules'][number])
  // as JSON.parse makes it: an own property named __proto__
  const deployments = [deploymentOf('a', 'https://a.example/v1', 'a/report.html', plain), deploymentOf('b', 'https://b.example/v1', 'b/report.html', JSON.parse(JSON.stringify(edited)) as RunFile)]
  const fleet = fleetOf(deployments, [plain, edited as RunFile], TOOL)
  const rows = fleetMarkdown(fleet).split('\n').filter((line) => /^\| (constructor|\\_\\_proto\\_\\_) /.test(line))
  expect(rows).toEqual(['| constructor (must) | — | pass |', '| \\_\\_proto\\_\\_ (must) | — | pass |'])
  expect(fleetHtml(fleet)).not.toMatch(/undefined|native code|\[object/)
})

describe('compare of results.json files holding hostile text', () => {
  const a = write('compare/a.json', resultsFileOf(runResult()))
  const edited = resultsFileOf(oneFailure()) as Record<string, unknown> & { rules: { id: string }[] }
  edited.runId = `r1\n::error title=forged::forged\x1b[2J`
  edited.rules[0].id = HOSTILE
  // what a server said, as its run observed it (a Retry-After value it chose)
  edited.observed = { rateLimits: { retryAfter: ['99999 <b>::error::x</b> ![t](http://evil.example/t.png)'] } }
  const b = write('compare/b.json', edited)

  function compare() {
    let out = ''
    let err = ''
    const output = join(scratch, 'compare', 'comparison.md')
    const code = compareMain([a, b, '--output', output], { out: (t) => void (out += t), err: (t) => void (err += t) }, scratch)
    return { code, out, err, markdown: readFileSync(output, 'utf8') }
  }

  test('the terminal: no control, no line a CI would read as a command', () => {
    const { code, out, err } = compare()
    expect([code, err]).toEqual([1, ''])
    expect(out).not.toMatch(TERMINAL_ACTIVE)
    expect(out).toContain('(run r1↵')
  })

  test('a baseline without its list of known failures (edited): exit 2, one line that says compare read it', () => {
    const noList = write('compare/no-list.json', { ...resultsFileOf(oneFailure()), baseline: {} })
    let err = ''
    expect(compareMain([a, noList], { out: () => {}, err: (t) => void (err += t) }, scratch)).toBe(2)
    expect(err).toMatch(/^conform compare: [^\n]+\n$/)
  })

  test('the Markdown, for a pull request or a job summary: no markup, no link, no image', () => {
    const { markdown } = compare()
    expect(markdown).not.toMatch(ACTIVE)
    expect(markdown).toContain('99999 &lt;b&gt;')
  })
})

describe('a list of deployments past what a fleet holds', () => {
  test(`merge of a fleet.json listing ${MAX_DEPLOYMENTS + 1}: exit 2, one line, nothing written, in well under a second`, () => {
    const deployments = Array.from({ length: MAX_DEPLOYMENTS + 1 }, (_, i) => ({ label: `d${i}`, baseUrl: 'https://a.example/v1' }))
    write('big/fleet/fleet.json', { deployments })
    let out = ''
    let err = ''
    const started = performance.now()
    const code = mergeMain([join(scratch, 'big', 'fleet'), '--report-dir', join(scratch, 'big', 'out')], { out: (t) => void (out += t), err: (t) => void (err += t) }, scratch, {})
    expect(performance.now() - started).toBeLessThan(1000)
    expect([code, out]).toEqual([2, ''])
    expect(err).toMatch(/^conform merge: the folders hold at least 1001 deployments; a fleet holds at most 1000: split it into fleets .*\n$/)
    expect(existsSync(join(scratch, 'big', 'out'))).toBe(false)
  })

  test('--expect past it is refused as no number of deployments a merge takes', () => {
    let err = ''
    expect(mergeMain([scratch, '--report-dir', join(scratch, 'expect-out'), '--expect', String(MAX_DEPLOYMENTS + 1)], { out: () => {}, err: (t) => void (err += t) }, scratch, {})).toBe(2)
    expect(err).toContain(`(at most ${MAX_DEPLOYMENTS})`)
  })

  test(`a targets file listing ${MAX_DEPLOYMENTS + 1}: one line, before any key is read or request sent`, () => {
    const entries = Array.from({ length: MAX_DEPLOYMENTS + 1 }, (_, i) => `  - label: d${i}\n    baseUrl: http://127.0.0.1:${20000 + i}/v1\n    apiKeyEnv: K\n`)
    const path = write('many.yaml', `deployments:\n${entries.join('')}`)
    expect(() => readTargetsFile(path, scratch)).toThrow(/^the targets file .*many\.yaml lists 1001 deployments; a fleet holds at most 1000: split it/)
  })
})

describe('report folders holding what no run writes: a FIFO, a link to /dev/zero or to a secret', () => {
  const fifo = (path: string) => {
    mkdirSync(join(path, '..'), { recursive: true })
    execFileSync('mkfifo', [path])
  }
  // a FIFO blocked the open for ever, past SIGTERM: run as a child, killed if it hangs
  const conform = (...args: string[]) => runNode([CONFORM_BIN, ...args], { killAfterMs: 20_000 })

  test.skipIf(process.platform === 'win32')('merge: a results.json or journal that is a FIFO is a deployment not judged, and the merge ends at once', async () => {
    fifo(join(scratch, 'fifo', 'eu', 'results.json'))
    fifo(join(scratch, 'fifo', 'us', 'journal.ndjson'))
    const run = await conform('merge', join(scratch, 'fifo', 'eu'), join(scratch, 'fifo', 'us'), '--report-dir', join(scratch, 'fifo-out'))
    expect([run.code, run.stderr]).toEqual([2, ''])
    expect(run.exitedAt - run.spawnedAt).toBeLessThan(15_000)
    expect(run.stdout).toContain('eu/results.json: it is no regular file (a pipe or a device), which a report always is')
    expect(run.stdout).toMatch(/NOT JUDGED {2}us /)
  }, 30_000)

  // a link to /dev/zero took 16 GB and 76 s before the process died (std::bad_alloc): a FIFO shows the same read without the cost, should it come back
  test.skipIf(process.platform === 'win32')("compare: a folder whose fleet.json is a FIFO is read as no fleet's, at once", async () => {
    fifo(join(scratch, 'fifo-fleet', 'fleet.json'))
    const run = await conform('compare', join(scratch, 'fifo-fleet'), join(scratch, 'fifo-fleet'))
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^conform compare: cannot read .*fifo-fleet\/results\.json: no such file\n$/)
  }, 30_000)

  test.skipIf(process.platform === 'win32')("merge and compare: a results.json linked to a secret's file never quote it", () => {
    const secret = write('secret.txt', 'AKIAIOSFODNN7EXAMPLE')
    mkdirSync(join(scratch, 'linked', 'eu'), { recursive: true })
    symlinkSync(secret, join(scratch, 'linked', 'eu', 'results.json'))
    let out = ''
    let err = ''
    const io = { out: (t: string) => void (out += t), err: (t: string) => void (err += t) }
    expect(mergeMain([join(scratch, 'linked', 'eu'), '--report-dir', join(scratch, 'linked-out')], io, scratch, {})).toBe(2)
    expect(compareMain([join(scratch, 'linked', 'eu'), join(scratch, 'linked', 'eu')], io, scratch)).toBe(2)
    const written = readdirSync(join(scratch, 'linked-out')).map((file) => readFileSync(join(scratch, 'linked-out', file), 'utf8'))
    for (const text of [out, err, ...written]) expect(text).not.toContain('AKIAIOSFODNN')
    expect(err).toContain('results.json: Unexpected token \'A\': it is not valid JSON')
  })

  test('merge: a results.json cut short (an upload interrupted) says what it may be and what to do, not V8\'s words alone', () => {
    const full = JSON.stringify(resultsFileOf(runResult()))
    mkdirSync(join(scratch, 'cut', 'eu'), { recursive: true })
    writeFileSync(join(scratch, 'cut', 'eu', 'results.json'), full.slice(0, Math.floor(full.length / 2)))
    expect(mergeMain([join(scratch, 'cut', 'eu'), '--report-dir', join(scratch, 'cut-out')], { out: () => {}, err: () => {} }, scratch, {})).toBe(2)
    const fleet = JSON.parse(readFileSync(join(scratch, 'cut-out', 'fleet.json'), 'utf8')) as { deployments: { reason?: string }[] }
    expect(fleet.deployments[0]?.reason).toMatch(/results\.json: .*JSON.*: not JSON as a run writes it \(cut short by an upload or a full disk, or edited by hand\?\): run that deployment's job again, or upload its whole report folder$/)
  })
})

test.each([
  ['a line break and a forged workflow command', 'x\n::error::forged', '"x\\n::error::forged"'],
  ['terminal controls a pasted value may carry', '\r\x1b\x07petstore.example/v1', '"\\r\\u001b\\u0007petstore.example/v1"'],
  ['a right-to-left override', 'petstore.example/v1\u202e', '"petstore.example/v1\\u202e"'],
])('a --base-url holding %s is quoted as escaped text, on one line', (_, raw, shown) => {
  expect(() => checkBaseUrl({ baseUrl: raw } as Config, '--base-url')).toThrow(`--base-url ${shown} is not a URL with a scheme`)
})

describe("an option's value holding a line break and an escape sequence (a CI variable pasted with them)", () => {
  const pasted = 'a\n::error::forged\x1b[2J'
  test.each([
    [['--base-url', 'http://127.0.0.1:9/v1', '--timeout', pasted]],
    [['--base-url', 'http://127.0.0.1:9/v1', '--rule', pasted]],
    [['--base-url', 'http://127.0.0.1:9/v1', '--base-url', 'http://127.0.0.1:8/v1', '--env', pasted]],
  ])('%j: exit 2 and one line that quotes it as visible text', async (argv) => {
    const run = await runConformInProcess(argv, { env: { CONFORM_API_KEY: 'pasted-option-key-1' } })
    run.cleanup()
    expect(run.code).toBe(2)
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(run.stderr).not.toMatch(TERMINAL_ACTIVE)
    expect(run.stderr).toContain('a↵::error::forged⟨ESC⟩[2J')
  })
})

test("a baseline entry's reason, quoted in the note of a failure near it, is data in every report", () => {
  const plain: FailureDetail = { code: 'UNEXPECTED_STATUS', message: 'POST answered 422, expected 400', expected: 'status 400', actual: 'status 422' }
  const run = runResult((id) => (id === 'create-rejects-missing-name' ? [check('empty object → 400', 'fail', { failure: plain }), check('no name → 400', 'fail', { failure: plain })] : [check(`${id} check`, 'pass')]))
  const result = applyBaseline(run, { knownFailures: [{ rule: 'create-rejects-missing-name', code: 'SERVER_ERROR', check: 'no name → 400', reason: HOSTILE }] }, 'conform-baseline.json', '2026-06-01')
  expect(result.rules.flatMap((r) => r.checks).some((c) => c.baselineNote?.includes('forged annotation'))).toBe(true)
  expect(markdownSummary(result)).not.toMatch(ACTIVE)
  expect(htmlReport(result)).not.toMatch(/<script|<img|\x1b|\u202e/)
  expect(terminalSummary(result, [])).not.toMatch(TERMINAL_ACTIVE)
  for (const line of annotations(result)) expect(line).not.toMatch(/[\r\n\x1b]/)
  expect(junitReport(result)).not.toMatch(/\x1b|<script/)
})

describe('a label with a character that reorders the line (RLO), as a folder name merge reads or a targets file gives', () => {
  const OVERRIDE = '\u202e'
  test('merge: every output shows it marked once (⟨RLO⟩), never the override itself nor the marker marked again (⟨U+27E8⟩RLO⟩)', () => {
    const dir = join(scratch, 'rlo-folders', `eu${OVERRIDE}lmth.exe`)
    mkdirSync(dir, { recursive: true })
    const out = join(scratch, 'rlo-out')
    let stdout = ''
    expect(mergeMain([dir, '--report-dir', out], { out: (t) => void (stdout += t), err: () => undefined }, scratch, { GITHUB_ACTIONS: 'true' })).toBe(2)
    const texts = [stdout, ...['fleet.md', 'fleet.html', 'junit.xml'].map((f) => readFileSync(join(out, f), 'utf8'))]
    for (const text of texts) {
      expect(text).toContain('eu⟨RLO⟩lmth.exe')
      expect(text).not.toContain('U+27E8')
      expect(text).not.toContain(OVERRIDE)
    }
  })

  test('a targets file: the line that refuses it shows the label marked once', async () => {
    const file = join(scratch, 'rlo-targets.yaml')
    writeFileSync(file, `deployments:\n  - label: "prod${OVERRIDE}lmth.exe"\n    baseUrl: http://127.0.0.1:9/v1\n    apiKeyEnv: RLO_KEY\n`)
    const run = await runConformInProcess(['--targets', file], { env: { RLO_KEY: 'rlo-key-0123456789' } })
    run.cleanup()
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('deployment 1 (prod⟨RLO⟩lmth.exe): label "prod⟨RLO⟩lmth.exe" is not a folder name')
    expect(run.stderr).not.toContain('U+27E8')
  })
})
