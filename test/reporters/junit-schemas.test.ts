/**
 * Every junit.xml the suite writes validates against the schemas CI tools check a JUnit file with
 * (junit-schemas.ts): Jenkins' junit-10.xsd (the xunit plugin reads no file that fails it) and
 * Maven Surefire's report schema, each <testsuite> as its own file. A single run's (failures,
 * skips, known failures, advisory notes, problems), a fleet's (a run cut short, a run not made)
 * and the one a run that could not be made leaves.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { fleetJunit } from '../../lib/fleet/fleet-junit.ts'
import { deploymentOf, fleetOf, type RunFile } from '../../lib/fleet/fleet-result.ts'
import { junitReport } from '../../lib/reporters/junit-report.ts'
import { resultOf } from '../../lib/result/run-result.ts'
import { applyBaseline } from '../../lib/result/baseline.ts'
import { writeCannotRunReports } from '../../lib/runner/cannot-run-reports.ts'
import { check, everythingFails, HOSTILE, runResult } from './fixture.ts'
import { jenkinsJunit10Violations, surefireViolations } from './junit-schemas.ts'
import { elements, parseXml } from './xml.ts'

const dir = mkdtempSync(join(tmpdir(), 'conform-junit-schemas-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const TOOL = { name: 'petstore-categories-conformance', version: '0.0.0' }

function violations(xml: string): string[] {
  const root = parseXml(xml)
  return [...jenkinsJunit10Violations(root), ...elements(root, 'testsuite').flatMap(surefireViolations)]
}

/** Every way a check ends, and a problem of the run. */
function everyKindOfCheck() {
  return runResult(
    (id) => [
      check(`${id} passes`, 'pass'),
      check(`${id} skipped`, 'skip', { skipReason: 'not verified: --read-only' }),
      check(`${id} fails`, 'fail', { failure: { code: 'UNEXPECTED_STATUS', message: `answered 201: ${HOSTILE}`, expected: 'status 400', actual: `status 201 ${HOSTILE}` } }),
      check(`${id} advisory`, 'pass', { notes: [`a note: ${HOSTILE}`] }),
      check(`${id} known`, 'pass', { known: 'recorded by --update-baseline' }),
    ],
    { problems: [{ kind: 'deadline', message: `the deadline: ${HOSTILE}` }, { kind: 'deadline', message: 'again' }] },
  )
}

describe('the schemas, as junit-schemas.ts writes them down, refuse what they refuse', () => {
  test.each([
    ['<testsuites skipped="1"><testsuite name="a" tests="0" failures="0" errors="0" skipped="0"/></testsuites>', 'testsuites: attribute skipped is not allowed'],
    ['<testsuites timestamp="2026-01-01T00:00:00Z"/>', 'testsuites: attribute timestamp is not allowed'],
    ['<testsuites><testsuite name="a" tests="1" failures="0" errors="0"><testcase name="x"/></testsuite></testsuites>', 'attribute skipped is required'],
    ['<testsuites><testsuite name="a" tests="1" failures="0" errors="1" skipped="0"><testcase name="x"><error/></testcase></testsuite></testsuites>', 'attribute time is required'],
    ['<testsuites><testsuite name="a" tests="1" failures="0" errors="0" skipped="0" time="1e3"/></testsuites>', 'time="1e3" is not of its type'],
  ])('%s', (xml, why) => {
    expect(violations(xml).join('\n')).toContain(why)
  })
})

describe('every junit.xml validates against Jenkins junit-10.xsd and Surefire', () => {
  test("a single run's: failures, skips, known failures, notes and problems", () => {
    for (const result of [everyKindOfCheck(), everythingFails(), runResult()]) expect(violations(junitReport(result))).toEqual([])
  })

  test("a single run's whose baseline excused a run problem (stray answers): a skipped testcase beside the problems", () => {
    const stray = { kind: 'stray-answer' as const, observed: 'an extra answer', message: `stray answers: ${HOSTILE}` }
    const withProblems = runResult(undefined, { problems: [stray, { kind: 'no-check-for-rule', message: 'x' }] })
    const result = applyBaseline(withProblems, { knownFailures: [], knownProblems: [{ problem: 'stray-answer', reason: `OPS-9 ${HOSTILE}` }] }, 'b.json', '2026-06-01')
    const xml = junitReport(result)
    expect(xml).toMatch(/<testsuite name="run" tests="2" failures="0" errors="1" skipped="1"/)
    expect(violations(xml)).toEqual([])
  })

  test("a fleet's: a run, a run cut short, a run not made", () => {
    const facts = { tool: TOOL, runId: '20260101-0000-abcde', baseUrl: 'https://a.example/v1', embeddedServer: false, startedAt: new Date(0), durationMs: 5, options: { readOnly: false, maxWrites: 0, rules: [], timeoutMs: 1000 }, journal: [] }
    const cut = resultOf(new Map(), { ...facts, problems: [{ kind: 'deadline', message: HOSTILE }], cutShort: true }, [])
    const notMade: RunFile = { tool: TOOL, startedAt: new Date(0).toISOString(), baseUrl: null, verdict: 'error', exitCode: 2, error: `cannot reach: ${HOSTILE}`, summary: { requests: 0, writes: 0, recordsCreated: 0 }, rules: [], ledger: [], journal: [] }
    const full = everyKindOfCheck()
    const runs: RunFile[] = [full, cut, notMade]
    const fleet = fleetOf(
      [deploymentOf('eu', 'https://a.example/v1', 'eu/report.html', full), deploymentOf('us', 'https://b.example/v1', 'us/report.html', cut), deploymentOf('ap', HOSTILE, 'ap/report.html', notMade)],
      runs,
      TOOL,
    )
    expect(violations(fleetJunit(fleet, runs))).toEqual([])
  })

  test('the one of a run that could not be made', () => {
    writeCannotRunReports(join(dir, 'not-made'), dir, { tool: TOOL, reason: `cannot reach 127.0.0.1:9: ${HOSTILE}`, startedAt: new Date(0) })
    expect(violations(readFileSync(join(dir, 'not-made', 'junit.xml'), 'utf8'))).toEqual([])
  })
})
