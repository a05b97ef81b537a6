/**
 * `compare A B` where what differs is not a check's verdict. Two versions of the suite, one of which
 * reworded a failing check: the failure, the same in both, was "failing in B, not in A (not judged
 * in A: not run)" and "failing in A, not judged in B: not run", and compare exited 1 on a deployment
 * that changed nothing. And stray answers (the run problem stray-answer, exit 1 of itself, no
 * rule's): B meeting them beside an A that did not, compare said "B fails nothing that A did not:
 * exit 0". Now the renamed check is failing in both, named under its two names, the versions said
 * in the head; a check a version does not have is said so, not "not run"; and a run problem B meets
 * and A does not is B failing something A did not (exit 1), excused by B's baseline or not. And a B
 * cut short by --deadline (or held to --max-writes) recorded the longest name it had sent before the
 * cut: "observed.lengths.acceptedName: 256 → 16" read as a limit production had come to keep; such a
 * run's observed behaviour is not compared now, and the heading says why. And a B of --repeat 2:
 * each failure's round 2 was "failing in B, not in A" (exit 1 on the same deviation, 43 times); a
 * further round is its check again now.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { compareMain } from '../../lib/cli/compare.ts'
import { mergeMain } from '../../lib/cli/merge.ts'
import type { RunResult } from '../../lib/result/run-result.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import type { RunningServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { RUN_TIMEOUT_MS } from '../hostile/expect-run.ts'

const KEY = 'compare-versions-key-7e21c9'
const OLD = 'GET /categories without a key → 401'
const NEW = 'GET /categories with no Authorization header → 401'
const dir = mkdtempSync(join(tmpdir(), 'conform-compare-versions-'))
let server: RunningServer
let run: ConformRun

beforeAll(async () => {
  server = await startCase(MUTATIONS.find((m) => m.name === 'missing-key-answers-403')!, { apiKey: KEY })
  run = await runConformInProcess(['--base-url', server.baseUrl, '--confirm', '0', '--rule', 'auth-missing-key-401'], { env: { CONFORM_API_KEY: KEY } })
}, RUN_TIMEOUT_MS)
afterAll(async () => {
  run?.cleanup()
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** The run's results.json, changed by `edit`, in a folder of its own. */
function folder(name: string, edit: (r: RunResult) => void): string {
  const results = JSON.parse(run.files['results.json']!) as RunResult
  edit(results)
  mkdirSync(join(dir, name), { recursive: true })
  writeFileSync(join(dir, name, 'results.json'), JSON.stringify(results))
  return join(dir, name)
}

function compare(a: string, b: string): { code: number; out: string } {
  let out = ''
  const code = compareMain([a, b], { out: (t) => void (out += t), err: (t) => void (out += t) }, dir)
  return { code, out }
}

const STRAY = { kind: 'stray-answer' as const, observed: 'an extra answer', message: 'stray answers (3 times): bytes written after an answer’s end' }

test('a check an older version of the suite named otherwise, failing alike in both: failing in both, under its two names, exit 0', () => {
  expect(run.code, run.stdout).toBe(1)
  const b = folder('b', () => {})
  const older = folder('older', (r) => {
    r.tool.version = '0.0.9'
    for (const c of r.rules.flatMap((rule) => rule.checks)) if (c.name === NEW) c.name = OLD
  })
  const { code, out } = compare(older, b)
  expect(code, out).toBe(0)
  expect(out).toContain('A and B ran two versions of the suite (A 0.0.9, B 0.1.0)')
  expect(out).toContain(`- auth-missing-key-401 UNEXPECTED_STATUS ${NEW} (in A: "${OLD}", which B's version of the suite does not have: renamed)`)
  expect(out).toContain('Failing in B, not in A (0):')
  expect(out).toMatch(/B fails nothing that A did not: exit 0\n$/)
  // a check the other version does not have, failing otherwise: not "not run"
  const otherwise = folder('older-otherwise', (r) => {
    r.tool.version = '0.0.9'
    for (const c of r.rules.flatMap((rule) => rule.checks)) if (c.name === NEW) (c.name = OLD), (c.failure!.observed = 'status 404')
  })
  const changed = compare(otherwise, b)
  expect(changed.code).toBe(1)
  expect(changed.out).toContain(`${NEW} (not judged in A: its version of the suite (0.0.9) has no check of this name: renamed or removed?)`)
})

