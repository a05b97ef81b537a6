/**
 * A run that judges only some checks (--rule, --read-only) is no evidence about the others: the
 * baseline entries of checks it did not judge are neither reported fixed nor dropped by
 * --update-baseline. Before, `--rule A --update-baseline` emptied the file of every other rule's
 * entries, and a read-only run called the known failures of every POST "fixed".
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Baseline } from '../../lib/result/baseline.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import type { RunningServer } from '../../lib/server/reference-server.ts'
import { startCase, type Mutation } from '../../lib/server/server-cases.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { RUN_TIMEOUT_MS } from '../hostile/expect-run.ts'

const KEY = 'baseline-partial-key-6a1f3c'
/** Two known deviations of two rules: a 403 for a missing key (GETs and POSTs), and a list that repeats its last row. */
const DEVIATIONS = ['missing-key-answers-403', 'list-repeats-last-row']
let server: RunningServer
let dir: string
const runs: ConformRun[] = []

beforeAll(async () => {
  const cases = DEVIATIONS.map((name) => MUTATIONS.find((m) => m.name === name) as Mutation)
  server = await startCase({ name: DEVIATIONS.join('+'), description: '', behaviour: Object.assign({}, ...cases.map((c) => c.behaviour)), seed: cases.find((c) => c.seed)?.seed }, { apiKey: KEY })
  dir = mkdtempSync(join(tmpdir(), 'conform-baseline-partial-'))
})
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await server?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

async function conform(...args: string[]): Promise<ConformRun> {
  const run = await runConformInProcess(['--base-url', server.baseUrl, ...args], { env: { CONFORM_API_KEY: KEY } })
  runs.push(run)
  return run
}
const entriesOf = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as Baseline).knownFailures

test('entries of checks a run did not judge are neither fixed nor dropped', { timeout: RUN_TIMEOUT_MS }, async () => {
  const file = join(dir, 'known.json')
  const recorded = await conform('--baseline', file, '--update-baseline')
  expect(recorded.code, recorded.stdout).toBe(0)
  const all = entriesOf(file)
  expect([...new Set(all.map((e) => e.rule))]).toEqual(expect.arrayContaining(['auth-missing-key-401', 'ids-unique']))

  // one rule: its entries excuse its failures; the other rule's entries were not judged
  const oneRule = await conform('--baseline', file, '--rule', 'auth-missing-key-401')
  expect(oneRule.code, oneRule.stdout).toBe(0)
  expect(oneRule.results!.baseline!.fixed).toEqual([])
  expect(oneRule.stdout).not.toMatch(/fixed \(no longer failing/)

  // no POST sent: the entries of POST checks were not judged
  const readOnly = await conform('--baseline', file, '--read-only')
  expect(readOnly.code, readOnly.stdout).toBe(0)
  expect(readOnly.results!.baseline!.known.length).toBeGreaterThan(0)
  expect(readOnly.results!.baseline!.fixed).toEqual([])

  // recording again with one rule keeps every entry of the other
  const again = await conform('--baseline', file, '--update-baseline', '--rule', 'auth-missing-key-401')
  expect(again.code, again.stdout).toBe(0)
  const key = (e: { rule: string; code: string; check?: string }) => `${e.rule} ${e.code} ${e.check}`
  expect(entriesOf(file).map(key).sort()).toEqual(all.map(key).sort())
})

test('--update-baseline on a run that reached no verdict leaves the file as it was, and says so', { timeout: RUN_TIMEOUT_MS }, async () => {
  const file = join(dir, 'kept.json')
  await conform('--baseline', file, '--update-baseline')
  const before = readFileSync(file, 'utf8')
  // a wrong key (another environment's): every request refused, exit 2
  const refused = await runConformInProcess(['--base-url', server.baseUrl, '--baseline', file, '--update-baseline'], { env: { CONFORM_API_KEY: 'not-the-key-0000' } })
  runs.push(refused)
  expect(refused.code).toBe(2)
  expect(readFileSync(file, 'utf8')).toBe(before)
  expect(refused.stdout).toContain(`Baseline not written: the run reached no verdict, so its failures are no evidence of what is known; ${file} is as it was`)
  expect(refused.stdout).not.toContain('Baseline written')
})
