/**
 * Production read-only beside staging's writes, in one fleet: an entry's `readOnly: true` makes its
 * deployment's run read-only (no POST), whatever the others do. The first lines say which
 * deployments may be written to and which not, before any request; fleet.json says each one's
 * writes. Before, `readOnly` in an entry stopped the run, and the way was two fleets and a merge.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { FleetResult } from '../../lib/fleet/fleet-result.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { fleetServer, type FleetServer } from './fleet-servers.ts'

const scratch = mkdtempSync(join(tmpdir(), 'conform-read-only-entry-'))
let staging: FleetServer, production: FleetServer
let run: ConformRun | undefined
beforeAll(async () => {
  ;[staging, production] = await Promise.all([fleetServer(), fleetServer()])
})
afterAll(async () => {
  run?.cleanup()
  rmSync(scratch, { recursive: true, force: true })
  await Promise.all([staging.server.close(), production.server.close()])
})

test('the read-only entry gets no POST and says so first; the other is written to and judged whole', async () => {
  const targets = join(scratch, 'targets.yaml')
  writeFileSync(
    targets,
    `deployments:
  - label: staging
    baseUrl: ${staging.server.baseUrl}
    apiKeyEnv: STAGING_KEY
  - label: production
    baseUrl: ${production.server.baseUrl}
    apiKeyEnv: PRODUCTION_KEY
    readOnly: true
`,
  )
  run = await runConformInProcess(['--targets', targets, '--report-dir', join(scratch, 'gate')], { env: { STAGING_KEY: staging.key, PRODUCTION_KEY: production.key } })
  expect(run.code, run.stdout + run.stderr).toBe(0)
  const lines = run.stdout.split('\n')
  expect(lines[1]).toMatch(/^staging: Writes: at most 90 POSTs/)
  expect(lines[2]).toBe('production: Writes: none (readOnly: true in the targets file). The 90 POSTs the rules need are not sent; the rules about creating are not verified.')
  expect(production.server.requests.filter((r) => r.method === 'POST')).toEqual([])
  expect(staging.server.requests.filter((r) => r.method === 'POST').length).toBeGreaterThan(60)
  const fleet = JSON.parse(readFileSync(join(scratch, 'gate', 'fleet.json'), 'utf8')) as FleetResult
  expect(fleet.deployments.map((d) => [d.label, d.writes?.readOnly, d.writes?.posts])).toEqual([
    ['staging', false, expect.any(Number)],
    ['production', true, 0],
  ])
  expect(fleet.deployments.find((d) => d.label === 'production')?.notVerifiedRules).toContain('create-returns-201')
}, 60_000)
