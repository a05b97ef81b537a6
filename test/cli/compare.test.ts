/**
 * `compare A B` (issue 19): a passing and a failing run exit 1 and name the rule; two identical
 * runs exit 0; B fixing what A failed exits 0; unreadable input exits 2; --output writes Markdown.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { compareMain } from '../../lib/cli/compare.ts'
import { mergeMain } from '../../lib/cli/merge.ts'
import { writeCannotRunReports } from '../../lib/runner/cannot-run-reports.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { startCase, type Mutation } from '../../lib/server/server-cases.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { scratchDir } from '../helpers/scratch-dir.ts'
import { RUN_TIMEOUT_MS } from '../hostile/expect-run.ts'

const KEY = 'compare-test-key-7b2e0c94'
const servers: RunningServer[] = []
let passing: ConformRun
let failing: ConformRun

beforeAll(async () => {
  const good = await startReferenceServer({ apiKey: KEY })
  const bad = await startCase(MUTATIONS.find((m) => m.name === 'list-repeats-last-row') as Mutation, { apiKey: KEY })
  servers.push(good, bad)
  ;[passing, failing] = await Promise.all([good, bad].map((s) => runConformInProcess(['--base-url', s.baseUrl], { env: { CONFORM_API_KEY: KEY } })))
}, RUN_TIMEOUT_MS)
afterAll(async () => {
  ;[passing, failing].forEach((run) => run?.cleanup())
  await Promise.all(servers.map((s) => s.close()))
})

function compare(...argv: string[]): { code: number; out: string; err: string } {
  let out = ''
  let err = ''
  const code = compareMain(argv, { out: (t) => void (out += t), err: (t) => void (err += t) }, tmpdir())
  return { code, out, err }
}

test('B fails what A passed: exit 1, naming the rule, the code and the check', () => {
  expect(passing.code).toBe(0)
  expect(failing.code).toBe(1)
  const { code, out } = compare(passing.reportDir, join(failing.reportDir, 'results.json'))
  expect(code).toBe(1)
  expect(out).toMatch(/Failing in B, not in A \([1-9]\d*\):\n- ids-unique DUPLICATE_ID /)
  expect(out).toContain('B fails')
})

test('two identical runs exit 0; B fixing what A failed exits 0 and lists the fix', () => {
  const same = compare(failing.reportDir, failing.reportDir)
  expect(same.code).toBe(0)
  expect(same.out).toContain('Failing in B, not in A (0)')
  const fixed = compare(failing.reportDir, passing.reportDir)
  expect(fixed.code).toBe(0)
  expect(fixed.out).toMatch(/Fixed in B \([1-9]\d*\):\n- ids-unique DUPLICATE_ID/)
  expect(fixed.out).toContain('ids-unique: fail → pass')
})

test('B passing only by the baseline it wrote (--update-baseline): its rules read as failed, excused, and its verdict says RECORDED, as its own reports do, with how many it wrote down', async () => {
  const baseline = join(scratchDir('conform-compare-'), 'baseline.json')
  const excused = await runConformInProcess(['--base-url', servers[1].baseUrl, '--baseline', baseline, '--update-baseline'], { env: { CONFORM_API_KEY: KEY } })
  try {
    expect(excused.code).toBe(0)
    const known = excused.results!.baseline!.known.length
    expect(known).toBeGreaterThan(0)
    const { code, out } = compare(passing.reportDir, excused.reportDir)
    expect(code).toBe(1)
    expect(out).toContain(`(run ${excused.results!.runId}, recorded, with ${known} failures its --update-baseline wrote down, not passes)`)
    expect(out).toContain("- ids-unique: pass → fail (excused by B's baseline)")
    expect(out).not.toMatch(/→ warn/)
    // a run that only read that baseline: a pass by its baseline, as its own reports say
    const reread = await runConformInProcess(['--base-url', servers[1].baseUrl, '--baseline', baseline], { env: { CONFORM_API_KEY: KEY } })
    try {
      expect(compare(passing.reportDir, reread.reportDir).out).toContain(`(run ${reread.results!.runId}, pass, with ${reread.results!.baseline!.known.length} failures excused by its baseline)`)
    } finally {
      reread.cleanup()
    }
  } finally {
    excused.cleanup()
  }
}, RUN_TIMEOUT_MS)

test('`compare -- A B` (`npm run conform -- compare -- A B`): after `--` every argument is a run, as POSIX reads it', () => {
  // it was refused: unknown option "--"
  const after = compare('--', failing.reportDir, passing.reportDir)
  expect(after.err).toBe('')
  expect(after.code).toBe(0)
  expect(after.out).toMatch(/Fixed in B \([1-9]\d*\):/)
  // an option after `--` is a run's name, not an option
  expect(compare(failing.reportDir, '--', '--output').err).toMatch(/--output|cannot|not/)
})

test('--output writes the comparison as Markdown, for a pull request or a job summary', () => {
  const file = join(scratchDir('conform-compare-'), 'comparison.md')
  expect(compare(passing.reportDir, failing.reportDir, '--output', file).code).toBe(1)
  const markdown = readFileSync(file, 'utf8')
  expect(markdown).toMatch(/^## Pet Store categories conformance: comparison/)
  expect(markdown).toContain('### Failing in B, not in A')
  expect(markdown).toContain('`ids-unique` `DUPLICATE_ID`')
})

// `--output $SUMMARY` with the variable not set: --output last, with nothing after it, wrote nothing and said nothing
test.each([
  ['--output last, with no FILE after it', ['--output']],
  ['--output ""', ['--output', '']],
  ['--output=', ['--output=']],
])('%s: exit 2, one line naming --output, nothing compared', (_, flags) => {
  const run = compare(passing.reportDir, failing.reportDir, ...flags)
  expect(run).toEqual({ code: 2, out: '', err: 'conform compare: --output names no file (a variable that is not set?): --output FILE writes the comparison as Markdown\n' })
})

// `--output $SUMMARY A B` with the variable not set: the shell leaves `--output A B`, run A taken as the file to write
test.each([
  ['a report folder', () => passing.reportDir],
  ['a results.json', () => join(passing.reportDir, 'results.json')],
])('--output before %s and one more run: exit 2, the line says --output took run A, A left as it was', (_, runA) => {
  const before = readFileSync(join(passing.reportDir, 'results.json'), 'utf8')
  const run = compare('--output', runA(), failing.reportDir)
  expect(run.code).toBe(2)
  expect(run.out).toBe('')
  expect(run.err).toBe(`conform compare: --output took ${JSON.stringify(runA())}, a run, as the file to write, and left one run (--output "$VARIABLE" with the variable not set?): give the two runs, then --output FILE\n`)
  expect(readFileSync(join(passing.reportDir, 'results.json'), 'utf8')).toBe(before)
})

// `compare A B --output B/results.json` printed the comparison, then wrote its Markdown over run B's record,
// which no compare or merge could read again ("Unexpected token '#'")
test.each([
  ["run B's results.json, B a folder", () => [passing.reportDir, failing.reportDir, '--output', join(failing.reportDir, 'results.json')], "run B's results.json"],
  ["run A's file, given as a file", () => [join(passing.reportDir, 'results.json'), failing.reportDir, `--output=${join(passing.reportDir, 'results.json')}`], "run A's results.json"],
])('--output naming %s: exit 2 before anything is read, the run left as it was', (_, argv, which) => {
  const runs = [passing, failing].map((r) => readFileSync(join(r.reportDir, 'results.json'), 'utf8'))
  const run = compare(...argv())
  expect(run).toEqual({ code: 2, out: '', err: `conform compare: --output ${JSON.stringify(argv().at(-1)!.replace(/^--output=/, ''))} is ${which}: the comparison's Markdown would replace it; give another file, such as --output comparison.md\n` })
  expect([passing, failing].map((r) => readFileSync(join(r.reportDir, 'results.json'), 'utf8'))).toEqual(runs)
})

test('--output of a results.json edited by hand: a rule id or code that is a CI log command is made inert in the file too', () => {
  const dir = scratchDir('conform-compare-')
  const edited = readFileSync(join(failing.reportDir, 'results.json'), 'utf8').replaceAll('"ids-unique"', '"##vso[task.setvariable variable=X]1"').replaceAll('"DUPLICATE_ID"', '"##[error]forged"')
  writeFileSync(join(dir, 'results.json'), edited)
  const file = join(dir, 'comparison.md')
  // the terminal's text goes through the command line's output, which makes every line inert (lib/cli/conform.ts)
  expect(compare(passing.reportDir, dir, '--output', file).code).toBe(1)
  const markdown = readFileSync(file, 'utf8')
  expect(markdown).toContain('#vso[task.setvariable variable=X]1')
  expect(markdown.toLowerCase()).not.toMatch(/##(vso|teamcity)?\[/)
})

test('input that cannot be read is exit 2 with one line', () => {
  const dir = scratchDir('conform-compare-')
  writeFileSync(join(dir, 'results.json'), '{"not": "a run"}')
  for (const [argv, says] of [
    [[passing.reportDir, join(dir, 'absent')], /no such file/],
    [[passing.reportDir, dir], /is not the results.json of a run/],
    [[passing.reportDir], /give two runs, A and B/],
    // read on, it filled memory until the process was killed
    [[passing.reportDir, '/dev/zero'], /cannot read \/dev\/zero: it holds more than 256 MiB/],
  ] as const) {
    const { code, err } = compare(...argv)
    expect(code).toBe(2)
    expect(err.trimEnd().split('\n')).toHaveLength(1)
    expect(err).toMatch(says)
  }
})

test("a fleet's folder, or a deployment of it that could not be judged: exit 2, and the line says what to give instead", () => {
  const fleet = scratchDir('conform-compare-fleet-')
  writeFileSync(join(fleet, 'fleet.json'), JSON.stringify({ exitCode: 2, deployments: [{ label: 'eu' }, { label: 'us' }] }))
  const tool = { name: 'petstore-categories-conformance', version: '0' }
  writeCannotRunReports(join(fleet, 'us'), tmpdir(), { tool, reason: 'cannot reach 127.0.0.1:9: connection refused', startedAt: new Date() })
  const ofFleet = compare(fleet, passing.reportDir)
  expect(ofFleet.code).toBe(2)
  expect(ofFleet.err).toContain(`${fleet} is a fleet's report folder (fleet.json), not a run's: give the folder of one of its deployments, ${fleet}/eu, ${fleet}/us`)
  const notJudged = compare(passing.reportDir, join(fleet, 'us'))
  expect(notJudged.code).toBe(2)
  expect(notJudged.err.trimEnd().split('\n')).toHaveLength(1)
  expect(notJudged.err).toContain('is of a run that could not be made (exit 2), with nothing to compare: cannot reach 127.0.0.1:9: connection refused')
  // stopped by a signal before it started: its exit code, as its reports give it
  const stopped = scratchDir('conform-compare-stopped-')
  writeCannotRunReports(stopped, tmpdir(), { tool, reason: 'interrupted by SIGTERM before the run started', startedAt: new Date(), interruptExit: 143 })
  expect(compare(passing.reportDir, stopped).err).toContain('is of a run that could not be made (exit 143), with nothing to compare: interrupted by SIGTERM before the run started')
})

test('a check failing in both with another answer in B (a 200 become a 202): listed apart, with both answers, exit 1', async () => {
  const [two00, two02] = await Promise.all(['create-answers-200', 'create-answers-202'].map((name) => startCase(MUTATIONS.find((m) => m.name === name) as Mutation, { apiKey: KEY })))
  servers.push(two00!, two02!)
  const [a, b] = await Promise.all([two00!, two02!].map((s) => runConformInProcess(['--base-url', s.baseUrl, '--confirm', '0'], { env: { CONFORM_API_KEY: KEY } })))
  try {
    const { code, out } = compare(a!.reportDir, b!.reportDir)
    expect(code, out).toBe(1)
    expect(out).toMatch(/Failing in both, otherwise in B \([1-9]\d*\):\n- create-returns-201 UNEXPECTED_STATUS .*\(A: status 200; B: status 202\)/)
    expect(out).toContain('Failing in B, not in A (0)')
    expect(out).toMatch(/B fails \d+ checks? otherwise than A: exit 1/)
    // the same answers on both sides: failing in both, exit 0
    expect(compare(a!.reportDir, a!.reportDir)).toMatchObject({ code: 0 })
  } finally {
    a!.cleanup()
    b!.cleanup()
  }
}, RUN_TIMEOUT_MS)

test('staging that wrote beside production read-only: a failure production never sent is not "fixed in B", and one A never judged says so', async () => {
  // the comparison docs/adoption.md shows: a full staging run, then production with --read-only
  const server = await startCase(MUTATIONS.find((m) => m.name === 'create-answers-200') as Mutation, { apiKey: KEY })
  servers.push(server)
  const [staging, production] = await Promise.all([[], ['--read-only']].map((extra) => runConformInProcess(['--base-url', server.baseUrl, ...extra], { env: { CONFORM_API_KEY: KEY } })))
  try {
    expect(staging!.code).toBe(1)
    expect(production!.code).toBe(0)
    const gone = compare(staging!.reportDir, production!.reportDir)
    expect(gone.code).toBe(0)
    expect(gone.out).toContain('Fixed in B (0):')
    expect(gone.out).toContain('- create-returns-201: fail → not verified')
    expect(gone.out).toMatch(/Failing in A, not judged in B: neither fixed nor failing there \([1-9]\d*\):\n- create-returns-201 UNEXPECTED_STATUS .*\(not judged in B: --read-only[^)]*\): /)
    // the last line, the one a reader stops at, says exit 0 is no pass of what B never sent
    expect(gone.out).toMatch(/^B fails nothing that A did not \([1-9]\d* of A's failing checks B did not judge: neither fixed nor failing there\): exit 0$/m)
    // the other way round, every failure of B is still new to B (exit 1), and says that A never judged it
    const added = compare(production!.reportDir, staging!.reportDir)
    expect(added.code).toBe(1)
    expect(added.out).toMatch(/Failing in B, not in A \([1-9]\d*\):\n- create-returns-201 UNEXPECTED_STATUS .*\(not judged in A: .*--read-only/)
    expect(added.out).toMatch(/^B fails (\d+) checks that A did not \(\1 of them not judged in A\): exit 1$/m)
    // a failure A judged and B passed is still "fixed"
    expect(compare(failing.reportDir, passing.reportDir).out).toContain('not judged in B: neither fixed nor failing there (0)')
  } finally {
    staging?.cleanup()
    production?.cleanup()
  }
}, RUN_TIMEOUT_MS)

test('a mistyped option of compare or merge: exit 2, naming the option it was most likely meant to be', () => {
  expect(compare('a', 'b', '--outptu=diff.md')).toEqual({ code: 2, out: '', err: 'conform compare: unknown option "--outptu" (did you mean --output?); see compare --help\n' })
  expect(compare('a', 'b', '--zzz').err).toBe('conform compare: unknown option "--zzz"; see compare --help\n')
  let err = ''
  expect(mergeMain(['a', '--repot-dir', 'out'], { out: () => undefined, err: (t) => void (err += t) }, tmpdir(), {})).toBe(2)
  expect(err).toBe('conform merge: unknown option "--repot-dir" (did you mean --report-dir?); see merge --help\n')
})

// `merge a/ b/ --report-dir $OUT` with the variable not set: told to give --report-dir, which was given
test.each([[['a', 'b', '--report-dir', '']], [['a', 'b', '--report-dir=']], [['a', 'b', '--report-dir']]])('merge %j: exit 2, the line says --report-dir names no folder', (argv) => {
  let err = ''
  expect(mergeMain(argv, { out: () => undefined, err: (t) => void (err += t) }, tmpdir(), {})).toBe(2)
  expect(err).toBe('conform merge: --report-dir names no folder (a variable that is not set?): --report-dir OUT is where the fleet page goes\n')
})

test('a key given to compare or merge as --api-key=KEY (a command line copied from conform) is not printed back', () => {
  const key = 'wrong-command-key-7c1e9a'
  expect(compare('a', 'b', `--api-key=${key}`).err).toBe('conform compare: unknown option "--api-key"; see compare --help\n')
  let err = ''
  expect(mergeMain(['a', `--api-key=${key}`], { out: () => undefined, err: (t) => void (err += t) }, tmpdir(), {})).toBe(2)
  expect(err).toBe('conform merge: unknown option "--api-key"; see merge --help\n')
})

test('a folder of a run killed before its reports (a journal, no results.json): exit 2, and the line says so, as merge does, not only "no such file"', () => {
  const killed = scratchDir('conform-compare-killed-')
  writeFileSync(join(killed, 'journal.ndjson'), `${JSON.stringify({ id: 'a', method: 'POST', url: 'https://eu.example/v1/categories', attempt: 1, phase: 'dispatched', at: '2026-11-26T09:00:00.000Z' })}\n`)
  const { code, err } = compare(killed, passing.reportDir)
  expect(code).toBe(2)
  expect(err).toMatch(/results\.json: no such file, beside a journal\.ndjson of 1 requests begun, 0 of them written to a connection \(1 POSTs: 0 written; 1 with no answer in it, 1 of which no line says went out \(a request waiting for one of the connections has none; one written as the run was killed may have gone\): writes that may have been made, each line holding its body\): the run was stopped before it wrote its reports/)
})