test('stray answers in B and not in A: B fails the run problem that A did not (exit 1); in A alone: fixed in B; excused by a baseline: still a failure', () => {
  const clean = folder('clean', () => {})
  const stray = folder('stray', (r) => void (r.problems = [STRAY]))
  const worse = compare(clean, stray)
  expect(worse.code, worse.out).toBe(1)
  expect(worse.out).toContain('Failing in B, not in A (1):\n- run problem stray-answer: stray answers (3 times)')
  expect(worse.out).toMatch(/B fails the run problem stray-answer that A did not: exit 1\n$/)
  const better = compare(stray, clean)
  expect(better.code, better.out).toBe(0)
  expect(better.out).toContain('Fixed in B (1):\n- run problem stray-answer: stray answers')
  const excused = folder('excused', (r) => {
    r.baseline = { file: 'b.json', known: [], expired: [], fixed: [], knownProblems: [{ problem: 'stray-answer', observed: 'an extra answer', reason: 'OPS-9', message: STRAY.message }] }
  })
  expect(compare(clean, excused).code).toBe(1)
  expect(compare(stray, excused).out).toContain('Failing in both (')
})

test('a run cut short by --deadline, or held to --max-writes, observed what it had sent: its observed behaviour is not compared, and the heading says why', () => {
  const lengths = (n: number) => (r: RunResult) => void (r.observed = { ...r.observed!, lengths: { acceptedName: n, acceptedDescription: n * 2 } })
  const whole = folder('whole', lengths(256))
  const cut = folder('cut', (r) => {
    lengths(16)(r)
    r.problems = [{ kind: 'deadline', message: 'the run did not finish within 200 ms (--deadline)' }]
  })
  const { out } = compare(whole, cut)
  expect(out).not.toContain('acceptedName')
  expect(out).toContain('Observed behaviour that differs (not compared: B was cut short by --deadline, so what it observed is what it had sent (the longest name it sent is no limit)):')
  const budget = folder('budget', (r) => {
    lengths(16)(r)
    r.rules[0]!.checks.push({ ...r.rules[0]!.checks[0]!, name: 'a create the budget kept back', status: 'skip', cause: 'write-budget' })
    r.options.maxWrites = 5
  })
  expect(compare(budget, whole).out).toContain('(not compared: A sent only some of its POSTs (--max-writes 5), so what it observed')
  // a targets entry's budget is named as the run's own reports name it: no --max-writes was given
  const entryBudget = folder('entry-budget', (r) => {
    lengths(16)(r)
    r.rules[0]!.checks.push({ ...r.rules[0]!.checks[0]!, name: 'a create the budget kept back', status: 'skip', cause: 'write-budget' })
    r.options.maxWrites = 5
    r.options.writesFrom = { maxWrites: 'maxWrites: 5 in the targets file' }
  })
  expect(compare(whole, entryBudget).out).toContain('(not compared: B sent only some of its POSTs (maxWrites: 5 in the targets file), so what it observed')
  // read-only from a targets entry: named so, as the run's own reports name it
  const readOnlyFrom = (name: string, from: string) =>
    folder(name, (r) => {
      r.observed = { ...r.observed! }
      delete (r.observed as Partial<typeof r.observed>).lengths
      r.options.readOnly = true
      r.options.writesFrom = { readOnly: from }
    })
  expect(compare(whole, readOnlyFrom('entry-read-only', 'readOnly: true in the targets file')).out).toContain('; B ran read-only (readOnly: true in the targets file), so what only a POST shows is not recorded there')
  // a results.json another job wrote, its setting's name edited: one line of visible text, no CI log command, no markup in --output
  const hostile = readOnlyFrom('hostile-setting', 'x\n::error::planted <img src=x onerror=alert(1)>')
  const said = compare(whole, hostile).out
  expect(said).not.toMatch(/^::error/m)
  const output = join(dir, 'hostile.md')
  compareMain([whole, hostile, '--output', output], { out: () => {}, err: () => {} }, dir)
  expect(readFileSync(output, 'utf8')).not.toContain('<img')
  // two whole runs: compared as ever
  expect(compare(whole, folder('whole-other', lengths(255))).out).toContain('- observed.lengths.acceptedName: 256 → 255')
})

