/**
 * A baseline entry that no longer fails, in a fleet: a single run names it (terminal, ::warning),
 * and the fleet's page said nothing, so a team that fixed a known deviation on a deployment of its
 * fleet kept the entry, which would excuse the failure should it come back. The page notes it on
 * that deployment, in every format; an entry of a shared --baseline only once no run that read the
 * file still needs it (one deployment without the deviation is no stale entry).
 */
import { describe, expect, test } from 'vitest'
import { fleetHtml } from '../../lib/fleet/fleet-html.ts'
import { fleetMarkdown, fleetTerminal } from '../../lib/fleet/fleet-reports.ts'
import { deploymentOf, fleetOf, type RunFile } from '../../lib/fleet/fleet-result.ts'
import { applyBaseline, type BaselineEntry } from '../../lib/result/baseline.ts'
import type { RunResult } from '../../lib/result/run-result.ts'
import { check, runResult } from '../reporters/fixture.ts'

const TOOL = { name: 'petstore-categories-conformance', version: '0.0.0' }
const TODAY = '2026-06-01'
const GATEWAY: BaselineEntry = { rule: 'auth-missing-key-401', code: 'UNEXPECTED_STATUS', observed: 'status 403', reason: 'OPS-112: the gateway answers 403' }

/** A run whose auth-missing-key-401 check fails as the gateway's 403 (or passes: the deviation fixed). */
const run = (gateway: boolean): RunResult =>
  runResult((id) => [
    check(`${id} check`, gateway && id === 'auth-missing-key-401' ? 'fail' : 'pass', gateway && id === 'auth-missing-key-401' ? { failure: { code: 'UNEXPECTED_STATUS', message: 'answered 403', expected: 'status 401', actual: 'status 403', observed: 'status 403' } } : {}),
  ])
const judged = (gateway: boolean, file: string) => applyBaseline(run(gateway), { knownFailures: [GATEWAY] }, file, TODAY)
const fleetOfRuns = (runs: Record<string, RunFile>) =>
  fleetOf(
    Object.entries(runs).map(([label, r]) => deploymentOf(label, `https://${label}.example/v1`, `${label}/report.html`, r)),
    Object.values(runs),
    TOOL,
  )

describe('an entry of a deployment\'s own baseline that no longer fails', () => {
  const fleet = fleetOfRuns({ eu: judged(true, 'baselines/eu.json'), us: judged(false, 'baselines/us.json') })
  const words = 'its baseline baselines/us.json holds an entry no longer failing: auth-missing-key-401 UNEXPECTED_STATUS › any check of the rule as status 403. Remove it (--update-baseline with its --base-url does)'

  test('is a note on that deployment, in fleet.json, the terminal, fleet.md and fleet.html; the verdict is the same', () => {
    expect(fleet.exitCode).toBe(0)
    expect(fleet.deployments.map((d) => d.notes?.length ?? 0)).toEqual([0, 1])
    expect(fleet.deployments[1]!.notes![0]).toContain(words)
    expect(fleetTerminal(fleet, 'fleet.html')).toContain(`Note: us: ${words}`)
    expect(fleetMarkdown(fleet).replaceAll('\\', '')).toContain(`- us: ${words}`)
    expect(fleetHtml(fleet)).toContain(`<a href="us/report.html">us</a>: ${words}`)
  })
})

describe('an entry of a baseline the fleet shares (--baseline)', () => {
  test('no longer failing on one deployment, still excused on another: no note (the entry is needed)', () => {
    const fleet = fleetOfRuns({ eu: judged(true, 'conform-baseline.json'), us: judged(false, 'conform-baseline.json') })
    expect(fleet.deployments.map((d) => d.notes)).toEqual([undefined, undefined])
  })

  test('no longer failing on any: one note, on the first, naming each deployment that read it', () => {
    const fleet = fleetOfRuns({ eu: judged(false, 'conform-baseline.json'), us: judged(false, 'conform-baseline.json') })
    expect(fleet.deployments.map((d) => d.notes?.length ?? 0)).toEqual([1, 0])
    expect(fleet.deployments[0]!.notes![0]).toMatch(/^its baseline conform-baseline\.json holds an entry no longer failing on any of the 2 deployments that read it \(eu, us\): auth-missing-key-401 .*Remove it \(by hand: --update-baseline writes one deployment's failures, not the others'\)/)
  })

  test('a results.json edited by hand (merge reads it), its fixed entries not a list: no note, no crash', () => {
    const edited = { ...judged(false, 'b.json'), baseline: { file: 'b.json', known: [], expired: [], fixed: 'all of them' } } as unknown as RunFile
    expect(fleetOfRuns({ us: edited }).deployments[0]!.notes).toBeUndefined()
  })
})

