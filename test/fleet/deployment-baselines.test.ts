/**
 * Staging's known deviations are not production's: an entry of a targets file may name its own
 * baseline (`baseline:`, a path from the targets file's folder), which replaces --baseline for
 * that deployment alone. Two deployments with the same deviation: the one whose baseline knows it
 * passes (known, by its baseline), the other fails it. A baseline that cannot be read stops the
 * fleet before any request, naming the entry.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { FleetResult } from '../../lib/fleet/fleet-result.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { fleetServer, type FleetServer } from './fleet-servers.ts'

const RUN_TIMEOUT_MS = 60_000
const deviation = MUTATIONS.find((m) => m.name === 'create-answers-200')!
const scratch = mkdtempSync(join(tmpdir(), 'conform-deployment-baselines-'))
const runs: ConformRun[] = []
let staging: FleetServer, production: FleetServer
beforeAll(async () => {
  ;[staging, production] = await Promise.all([fleetServer(deviation), fleetServer(deviation)])
})
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  rmSync(scratch, { recursive: true, force: true })
  await Promise.all([staging.server.close(), production.server.close()])
})

const env = () => ({ STAGING_KEY: staging.key, PRODUCTION_KEY: production.key })

function targets(name: string, stagingBaseline: string): string {
  mkdirSync(join(scratch, 'gate'), { recursive: true })
  const path = join(scratch, 'gate', `${name}.yaml`)
  writeFileSync(
    path,
    `deployments:
  - label: staging
    baseUrl: ${staging.server.baseUrl}
    apiKeyEnv: STAGING_KEY
    baseline: ${stagingBaseline}
  - label: production
    baseUrl: ${production.server.baseUrl}
    apiKeyEnv: PRODUCTION_KEY
`,
  )
  return path
}

test('the deployment whose own baseline knows the deviation passes by it; the other fails it', { timeout: RUN_TIMEOUT_MS }, async () => {
  // the baseline staging's team wrote, from a run of their own
  mkdirSync(join(scratch, 'gate', 'baselines'), { recursive: true })
  const written = await runConformInProcess(['--base-url', staging.server.baseUrl, '--seed', '1', '--baseline', join(scratch, 'gate', 'baselines', 'staging.json'), '--update-baseline'], { env: { CONFORM_API_KEY: staging.key } })
  runs.push(written)
  expect(written.code, written.stdout).toBe(0)

  // relative to the targets file's folder, not to where the command runs
  const run = await runConformInProcess(['--targets', targets('gate', 'baselines/staging.json'), '--seed', '1'], { env: env() })
  runs.push(run)
  expect(run.code, run.stdout).toBe(1)
  const fleet = JSON.parse(readFileSync(join(run.reportDir, 'fleet.json'), 'utf8')) as FleetResult
  const [s, p] = fleet.deployments
  expect([s?.label, s?.exitCode, s?.failedRules]).toEqual(['staging', 0, []])
  expect(s?.knownRules).toContain('create-returns-201')
  expect([p?.label, p?.exitCode]).toEqual(['production', 1])
  expect(p?.failedRules).toContain('create-returns-201')
  expect(p?.knownRules).toBeUndefined()
})

test('an entry whose baseline cannot be read stops the fleet before any request, naming the entry', { timeout: RUN_TIMEOUT_MS }, async () => {
  const before = staging.authorizations.length + production.authorizations.length
  writeFileSync(join(scratch, 'gate', 'not-json.json'), '{"knownFailures": [')
  for (const [file, says] of [
    // --update-baseline is refused beside --targets: the hint names the run that writes it
    ['absent.json', /deployment 1 \(staging\): cannot read the baseline .*absent\.json: no such file \(a run of one deployment, its --base-url with --baseline and --update-baseline, writes it\)/],
    ['not-json.json', /deployment 1 \(staging\): the baseline .*not-json\.json is not JSON/],
  ] as const) {
    const run = await runConformInProcess(['--targets', targets(`bad-${file}`, file)], { env: env() })
    runs.push(run)
    expect(run.code, run.stderr).toBe(2)
    expect(run.stderr).toMatch(says)
  }
  expect(staging.authorizations.length + production.authorizations.length).toBe(before)
})
