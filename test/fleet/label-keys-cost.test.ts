/**
 * A fleet's labels are looked over for every key in any form the reports hide it in (securehunt13),
 * before the first request. Each key's forms and redactor made again for each label took a fleet of
 * ten 1 s of CPU (100 pairs), a quarter of its whole run's (npm run bench:fleet, review55): one
 * redactor of every key tells first whether a label shows any.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { fleetConfigs } from '../../lib/fleet/targets.ts'
import { canaryKey } from './fleet-servers.ts'

const scratch = mkdtempSync(join(tmpdir(), 'conform-label-keys-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

test("ten deployments' labels are looked over for ten keys in a fraction of a second of CPU, and one showing a key upper-cased still refused", () => {
  const env: Record<string, string> = {}
  const entries = Array.from({ length: 10 }, (_, i) => {
    env[`KEY_${i}`] = canaryKey()
    return `  - baseUrl: http://127.0.0.1:${31700 + i}/v1\n    apiKeyEnv: KEY_${i}\n`
  })
  const path = join(scratch, 'ten.yaml')
  writeFileSync(path, `deployments:\n${entries.join('')}`)
  const started = process.cpuUsage()
  const { deployments } = fleetConfigs({ baseUrls: [], targetsFile: path, shared: [] }, env, scratch, [])
  const used = process.cpuUsage(started)
  expect(deployments).toHaveLength(10)
  // measured at load 13: 0.97 s before, 0.12 s after (the redactor of every key made once)
  expect((used.user + used.system) / 1000).toBeLessThan(500)
  writeFileSync(path, `deployments:\n${entries.join('')}  - baseUrl: http://127.0.0.1:9/${env.KEY_3!.toUpperCase()}/v1\n    apiKeyEnv: KEY_3\n`)
  expect(() => fleetConfigs({ baseUrls: [], targetsFile: path, shared: [] }, env, scratch, [])).toThrow(/its label holds the key of/)
})