test('an entry that expired, of a rule the deployment failed: a note says so beside its failed rule, with its date and reason', () => {
  const expired = { ...GATEWAY, expires: '2026-05-31' }
  const failed = applyBaseline(run(true), { knownFailures: [expired] }, 'baselines/eu.json', TODAY)
  const fleet = fleetOfRuns({ eu: failed, us: judged(true, 'baselines/us.json') })
  expect(fleet.deployments.map((d) => [d.failedRules, d.notes])).toEqual([
    [['auth-missing-key-401'], ['its baseline baselines/eu.json holds an entry of a rule it failed that expired, and excuses nothing: auth-missing-key-401 UNEXPECTED_STATUS › any check of the rule as status 403 (expired 2026-05-31; reason: "OPS-112: the gateway answers 403")']],
    [[], undefined],
  ])
  expect(fleetTerminal(fleet, 'fleet.html')).toContain('Note: eu: its baseline baselines/eu.json holds an entry of a rule it failed that expired')
})

test('a deployment that passed by a known problem its baseline excused (stray answers): a note on it, where its line said only PASS', () => {
  const stray = { kind: 'stray-answer' as const, observed: 'an extra answer', message: 'stray answers (3 times): bytes written after an answer\'s end' }
  const excused = applyBaseline(runResult(undefined, { problems: [stray] }), { knownFailures: [], knownProblems: [{ problem: 'stray-answer', observed: 'an extra answer', reason: 'OPS-9' }] }, 'b.json', TODAY)
  expect(excused.exitCode).toBe(0)
  const fleet = fleetOfRuns({ legacy: excused })
  expect(fleet.exitCode).toBe(0)
  expect(fleet.deployments[0]!.notes).toEqual(['passed with the known problem stray-answer its baseline excused (reason: "OPS-9"): stray answers (3 times): bytes written after an answer\'s end'])
  expect(fleetMarkdown(fleet)).toContain('passed with the known problem stray-answer')
})

describe('a knownProblems entry (stray answers) no longer met', () => {
  const STRAY_ENTRY = { problem: 'stray-answer', observed: 'an extra answer', reason: 'OPS-9: the legacy front answers twice' }
  const stray = { kind: 'stray-answer' as const, observed: 'an extra answer', message: 'stray answers (3 times)' }
  const read = (met: boolean) => applyBaseline(runResult(undefined, met ? { problems: [stray] } : {}), { knownFailures: [], knownProblems: [STRAY_ENTRY] }, 'prod-baseline.json', TODAY)

  test('by every deployment that read the file: a note names it, as the fixed entries of knownFailures are named (the page said nothing of it)', () => {
    const fleet = fleetOfRuns({ eu: read(false), us: read(false) })
    expect(fleet.deployments[0]!.notes).toEqual([expect.stringMatching(/^its baseline prod-baseline\.json holds an entry no longer failing on any of the 2 deployments that read it \(eu, us\): the known problem stray-answer as an extra answer \(knownProblems\)\. Remove it/)])
    expect(fleetTerminal(fleet, 'fleet.html')).toContain('the known problem stray-answer as an extra answer (knownProblems)')
  })

  test('still met by one deployment that read it: no note (the entry is needed)', () => {
    const fleet = fleetOfRuns({ eu: read(false), legacy: read(true) })
    expect(fleet.deployments[0]!.notes).toBeUndefined()
  })
})
