/**
 * A signal while the preflight waits on a silent host (a firewall that drops, a TLS port that never
 * answers the handshake: up to 10 s) stops that wait at once. Before, a fleet's other deployments
 * wrote their reports and the process, given 3 s after the signal, exited 130 while that
 * deployment still waited: no fleet.json, fleet.html or junit.xml at all, and no results.json for
 * it; a single run exited the same way, leaving the results.json of an earlier run (its PASS) as
 * the folder's verdict.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import type { FleetResult } from '../../lib/fleet/fleet-result.ts'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { runConform, type ConformRun } from '../helpers/run-conform.ts'

const KEY = 'interrupt-preflight-key-3e9d51a0'
const servers: RunningServer[] = []
const silent: Server[] = []
const sockets: Socket[] = []
const runs: ConformRun[] = []
const scratch = mkdtempSync(join(tmpdir(), 'conform-interrupt-preflight-'))
afterAll(async () => {
  runs.forEach((r) => r.cleanup())
  sockets.forEach((s) => s.destroy())
  await Promise.all([...servers.map((s) => s.close()), ...silent.map((s) => new Promise((resolve) => s.close(resolve)))])
  rmSync(scratch, { recursive: true, force: true })
})

/** A TLS address that takes the connection and never answers the handshake; `reached` once a connection came. */
async function silentTlsHost(): Promise<{ baseUrl: string; reached: Promise<void> }> {
  let reach: () => void = () => undefined
  const reached = new Promise<void>((resolve) => (reach = resolve))
  const server = createServer((socket) => {
    sockets.push(socket)
    socket.on('error', () => undefined)
    reach()
  })
  silent.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return { baseUrl: `https://127.0.0.1:${port}/v1`, reached }
}

test("SIGINT while one deployment's handshake hangs: the fleet's page is written, that deployment interrupted before its run, exit 130", { timeout: 60_000 }, async () => {
  const server = await startReferenceServer({ apiKey: KEY })
  servers.push(server)
  const host = await silentTlsHost()
  const run = await runConform(['--base-url', server.baseUrl, '--base-url', host.baseUrl, '--timeout', '20000', '--deadline', '60000'], {
    env: { CONFORM_API_KEY: KEY },
    interrupt: { signal: 'SIGINT', when: host.reached.then(() => new Promise((resolve) => setTimeout(resolve, 300))) },
  })
  runs.push(run)
  expect(run.code, run.stdout + run.stderr).toBe(130)
  const fleet = JSON.parse(readFileSync(join(run.reportDir, 'fleet.json'), 'utf8')) as FleetResult
  expect(fleet.exitCode).toBe(130)
  const hung = fleet.deployments.find((d) => d.baseUrl === host.baseUrl)
  expect(hung?.reason).toBe('interrupted by SIGINT before the run started')
  expect(readFileSync(join(run.reportDir, hung!.label, 'results.json'), 'utf8')).toContain('interrupted by SIGINT before the run started')
})

test("SIGINT while a single run's handshake hangs: its reports say so, not an earlier run's PASS left in the folder", { timeout: 60_000 }, async () => {
  const host = await silentTlsHost()
  const reportDir = join(scratch, 'single')
  mkdirSync(reportDir)
  writeFileSync(join(reportDir, 'results.json'), '{"verdict":"pass","exitCode":0}')
  const run = await runConform(['--base-url', host.baseUrl, '--timeout', '20000', '--report-dir', reportDir], {
    env: { CONFORM_API_KEY: KEY },
    interrupt: { signal: 'SIGINT', when: host.reached.then(() => new Promise((resolve) => setTimeout(resolve, 300))) },
  })
  runs.push(run)
  expect(run.code, run.stdout + run.stderr).toBe(130)
  const results = JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) as { verdict: string; error?: string }
  expect(results.verdict).toBe('error')
  expect(results.error).toBe('interrupted by SIGINT before the run started')
})
