/**
 * A base URL with a wrong path before /v1 (`/api/v1` where the service serves `/v1`): every request
 * the run sends is answered 404. The run said FAIL with eight rules broken and no word of the
 * address; the one fault every rule met is now said first, once, naming the base URL
 * (lib/result/fault-groups.ts, cause not-found), and not probed again: a second
 * probe would meet the same 404s (lib/runner/confirmation.ts). A server that answers some requests is not it.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, expect, test } from 'vitest'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { POST_PROBES } from '../../suites/cases/write-order.ts'

const servers: RunningServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((r) => r.cleanup())
  await Promise.all(servers.map((s) => s.close()))
})

test('every request answered 404 (a wrong path before /v1): no verdict (exit 2), said first, naming the base URL', async () => {
  const apiKey = `key-${randomBytes(12).toString('hex')}`
  const server = await startReferenceServer({ apiKey })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl.replace(/\/v1$/, '/api/v1')], { env: { CONFORM_API_KEY: apiKey } })
  runs.push(run)
  // no verdict (exit 2), as for a host answered 421 (misdirected.ts): the address is wrong, or nothing is routed, not one rule
  expect(run.code, run.stdout).toBe(2)
  expect(run.stdout).toMatch(/nothing is served at this base URL: (\d+) requests were answered 404 Not Found, none otherwise; a wrong path before \/v1/)
  expect(run.stdout).toContain('Verdict: INCOMPLETE')
  expect(run.results!.rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
  // not probed again (--confirm 2 by default): a second probe would meet the same 404s, and a run sent 164 POSTs more for them
  expect(run.results?.summary.writesAgain ?? 0).toBe(0)
  expect((run.results?.journal ?? []).filter((e) => e.method === 'POST' && e.onWire).length).toBeLessThanOrEqual(POST_PROBES.length)
  expect(run.files['summary.md']).toContain('nothing is served at this base URL')
  expect(run.files['report.html']).toContain('nothing is served at this base URL')
})

test('a server that answers: no such finding', async () => {
  const apiKey = `key-${randomBytes(12).toString('hex')}`
  const server = await startReferenceServer({ apiKey })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl], { env: { CONFORM_API_KEY: apiKey } })
  runs.push(run)
  expect(run.code).toBe(0)
  expect(run.stdout).not.toContain('nothing is served at this base URL')
})
