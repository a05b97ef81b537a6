/**
 * Runs in one process keep nothing in common (a fleet of deployments, the kill matrix): two runs at
 * once, one against a conforming server and one against a broken one, each get their own verdict,
 * journal, ledger, report folder and stray rejections. runConformance() returns the result and
 * writes nothing; writeRunReports() writes a run's reports where it is told.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { DEFAULTS } from '../../lib/config/config.ts'
import type { RunResult } from '../../lib/result/run-result.ts'
import { loadReports, runConformance, type RunConfig, type SuiteManifest } from '../../lib/runner/conform-run.ts'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import { check, suite } from '../../lib/suite-kit/check.ts'
import { manifest } from '../../suites/manifest.ts'

const KEY = 'runs-apart-key-0123456789abcdef'
const BROKEN = MUTATIONS.find((m) => m.name === 'error-status-always-400')!
const servers: RunningServer[] = []
const dirs: string[] = []
afterAll(async () => {
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }))
  await Promise.all(servers.map((s) => s.close()))
})

const config: RunConfig = { ...DEFAULTS, readOnly: false, rules: [], headers: [], updateBaseline: false, seed: 1 }
const started = <T extends RunningServer>(server: T) => (servers.push(server), server)
const run = (server: RunningServer, suites: SuiteManifest = manifest) =>
  runConformance({ config, target: { baseUrl: server.baseUrl, apiKey: KEY, embeddedServer: false }, suite: suites })
const origins = (result: RunResult) => [...new Set((result.journal ?? []).map((e) => new URL(e.url).origin))]

test('two runs at once, one against a broken server: each its own verdict, journal, ledger and report folder', async () => {
  const [good, bad] = await Promise.all([startReferenceServer({ apiKey: KEY }).then(started), startCase(BROKEN, { apiKey: KEY }).then(started)])
  const [passing, failing] = await Promise.all([run(good), run(bad)])

  expect([passing.result.verdict, passing.result.exitCode], JSON.stringify(passing.result.problems)).toEqual(['pass', 0])
  expect([failing.result.verdict, failing.result.exitCode]).toEqual(['fail', 1])
  expect(failing.result.rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([BROKEN.breaks])
  expect(failing.result.rules.find((r) => r.id === BROKEN.breaks)!.checks.some((c) => c.failure?.code === BROKEN.code)).toBe(true)
  for (const [done, server] of [[passing, good], [failing, bad]] as const) {
    expect(done.result.problems).toEqual([])
    expect(origins(done.result)).toEqual([new URL(server.baseUrl).origin])
    expect(done.result.summary.requests).toBe(server.requests.length)
    expect(done.result.ledger.map((e) => e.id).sort()).toEqual(server.store.map((r) => String(r.id)).sort())
  }
  expect(passing.result.runId).not.toBe(failing.result.runId)

  // the reports are a separate step, each into its own folder
  const { writeRunReports } = await loadReports()
  for (const done of [passing, failing]) {
    const dir = mkdtempSync(join(tmpdir(), 'runs-apart-'))
    dirs.push(dir)
    const { reportFiles, summary } = writeRunReports(done, { workingDir: dir, reportDir: '.' }, {})
    expect(reportFiles.sort()).toEqual(['junit.xml', 'report.html', 'results.json', 'summary.md'])
    expect(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'))).toMatchObject({ runId: done.result.runId, verdict: done.result.verdict })
    expect(summary).toContain(done.result.runId)
    expect(summary).not.toContain(KEY)
  }
}, 60_000)

test("a rejection one run leaves unhandled is that run's problem, never the other's", async () => {
  const leaky: SuiteManifest = {
    declaredPosts: manifest.declaredPosts,
    loadSuites: async () => [
      ...(await manifest.loadSuites()),
      suite('leaks', () => {
        check('list-returns-200', 'starts a request it never awaits, which fails', async () => {
          void Promise.reject(new Error('left behind by the leaky run'))
        })
      }),
    ],
  }
  const [one, other] = await Promise.all([startReferenceServer({ apiKey: KEY }).then(started), startReferenceServer({ apiKey: KEY }).then(started)])
  const [leaked, clean] = await Promise.all([run(one, leaky), run(other)])
  expect(leaked.result.problems).toEqual([{ kind: 'suite-error', message: 'unexpected error in the suite: left behind by the leaky run' }])
  // an error of the suite is no verdict on the service: incomplete, not failed
  expect(leaked.result.verdict).toBe('incomplete')
  expect(clean.result.problems).toEqual([])
  expect(clean.result.verdict).toBe('pass')
  // nothing of either run is left listening in the process
  await new Promise((resolve) => setImmediate(resolve))
  expect(process.listeners('unhandledRejection').filter((l) => l.name === 'onUnhandledRejection')).toEqual([])
}, 60_000)
