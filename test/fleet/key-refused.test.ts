/**
 * A deployment of a fleet whose key the server refuses (a targets entry's variable holding
 * another environment's key): its line says why it was not judged before the rules the refusal
 * failed, and names the variable the key came from, not CONFORM_API_KEY, which nobody set.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { deploymentDetail } from '../../lib/fleet/fleet-wording.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { fleetServer, type FleetServer } from './fleet-servers.ts'

const scratch = mkdtempSync(join(tmpdir(), 'conform-fleet-key-'))
const servers: FleetServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  rmSync(scratch, { recursive: true, force: true })
  await Promise.all(servers.map((s) => s.server.close()))
})

test('a deployment not judged says why first, whatever rules failed', () => {
  const d = { label: 'eu', baseUrl: 'https://eu.example/v1', report: 'eu/report.html', rules: {}, exitCode: 2 as const, verdict: 'incomplete' as const, failedRules: ['list-returns-200'], reason: 'the server refused the key' }
  expect(deploymentDetail(d)).toBe('the server refused the key; failed: list-returns-200')
  expect(deploymentDetail({ ...d, verdict: 'fail', exitCode: 1, reason: undefined })).toBe('failed: list-returns-200')
})

test('a key refused in a targets file: the line gives the reason first and names the variable the key came from', { timeout: 60_000 }, async () => {
  const [good, refused] = await Promise.all([fleetServer(), fleetServer()])
  servers.push(good, refused)
  const targets = join(scratch, 'targets.yaml')
  writeFileSync(targets, `deployments:\n  - label: good\n    baseUrl: ${good.server.baseUrl}\n    apiKeyEnv: GOOD_KEY\n  - label: refused\n    baseUrl: ${refused.server.baseUrl}\n    apiKeyEnv: STALE_EU_KEY\n`)
  const run = await runConformInProcess(['--targets', targets, '--seed', '1'], { env: { GOOD_KEY: good.key, STALE_EU_KEY: good.key } })
  runs.push(run)
  expect(run.code, run.stdout + run.stderr).toBe(2)
  expect(run.stdout).toMatch(/^NOT JUDGED +refused .*the server refused the key: all \d+ requests sent with it were answered 401; check STALE_EU_KEY \(wrong, expired, another environment's\?\)/m)
  expect(run.stdout).not.toMatch(/CONFORM_API_KEY \(wrong/)
})