test('a run of --repeat 2 beside one of a single round: a failure of round 2 is its check again, not a new one; one that fails in round 2 alone is new, as itself', () => {
  const single = folder('single', () => {})
  const rounds = folder('rounds', (r) => {
    for (const rule of r.rules) rule.checks = [...rule.checks, ...rule.checks.map((c) => ({ ...c, name: `${c.name} (round 2 of 2)` }))]
  })
  const same = compare(single, rounds)
  expect(same.code, same.out).toBe(0)
  expect(same.out).toContain('Failing in B, not in A (0):')
  const passedOnce = folder('passed-once', (r) => {
    for (const c of r.rules.flatMap((rule) => rule.checks)) if (c.name === NEW) (c.status = 'pass'), delete c.failure
  })
  const later = compare(passedOnce, rounds)
  expect(later.code).toBe(1)
  expect(later.out).toContain(`Failing in B, not in A (1):\n- auth-missing-key-401 UNEXPECTED_STATUS ${NEW}: `)
  expect(later.out).not.toContain('has no check of this name')
})

test('a results.json that holds the key a server echoed (an older version wrote it, or a hand edited it): compare prints and writes it redacted, with the key of CONFORM_API_KEY', () => {
  const key = 'sk_live_5f2c9a71e3b04d68'
  const leaky = folder('leaky', (r) => {
    for (const c of r.rules.flatMap((rule) => rule.checks)) if (c.failure) (c.failure.message = `the key ${key} was refused`), (c.failure.observed = `401 {"token":"${key}"}`)
  })
  const other = folder('leaky-other', (r) => {
    for (const c of r.rules.flatMap((rule) => rule.checks)) if (c.failure) c.failure.observed = `403 Bearer ${encodeURIComponent(key)}`
  })
  const output = join(dir, 'leaky.md')
  let said = ''
  const io = { out: (t: string) => void (said += t), err: (t: string) => void (said += t) }
  compareMain([leaky, other, '--output', output], io, dir, { CONFORM_API_KEY: key })
  const notMade = join(dir, 'not-made')
  mkdirSync(notMade, { recursive: true })
  writeFileSync(join(notMade, 'results.json'), JSON.stringify({ verdict: 'error', error: `the key ${key} was refused` }))
  expect(compareMain([notMade, other], io, dir, { CONFORM_API_KEY: key })).toBe(2)
  // what is compared still shows, the key alone hidden
  expect(said).toMatch(/Failing in both, otherwise in B \([1-9]/)
  expect(said).toContain('[REDACTED]')
  for (const text of [said, readFileSync(output, 'utf8')]) expect(text).not.toContain(key), expect(text).not.toContain(encodeURIComponent(key))
})

test("a deployment's key under its own variable (a fleet's apiKeyEnv, the run's keyFrom), held in an older version's results.json: compare and merge redact it where that variable is set", () => {
  const key = 'eu_9d81c7b6a5f40e2d3c1b'
  const echoed = (name: string) =>
    folder(name, (r) => {
      r.options.keyFrom = 'PETSTORE_EU_KEY'
      for (const c of r.rules.flatMap((rule) => rule.checks)) if (c.failure) (c.failure.message = `the key ${key} was refused`), (c.failure.observed = `401 {"token":"${key}"}`)
    })
  const [a, b] = [echoed('eu-a'), echoed('eu-b')]
  const env = { PETSTORE_EU_KEY: key }
  let said = ''
  const io = { out: (t: string) => void (said += t), err: (t: string) => void (said += t) }
  const output = join(dir, 'eu.md')
  compareMain([a, b, '--output', output], io, dir, env)
  const fleet = join(dir, 'eu-fleet')
  mergeMain([a, b, '--report-dir', fleet], io, dir, env)
  expect(said).toContain('[REDACTED]')
  const texts = { said, output: readFileSync(output, 'utf8'), ...Object.fromEntries(readdirSync(fleet).map((f) => [f, readFileSync(join(fleet, f), 'utf8')])) }
  expect(Object.keys(texts)).toEqual(expect.arrayContaining(['fleet.html', 'fleet.json']))
  for (const [where, text] of Object.entries(texts)) expect(text.includes(key), where).toBe(false)
})
