/**
 * `targets` (the command line's --targets FILE, a fleet) is no option of the library: given to
 * runConformance() it was passed through to the command line's parser, and the run, which knows
 * nothing of fleets, checked the embedded reference server and resolved with a pass whatever the
 * deployments listed did. It is refused, before any request, naming what to do instead.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { mainEntry } from './api-entry.ts'

let server: RunningServer
let work: string

beforeAll(async () => {
  server = await startReferenceServer({ apiKey: 'fleet-option-key-2b7d90e4' })
  work = mkdtempSync(join(tmpdir(), 'conform-api-fleet-'))
  writeFileSync(join(work, 'deployments.yaml'), `deployments:\n  - label: broken\n    baseUrl: ${server.baseUrl}\n    apiKeyEnv: BROKEN_KEY\n`)
})
afterAll(async () => {
  await server?.close()
  if (work) rmSync(work, { recursive: true, force: true })
})

test('runConformance({ targets }) throws a ConformanceConfigError before any request, never a pass of the embedded server', async () => {
  const { runConformance, ConformanceConfigError } = await mainEntry()
  const options = { targets: join(work, 'deployments.yaml'), environment: { BROKEN_KEY: 'fleet-option-key-2b7d90e4' }, cwd: work }
  const outcome = await runConformance(options as Parameters<typeof runConformance>[0]).then(
    (result) => ({ resolved: `${result.verdict} of ${result.baseUrl}` }),
    (error: unknown) => ({ error }),
  )
  expect(outcome).not.toHaveProperty('resolved')
  const { error } = outcome as { error: Error }
  expect(error).toBeInstanceOf(ConformanceConfigError)
  expect(error.message).toMatch(/^targets is the command line's .*once per deployment/)
  // the command a service that installed the package has: it has no `npm run conform` script
  expect(error.message).toContain('npx petstore-conform --targets FILE')
  expect(server.requests).toEqual([])
})
