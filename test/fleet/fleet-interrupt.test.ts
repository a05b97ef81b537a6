/**
 * SIGINT stops every deployment of a fleet run, not only the first: through the real entry point,
 * twelve deployments whose servers never answer are each reported as interrupted, the fleet's
 * reports are written (saying exit 130) and the process exits 130 within seconds (more than ten listening for the
 * signal: Node warns of a leak unless the fleet says they are expected). A deployment the interrupt did not reach
 * would wait for its 60 s deadline, past the 3 s the process gives itself, and have no results.json.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, onTestFinished, test } from 'vitest'
import type { FleetResult } from '../../lib/fleet/fleet-result.ts'
import type { RunResult } from '../../lib/result/run-result.ts'
import { runConform, type ConformRun } from '../helpers/run-conform.ts'
import { neverAnswers, type HostileServer } from '../hostile/hostile-servers.ts'

const KEY = 'fleet-interrupt-key-7c41e09b'
const servers: HostileServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((r) => r.cleanup())
  await Promise.all(servers.map((s) => s.close()))
})

test('SIGINT while every one of twelve deployments waits on its server: each reported as interrupted, fleet reports written, exit 130, no warning', { timeout: 60_000 }, async () => {
  const started = await Promise.all(Array.from({ length: 12 }, () => neverAnswers()))
  servers.push(...started)
  const warnings: string[] = []
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`)
  process.on('warning', onWarning)
  onTestFinished(() => void process.off('warning', onWarning))
  const startedAt = performance.now()
  const run = await runConform([...started.flatMap((s) => ['--base-url', s.baseUrl]), '--timeout', '60000', '--deadline', '60000'], {
    env: { CONFORM_API_KEY: KEY },
    interrupt: { signal: 'SIGINT', after: 'Each of them:' },
  })
  runs.push(run)
  expect(run.code, run.stdout + run.stderr).toBe(130)
  expect(performance.now() - startedAt).toBeLessThan(20_000)
  expect(run.stderr).not.toMatch(/Warning/)
  expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([])
  const fleet = JSON.parse(readFileSync(join(run.reportDir, 'fleet.json'), 'utf8')) as FleetResult
  expect(fleet.deployments).toHaveLength(12)
  // the page gives the process's exit code, as a single run's reports do, not the verdict's 2
  expect(fleet.exitCode).toBe(130)
  expect(run.stdout).toMatch(/^Fleet: NOT JUDGED \(exit 130\): /m)
  expect(readFileSync(join(run.reportDir, 'fleet.md'), 'utf8')).toContain('NOT JUDGED \\(exit 130\\)')
  for (const d of fleet.deployments) {
    const resultsFile = join(run.reportDir, d.label, 'results.json')
    expect(existsSync(resultsFile), d.label).toBe(true)
    const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as RunResult & { error?: string }
    // interrupted in flight, or before its run started (the signal can come first): never judged as passing
    const said = JSON.stringify(results.problems ?? []) + (results.error ?? '')
    expect(said, d.label).toMatch(/interrupted \(SIGINT\)|interrupted by SIGINT/)
    expect(results.verdict, d.label).not.toBe('pass')
    // a run under way when the signal came records it, as a single run's results.json does
    if (results.runId !== undefined) expect(results.exitCode, d.label).toBe(130)
  }
  expect(run.stdout + run.stderr + readFileSync(join(run.reportDir, 'fleet.json'), 'utf8')).not.toContain(KEY)
})
