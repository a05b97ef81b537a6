/**
 * A team whose service writes a second answer after some of its answers (stray answers: the run's
 * one problem, exit 1, no rule's) had no baseline entry to excuse it: every gate failed whatever the
 * baseline said, and --update-baseline recorded nothing for it. A baseline's knownProblems names it
 * now, as knownFailures names a rule's failure: --update-baseline records it, the next run excuses
 * it (exit 0, shown apart, skipped in junit.xml), a run without it reports the entry fixed, and an
 * entry that knew other stray answers excuses nothing.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { readBaseline } from '../../lib/config/baseline-file.ts'
import { annotations } from '../../lib/reporters/github-actions.ts'
import { applyBaseline } from '../../lib/result/baseline.ts'
import { problemEntryLines } from '../../lib/result/known-problems.ts'
import { deploymentOf, fleetOf } from '../../lib/fleet/fleet-result.ts'
import { check, runResult } from '../reporters/fixture.ts'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess } from '../helpers/run-conform.ts'
import { plain, runBehindFront, type Shape } from './wire-fronts.ts'

const KEY = `stray-${randomBytes(12).toString('hex')}`
const STRAY = 'HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}'
const EVERY_FIFTH: Shape = (a) => ({ bytes: a.nth % 5 === 0 ? Buffer.concat([plain(a), Buffer.from(STRAY)]) : plain(a) })
const dir = mkdtempSync(join(tmpdir(), 'conform-stray-baseline-'))
const closers: (() => unknown)[] = [() => rmSync(dir, { recursive: true, force: true })]
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

describe('stray answers in a baseline (knownProblems)', () => {
  const file = join(dir, 'baseline.json')

  test('--update-baseline records them; the next run excuses them, shown apart; a run without them reports the entry fixed', async () => {
    const recorded = (await runBehindFront(KEY, EVERY_FIFTH, closers, ['--baseline', file, '--update-baseline'])).run
    expect(recorded.code, recorded.stdout).toBe(0)
    expect(recorded.stdout).toMatch(/Baseline written: .*, and the known problem stray-answer \(knownProblems\)/)
    const written = readBaseline(file, false)
    expect(written.knownProblems).toEqual([{ problem: 'stray-answer', observed: 'an extra answer', reason: expect.stringMatching(/^recorded by --update-baseline on \d{4}-\d{2}-\d{2}: say why/) }])
    writeFileSync(file, JSON.stringify({ ...written, knownProblems: [{ ...written.knownProblems![0], reason: 'OPS-9: the legacy front writes a second answer' }] }))

    const gated = (await runBehindFront(KEY, EVERY_FIFTH, closers, ['--baseline', file])).run
    expect(gated.code, gated.stdout).toBe(0)
    expect(gated.results?.problems).toEqual([])
    expect(gated.results?.baseline?.knownProblems?.[0]).toMatchObject({ problem: 'stray-answer', reason: 'OPS-9: the legacy front writes a second answer' })
    expect(gated.stdout).toContain('and the known problem stray-answer')
    expect(gated.stdout).toMatch(/ {2}known problem \(baseline: OPS-9: the legacy front writes a second answer\): stray answers \(\d+ times\)/)
    expect(gated.files['junit.xml']).toMatch(/<testcase classname="run" name="stray-answer" time="0"><skipped message="known problem: OPS-9/)
    expect(gated.files['summary.md']).toMatch(/known problem \\?\(baseline\\?: OPS-9/)
    expect(gated.files['report.html']).toContain('<li>known problem (baseline: OPS-9')
    expect(annotations(gated.results!).filter((a) => a.includes('stray-answer'))).toEqual([expect.stringMatching(/^::warning title=stray-answer \(known problem%2C --baseline\)::known problem: OPS-9/)])

    const server = await startReferenceServer({ apiKey: KEY })
    closers.push(() => server.close())
    const clean = await runConformInProcess(['--base-url', server.baseUrl, '--baseline', file], { env: { CONFORM_API_KEY: KEY } })
    closers.push(() => clean.cleanup())
    expect(clean.code, clean.stdout).toBe(0)
    expect(clean.stdout).toContain('1 fixed (no longer failing: remove it, or --update-baseline)')
    expect(clean.stdout).toContain('fixed, no longer met (remove it from the baseline): problem stray-answer as an extra answer')
  }, 120_000)

  test('an entry that knew other stray answers (answers to an unread body) excuses nothing: the run fails, and says so', async () => {
    writeFileSync(file, JSON.stringify({ knownFailures: [], knownProblems: [{ problem: 'stray-answer', observed: 'answers to an unread body', reason: 'OPS-9' }] }))
    const { run } = await runBehindFront(KEY, EVERY_FIFTH, closers, ['--baseline', file])
    expect(run.code, run.stdout).toBe(1)
    expect(run.results?.problems.map((p) => p.kind)).toEqual(['stray-answer'])
    expect(run.stdout).toContain('problem stray-answer now shows otherwise than its entry as answers to an unread body (reason: "OPS-9")')
    expect(run.stdout).toContain('; the entry of the problem stray-answer changed (it shows otherwise now: it excused nothing)')
    expect(run.stdout).not.toContain('its check fails otherwise')
  }, 120_000)

  test('a problem no baseline may excuse, or mistyped, is refused before any request', () => {
    for (const [problem, says] of [
      ['stray-answers', /names the problem "stray-answers" \(did you mean stray-answer\?\): a baseline excuses only stray-answer/],
      ['key-refused', /names the problem "key-refused": a baseline excuses only stray-answer/],
    ] as const) {
      writeFileSync(file, JSON.stringify({ knownFailures: [], knownProblems: [{ problem, reason: 'r' }] }))
      expect(() => readBaseline(file, false)).toThrow(says)
    }
    writeFileSync(file, JSON.stringify({ knownFailures: [], knownProblem: [{ problem: 'stray-answer', reason: 'r' }] }))
    expect(() => readBaseline(file, false)).toThrow(/has "knownProblem" \(did you mean "knownProblems"\?\)/)
    expect(readFileSync(file, 'utf8')).toContain('knownProblem')
  })
})

test('a failure whose answer may have been a stray one is not verified, excused or not: while the entry excuses the problem, every report says how many such checks went unjudged, and of which rules (it said how many alone), the fleet\'s note too', () => {
  const doubt = (name: string) => check(name, 'skip', { cause: 'stray-answer', skipReason: 'not verified: the answer was read on a connection that carried an earlier request' })
  const run = runResult(
    (id) =>
      id === 'auth-missing-key-401'
        ? [doubt('GET /categories with no Authorization header → 401')]
        : id === 'create-rejects-invalid-values'
          ? [doubt('POST /categories with a numeric name → 400'), doubt('POST /categories with a null name → 400')]
          : [check(`${id} check`, 'pass')],
    { problems: [{ kind: 'stray-answer', observed: 'an extra answer', message: 'stray answers (3 times): …' }] },
  )
  const result = applyBaseline(run, { knownFailures: [], knownProblems: [{ problem: 'stray-answer', reason: 'OPS-9' }] }, 'b.json', '2026-06-01')
  expect(result.exitCode).toBe(0)
  const left = 'which left 3 checks of must-rules not verified (create-rejects-invalid-values 2, auth-missing-key-401 1; each in results.json with cause "stray-answer": an answer read on a connection that carried an earlier request may have been a stray one): a fault there goes unjudged while the entry excuses it'
  expect(problemEntryLines(result.baseline!)).toEqual([`known problem (baseline: OPS-9), ${left}: stray answers (3 times): …`])
  const fleet = fleetOf([deploymentOf('legacy', 'https://legacy.example/v1', 'legacy/report.html', result)], [result], { name: 'petstore-categories-conformance', version: '0.0.0' })
  expect(fleet.deployments[0]!.notes).toEqual([`passed with the known problem stray-answer its baseline excused (reason: "OPS-9"), ${left}: stray answers (3 times): …`])
})
