/**
 * Observed behaviour where the document is silent (issue 19, item 3): recorded in results.json and
 * shown in the reports as notes, never verdicts; compare names what changed between two runs.
 */
import { afterAll, expect, test } from 'vitest'
import { compareRuns } from '../../lib/cli/compare.ts'
import { startCase, type Variant } from '../../lib/server/server-cases.ts'
import { VARIANTS } from '../../lib/server/variants.ts'
import type { RunningServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { RUN_TIMEOUT_MS } from '../hostile/expect-run.ts'

const KEY = 'observed-test-key-2a7d4c81'
const servers: RunningServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((s) => s.close()))
})

async function runAgainst(name: string): Promise<ConformRun> {
  const server = await startCase(VARIANTS.find((v) => v.name === name) as Variant, { apiKey: KEY })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl], { env: { CONFORM_API_KEY: KEY } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(0)
  return run
}

test('limits, refused freedoms, compression and media types are recorded as notes, and compare shows them change', async () => {
  const [limited, reference, gzip, onRequest] = await Promise.all([
    runAgainst('name-limit-16'),
    runAgainst('empty-name-refused-400'),
    runAgainst('gzip-even-for-identity'),
    runAgainst('gzip-unless-identity'),
  ])
  const l = limited.results!.observed!
  expect(l.lengths.acceptedName).toBe(16)
  expect(l.lengths.refusedName).toBeGreaterThan(16)
  expect(limited.stdout).toMatch(/Length limits \(not shown, §8: a freedom, not a failure\): names of up to 16 and descriptions of up to 32 characters were accepted/)
  expect(reference.results!.observed!.freedoms['an empty name']).toBe('refused (400)')
  expect(l.freedoms['an empty name']).toBe('accepted (201)')
  expect(gzip.results!.observed!.compression.gzip).toBeGreaterThan(0)
  // a list read as curl --compressed asks for gzip: a compressed answer to it is what it asked for, no note
  expect(onRequest.results!.observed!.compression).toEqual({})
  expect(onRequest.stdout).not.toMatch(/compression when asked for identity: gzip/)
  expect(reference.results!.observed!.wwwAuthenticate).toEqual(['Bearer realm="petstore"'])
  expect(reference.results!.observed!.listOrder).toBe('ascending ids')
  for (const run of [limited, reference]) {
    expect(run.files['summary.md']).toContain('### Observed where the document is silent')
    expect(run.files['report.html']).toContain('id="observed"')
  }
  const differences = compareRuns(limited.results!, reference.results!).observed
  expect(differences).toContain('observed.freedoms.an empty name: "accepted (201)" → "refused (400)"')
  expect(differences.some((d) => d.startsWith('observed.lengths.refusedName: '))).toBe(true)
}, RUN_TIMEOUT_MS)
