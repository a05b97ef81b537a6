/**
 * `npm run bench -- --quick` keeps working: it exits 0 and writes bench.json whose figures hold
 * together with each other and with what the runs could physically do. Nothing here judges a time
 * against a goal: this machine may be busy with anything.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { ROOT, runNode } from '../helpers/child-process.ts'

const reportDir = mkdtempSync(join(tmpdir(), 'conform-bench-test-'))
afterAll(() => rmSync(reportDir, { recursive: true, force: true }))

test('the quick benchmark runs and writes figures that agree with each other', { timeout: 300_000 }, async () => {
  const run = await runNode(['--import', 'tsx', join(ROOT, 'scripts/bench.ts'), '--quick', '--report-dir', reportDir], { killAfterMs: 280_000 })
  expect(run.code, run.stderr).toBe(0)
  expect(run.stdout).toContain('Where the wall time goes')

  const bench = JSON.parse(readFileSync(join(reportDir, 'bench.json'), 'utf8'))
  expect(bench.machine.node).toBe(process.version)
  const { embedded, local, slow, seeded } = bench.conform
  for (const kind of [embedded, local, slow, seeded]) {
    expect(kind.exitCodes).toEqual([0])
    expect(kind.cpuMs).toBeGreaterThan(0)
    expect(kind.peakRssMiB).toBeGreaterThan(0)
    // the phases come from marks in the child; together they are its whole wall time
    const phases = Object.values(kind.phases) as number[]
    expect(phases).toHaveLength(6)
    for (const phase of phases) expect(phase).toBeGreaterThanOrEqual(0)
    expect(Math.abs(phases.reduce((a, b) => a + b, 0) - kind.wallMs)).toBeLessThanOrEqual(phases.length)
  }
  // requests counted by the server as they arrived: every run sends the same ones
  expect(local.requests).toBeGreaterThan(0)
  for (const kind of [embedded, slow, seeded]) expect(kind.requests).toBe(local.requests)
  for (const kind of [local, slow, seeded]) {
    expect(kind.firstRequestMs).toBeGreaterThan(kind.phases.nodeStart)
    expect(kind.lastRequestMs).toBeGreaterThanOrEqual(kind.firstRequestMs)
    expect(kind.lastRequestMs).toBeLessThanOrEqual(kind.wallMs)
    expect(kind.waitShare).toBeGreaterThan(0)
    expect(kind.waitShare).toBeLessThanOrEqual(1)
  }
  // requests that wait on each other's answers wait the slow server's delay each: the creates, the
  // name sent again once its first create was answered, the list after them (suites/categories/probes.ts)
  const dependentRoundTrips = 3
  // (the bursts of arrivals may merge, as freed slots are refilled at once: at least one is seen)
  expect(slow.waves).toBeGreaterThanOrEqual(1)
  expect(slow.phases.checks).toBeGreaterThanOrEqual(dependentRoundTrips * slow.delayMs)
  expect(bench.roundTrips.waves).toBe(slow.waves)
  expect(bench.roundTrips.fromWall).toBeCloseTo((slow.wallMs - local.wallMs) / slow.delayMs, 0)
  expect(slow.networkWaitMs).toBeGreaterThanOrEqual(dependentRoundTrips * slow.delayMs)
  expect(slow.networkWaitMs).toBeLessThanOrEqual(slow.wallMs)
  // the page's measured block is built (a quick run does not write it)
  expect(run.stdout).toMatch(/Would write \(not in --quick mode\): the measured part of .*docs\/performance\.md/)

  expect(bench.lists.map((l: { ids: string }) => l.ids).sort()).toEqual(['big', 'small'])
  for (const list of bench.lists) {
    expect(list.bare.peakRssMiB).toBeGreaterThan(0)
    expect(list.suite.phases.parse + list.suite.phases.validate + list.suite.phases.idsUnique + list.suite.phases.listed).toBeLessThanOrEqual(list.suite.ms + 3)
  }
  // the quick list is far below the default cap: fetched, not refused
  expect(bench.client.defaultCap.error).toBeNull()
  expect(bench.client.bytes).toBe(bench.lists.find((l: { ids: string }) => l.ids === 'big').bytes)
})
