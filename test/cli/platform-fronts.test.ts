/**
 * A conforming service behind a platform's front (lib/server/variants/platforms.ts): it passes, and
 * what the front did to the service's headers is said as the front's doing, not the service's.
 */
import { afterAll, expect, test } from 'vitest'
import { startCase, type Variant } from '../../lib/server/server-cases.ts'
import { VARIANTS } from '../../lib/server/variants.ts'
import type { RunningServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { RUN_TIMEOUT_MS } from '../hostile/expect-run.ts'

const KEY = 'platform-fronts-key-5c9e1b07'
const servers: RunningServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((s) => s.close()))
})

test("AWS API Gateway's REST API renames the service's WWW-Authenticate: the note and the observed line say so, not that the 401s had none", async () => {
  const server = await startCase(VARIANTS.find((v) => v.name === 'aws-api-gateway-lambda-proxy') as Variant, { apiKey: KEY })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl], { env: { CONFORM_API_KEY: KEY } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(0)
  expect(run.stdout).toContain('note: 401 whose WWW-Authenticate (Bearer realm="petstore") AWS API Gateway renamed x-amzn-Remapped-WWW-Authenticate')
  expect(run.stdout).not.toContain('401 without a WWW-Authenticate header')
  expect(run.results!.observed!.wwwAuthenticate).toEqual(['none, but x-amzn-Remapped-WWW-Authenticate: Bearer realm="petstore"'])
}, RUN_TIMEOUT_MS)
