/**
 * Production read-only, or with a few writes, beside staging's writes, in one fleet: an entry's
 * `readOnly: true` makes its deployment's run read-only (no POST), an entry's `maxWrites: N` bounds
 * its POSTs, whatever the others do. The first lines say each deployment's write budget, before any
 * request; fleet.json says each one's writes. Before, `readOnly` in an entry stopped the run, and
 * `maxWrites` still did: the way was two fleets and a merge.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { FleetResult } from '../../lib/fleet/fleet-result.ts'
import { POST_PROBES } from '../../suites/cases/write-order.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { fleetServer, type FleetServer } from './fleet-servers.ts'

const scratch = mkdtempSync(join(tmpdir(), 'conform-read-only-entry-'))
let staging: FleetServer, production: FleetServer, canary: FleetServer
let run: ConformRun | undefined
beforeAll(async () => {
  ;[staging, production, canary] = await Promise.all([fleetServer(), fleetServer(), fleetServer()])
})
afterAll(async () => {
  run?.cleanup()
  rmSync(scratch, { recursive: true, force: true })
  await Promise.all([staging.server.close(), production.server.close(), canary.server.close()])
})

test('the read-only entry gets no POST, the budgeted one its budget, and the first lines say so; the other is written to and judged whole', async () => {
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
  - label: canary
    baseUrl: ${canary.server.baseUrl}
    apiKeyEnv: CANARY_KEY
    maxWrites: 5
`,
  )
  run = await runConformInProcess(['--targets', targets, '--report-dir', join(scratch, 'gate')], { env: { STAGING_KEY: staging.key, PRODUCTION_KEY: production.key, CANARY_KEY: canary.key } })
  expect(run.code, run.stdout + run.stderr).toBe(0)
  const lines = run.stdout.split('\n')
  expect(lines[1]).toMatch(new RegExp(`^staging: Writes: at most ${POST_PROBES.length} POSTs`))
  expect(lines[2]).toBe(`production: Writes: none (readOnly: true in the targets file). The ${POST_PROBES.length} POSTs the rules need are not sent; the rules about creating are not verified.`)
  expect(lines[3]).toMatch(new RegExp(`^canary: Writes: at most 5 POSTs \\(maxWrites: 5 in the targets file, of the ${POST_PROBES.length} the rules need\\), creating at most \\d records? on a conforming server`))
  expect(production.server.requests.filter((r) => r.method === 'POST')).toEqual([])
  expect(staging.server.requests.filter((r) => r.method === 'POST').length).toBeGreaterThan(60)
  expect(canary.server.requests.filter((r) => r.method === 'POST').length).toBeLessThanOrEqual(5)
  const fleet = JSON.parse(readFileSync(join(scratch, 'gate', 'fleet.json'), 'utf8')) as FleetResult
  expect(fleet.deployments.map((d) => [d.label, d.writes?.readOnly, d.writes?.posts])).toEqual([
    ['staging', false, expect.any(Number)],
    ['production', true, 0],
    ['canary', false, expect.any(Number)],
  ])
  expect(fleet.deployments.find((d) => d.label === 'production')?.notVerifiedRules).toContain('create-returns-201')
  expect(fleet.deployments.find((d) => d.label === 'canary')?.notVerifiedRules?.length).toBeGreaterThan(0)
  // each entry's own reports name the entry's setting, not a flag the command line was never given
  const summary = (label: string) => readFileSync(join(scratch, 'gate', label, 'summary.md'), 'utf8')
  expect(summary('production')).toContain('read-only \\(readOnly\\: true in the targets file\\) sends no request that could create a record')
  expect(summary('production')).not.toContain('--read-only')
  expect(summary('canary')).toContain('over the write budget \\(maxWrites\\: 5 in the targets file\\)')
  expect(summary('canary')).not.toContain('--max-writes')
}, 60_000)

test('the read-only entry given only a rule about creating ran none: its line says no rule was verified, not that every one that ran passed', async () => {
  const targets = join(scratch, 'create-only.yaml')
  writeFileSync(targets, `deployments:\n  - label: staging\n    baseUrl: ${staging.server.baseUrl}\n    apiKeyEnv: STAGING_KEY\n  - label: production\n    baseUrl: ${production.server.baseUrl}\n    apiKeyEnv: PRODUCTION_KEY\n    readOnly: true\n`)
  const createOnly = await runConformInProcess(['--targets', targets, '--rule', 'create-returns-201', '--report-dir', join(scratch, 'create-only')], { env: { STAGING_KEY: staging.key, PRODUCTION_KEY: production.key } })
  createOnly.cleanup()
  expect(createOnly.stdout).toMatch(/^PASS {8}staging {5}\S+ {2}every must-rule that ran passed \(--rule create-returns-201\)$/m)
  expect(createOnly.stdout).toMatch(/^PASS {8}production {2}\S+ {2}no rule verified \(--rule create-returns-201\); 1 not verified: create-returns-201$/m)
}, 60_000)
