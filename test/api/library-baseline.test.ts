/**
 * A baseline from code and from a service's own vitest, where no report folder is asked for (the
 * library's default): `updateBaseline` writes the baseline file all the same, as the command
 * line's --update-baseline does, and the next run excuses what it names and nothing else. Before,
 * the file was written only with the reports, so a run with `updateBaseline` and no `reportDir`
 * passed every failing check and left no file behind. In vitest, the run's own test says what the
 * baseline did, as the command line's summary does: an entry that expired, one no longer failing.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import type { RunningServer } from '../../lib/server/reference-server.ts'
import { findCase, startCase } from '../../lib/server/server-cases.ts'
import { entryFiles, mainEntry } from './api-entry.ts'
import { childVitest } from './child-vitest.ts'

const API_KEY = 'library-baseline-key-5d0c2a'
const BROKEN = 'missing-key-answers-403'
let server: RunningServer
let work: string

beforeAll(async () => {
  server = await startCase(findCase(MUTATIONS, BROKEN)!, { apiKey: API_KEY })
  work = mkdtempSync(join(tmpdir(), 'conform-api-baseline-'))
})
afterAll(async () => {
  await server?.close()
  if (work) rmSync(work, { recursive: true, force: true })
})

test('updateBaseline without reportDir writes the baseline, and the next run gates on what it names', async () => {
  const { runConformance } = await mainEntry()
  const options = { baseUrl: server.baseUrl, apiKey: API_KEY, rule: ['auth-missing-key-401', 'list-returns-200'], cwd: work, environment: {} }
  const baseline = join(work, 'conform-baseline.json')

  const failing = await runConformance(options)
  expect(failing.verdict).toBe('fail')

  const recorded = await runConformance({ ...options, baseline: 'conform-baseline.json', updateBaseline: true })
  expect(recorded.verdict).toBe('pass')
  expect(existsSync(baseline)).toBe(true)
  const entries = (JSON.parse(readFileSync(baseline, 'utf8')) as { knownFailures: { rule: string }[] }).knownFailures
  expect(entries.length).toBeGreaterThan(0)
  expect(new Set(entries.map((e) => e.rule))).toEqual(new Set(['auth-missing-key-401']))
  expect(existsSync(join(work, 'reports'))).toBe(false)

  const gated = await runConformance({ ...options, baseline: 'conform-baseline.json' })
  expect(gated.verdict).toBe('pass')
  const knownIn = (run: typeof gated) => run.rules.flatMap((r) => r.checks).filter((c) => c.known !== undefined).length
  expect(knownIn(gated)).toBe(knownIn(recorded))
  expect(knownIn(gated)).toBeGreaterThanOrEqual(entries.length)
})

test('in a service\'s vitest, an expired entry fails its test, and the run\'s test names what is expired and what is fixed', async () => {
  const folder = join(work, 'vitest-baseline')
  mkdirSync(folder, { recursive: true })
  const check = 'GET /categories with no Authorization header → 401'
  const baseline = {
    knownFailures: [
      { rule: 'auth-missing-key-401', code: 'UNEXPECTED_STATUS', check, reason: 'OPS-1 the gateway answers 403', expires: '2001-01-01' },
      { rule: 'auth-invalid-key-401', code: 'UNEXPECTED_STATUS', check: 'GET /categories with a wrong key → 401', reason: 'OPS-2 fixed since' },
    ],
  }
  writeFileSync(join(folder, 'conform-baseline.json'), JSON.stringify(baseline))
  const files = entryFiles()
  const testFile = [
    `import { defineConformance } from '${files.vitest}'`,
    `defineConformance({ baseUrl: '${server.baseUrl}', apiKey: '${API_KEY}', rule: ['auth-missing-key-401', 'auth-invalid-key-401'], baseline: 'conform-baseline.json', confirm: 0 })`,
  ].join('\n')
  const run = await childVitest(folder, testFile, [], { keep: ['conform-baseline.json'] })
  expect(run.code, run.output).toBe(1)
  expect(run.assertions.filter((a) => a.status === 'failed').map((a) => a.title)).toContain(check)
  expect(run.junit).toContain('expired 2001-01-01, excused nothing: auth-missing-key-401 › GET /categories with no Authorization header → 401')
  expect(run.junit).toContain('fixed, no longer failing (remove it from the baseline): auth-invalid-key-401 › GET /categories with a wrong key → 401')
}, 60_000)
