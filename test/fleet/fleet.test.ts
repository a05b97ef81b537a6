/**
 * Several deployments in one command (issue 29): three reference servers, one of them with a broken
 * rule, judged at once from a targets file, each with its own key. The fleet exits 1 and names the
 * failing deployment and rule; each deployment has its own reports; each server received its own
 * key and no other; no key appears in any output; `merge` of the three folders gives the same
 * verdict. Bad entries stop the run with exit 2 and one line, before any request. Whole runs go
 * through the command line's main() in this process (test/helpers/run-conform.ts).
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { FleetResult } from '../../lib/fleet/fleet-result.ts'
import { mergeMain } from '../../lib/cli/merge.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { canaryKey, fleetServer, type FleetServer } from './fleet-servers.ts'
import { filesUnder, keyLeaks } from '../helpers/key-leaks.ts'
import type { ServerCase } from '../../lib/server/server-cases.ts'

const RUN_TIMEOUT_MS = 60_000
const broken = MUTATIONS.find((m) => m.name === 'error-status-always-400')!
const scratch = mkdtempSync(join(tmpdir(), 'conform-fleet-'))
const servers: FleetServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  rmSync(scratch, { recursive: true, force: true })
  await Promise.all(servers.map((s) => s.server.close()))
})

/** `petstore-conform merge ARGS`: its exit code and output. */
function merge(args: string[]): { code: number; stdout: string; stderr: string } {
  let stdout = ''
  let stderr = ''
  const code = mergeMain(args, { out: (t) => void (stdout += t), err: (t) => void (stderr += t) }, scratch, {})
  return { code, stdout, stderr }
}

const readJson = <T>(path: string) => JSON.parse(readFileSync(path, 'utf8')) as T

describe('three deployments from a targets file, one with a broken rule', { timeout: RUN_TIMEOUT_MS }, () => {
  let eu: FleetServer, us: FleetServer, staging: FleetServer
  let run: ConformRun
  let fleet: FleetResult
  const summaryFile = join(scratch, 'step-summary.md')

  beforeAll(async () => {
    ;[eu, us, staging] = await Promise.all([fleetServer(), fleetServer(), fleetServer(broken)])
    servers.push(eu, us, staging)
    const targets = join(scratch, 'targets.yaml')
    writeFileSync(
      targets,
      `# the deployments of one gate
deployments:
  - label: eu-production
    baseUrl: ${eu.server.baseUrl}
    apiKeyEnv: PETSTORE_EU_KEY
  - label: us-production
    baseUrl: ${us.server.baseUrl}/
    apiKeyEnv: PETSTORE_US_KEY
  - baseUrl: ${staging.server.baseUrl}
    apiKeyEnv: PETSTORE_STAGING_KEY
`,
    )
    writeFileSync(summaryFile, '')
    const env = { PETSTORE_EU_KEY: eu.key, PETSTORE_US_KEY: us.key, PETSTORE_STAGING_KEY: staging.key, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile }
    run = await runConformInProcess(['--targets', targets, '--seed', '1'], { env })
    runs.push(run)
    fleet = readJson<FleetResult>(join(run.reportDir, 'fleet.json'))
  }, RUN_TIMEOUT_MS)

  const stagingLabel = () => `127.0.0.1-${new URL(staging.server.baseUrl).port}-v1`

  test('exit 1; fleet.json names the failing deployment and its rule, the others pass', () => {
    expect(run.code, run.stderr + run.stdout).toBe(1)
    expect(fleet.exitCode).toBe(1)
    expect(fleet.deployments.map((d) => [d.label, d.exitCode, d.failedRules])).toEqual([
      ['eu-production', 0, []],
      ['us-production', 0, []],
      [stagingLabel(), 1, [broken.breaks]],
    ])
    // the base URL as given, trailing slash and all
    expect(fleet.deployments[1]?.baseUrl).toBe(`${us.server.baseUrl}/`)
  })

  test('each deployment has its own reports in <report-dir>/<label>/, of its own base URL', () => {
    for (const [label, server] of [['eu-production', eu], ['us-production', us], [stagingLabel(), staging]] as const) {
      const results = readJson<{ baseUrl: string; exitCode: number }>(join(run.reportDir, label, 'results.json'))
      expect(results.baseUrl).toBe(server.server.baseUrl)
      for (const file of ['junit.xml', 'report.html', 'summary.md']) expect(filesUnder(join(run.reportDir, label))).toHaveProperty(file)
    }
  })

  test('its reproduce commands say which variable its key came from: CONFORM_API_KEY may hold another deployment\'s', () => {
    const summary = readFileSync(join(run.reportDir, stagingLabel(), 'summary.md'), 'utf8')
    expect(summary).toContain('with `CONFORM_API_KEY` set to this deployment\'s key: `CONFORM_API_KEY="$PETSTORE_STAGING_KEY"`')
    const html = readFileSync(join(run.reportDir, stagingLabel(), 'report.html'), 'utf8')
    expect(html).toContain('Run the curl commands with CONFORM_API_KEY set to this deployment&#39;s key: CONFORM_API_KEY=&quot;$PETSTORE_STAGING_KEY&quot;')
  })

  test('each server received its own key, and never another deployment\'s', () => {
    for (const own of [eu, us, staging]) {
      expect(own.authorizations).toContain(`Bearer ${own.key}`)
      const others = [eu, us, staging].filter((s) => s !== own).map((s) => s.key)
      const received = own.authorizations.filter((a): a is string => a !== undefined).join('\n')
      expect(keyLeaks({ received }, others)).toEqual([])
    }
  })

  test('the terminal: one line per deployment, then the fleet verdict; under GitHub Actions an annotation for the failure and the summary in the job summary', () => {
    const lines = run.stdout.split('\n')
    expect(lines.filter((l) => /^(PASS|FAIL|NOT JUDGED) /.test(l))).toHaveLength(3)
    expect(run.stdout).toMatch(new RegExp(`^FAIL +${stagingLabel().replace(/\./g, '\\.')} .*failed: ${broken.breaks}$`, 'm'))
    expect(run.stdout).toMatch(/^Fleet: FAIL \(exit 1\): 2 of 3 passed; 1 failed/m)
    expect(run.stdout).toMatch(new RegExp(`^::error title=${stagingLabel()}%3A conformance failed::`, 'm'))
    // the lines that quote base URLs are shielded from command processing
    expect(run.stdout).toMatch(/^::stop-commands::(conform-[0-9a-f]+)\n[\s\S]*^::\1::$/m)
    const summary = readFileSync(summaryFile, 'utf8')
    expect(summary).toContain('Pet Store categories conformance: 3 deployments')
    expect(summary).toContain('### Rules by deployment')
  })

  test('fleet.md and fleet.html: a deployment × rule matrix, each deployment linking its report; junit.xml: one testsuite per deployment', () => {
    const md = readFileSync(join(run.reportDir, 'fleet.md'), 'utf8')
    const html = readFileSync(join(run.reportDir, 'fleet.html'), 'utf8')
    for (const label of ['eu-production', 'us-production', stagingLabel()]) {
      expect(md).toContain(`](${label}/report.html)`)
      expect(html).toContain(`<a href="${label}/report.html">${label}</a>`)
    }
    expect(md).toMatch(new RegExp(`^\\| ${broken.breaks.replace(/-/g, '\\-')} \\(must\\) \\| pass \\| pass \\| \\*\\*FAIL\\*\\* \\|$`, 'm'))
    const junit = readFileSync(join(run.reportDir, 'junit.xml'), 'utf8')
    expect([...junit.matchAll(/<testsuite name="([^"]+)"/g)].map((m) => m[1])).toEqual(['eu-production', 'us-production', stagingLabel()])
    expect(junit).toContain(`classname="${stagingLabel()}.${broken.breaks}"`)
  })

  test('no key, in any form, in any output or report', () => {
    const texts = { stdout: run.stdout, stderr: run.stderr, 'job summary': readFileSync(summaryFile, 'latin1'), ...filesUnder(run.reportDir) }
    expect(Object.keys(texts).length).toBeGreaterThan(15)
    expect(keyLeaks(texts, [eu.key, us.key, staging.key])).toEqual([])
  })

  test('merge of the three report folders gives the same verdicts and exit code', async () => {
    const out = join(scratch, 'merged')
    const labels = fleet.deployments.map((d) => d.label)
    const merged = merge([...labels.map((label) => join(run.reportDir, label)), '--report-dir', out])
    expect(merged.code, merged.stderr).toBe(1)
    expect(merged.stdout).toMatch(/^Fleet: FAIL \(exit 1\): 2 of 3 passed; 1 failed/m)
    const again = readJson<FleetResult>(join(out, 'fleet.json'))
    const verdicts = (f: FleetResult) => ({ exitCode: f.exitCode, verdict: f.verdict, deployments: f.deployments.map((d) => [d.label, d.verdict, d.exitCode, d.failedRules, d.rules]) })
    expect(verdicts(again)).toEqual(verdicts(fleet))
    // the links lead from the merged page to each folder's report.html
    expect(again.deployments[0]?.report).toBe(relative(out, join(run.reportDir, 'eu-production', 'report.html')))
    // the fleet's own folder merges too, into itself (its files are skipped), with the same verdict
    expect(merge([run.reportDir, '--report-dir', join(scratch, 'of-a-fleet')]).code).toBe(1)
    expect(verdicts(readJson<FleetResult>(join(scratch, 'of-a-fleet', 'fleet.json')))).toEqual(verdicts(fleet))
  })

  test('where each deployment\'s records went: its POSTs, its records and their prefix, in fleet.json, the terminal and fleet.md, and again after merge', () => {
    for (const d of fleet.deployments) {
      const results = readJson<{ runId: string; summary: { writes: number }; ledger: unknown[] }>(join(run.reportDir, d.label, 'results.json'))
      expect(results.ledger.length).toBeGreaterThan(0)
      const prefix = `cf-${results.runId.slice(-5)}-`
      expect(d.writes).toMatchObject({ readOnly: false, posts: results.summary.writes, recordsCreated: results.ledger.length })
      expect(d.writes?.prefixes[0]).toBe(prefix)
      const words = `${results.summary.writes} POSTs sent; ${results.ledger.length} records created (prefix${d.writes!.prefixes.length > 1 ? 'es' : ''} ${d.writes!.prefixes.join(', ')}; listed in its report)`
      expect(run.stdout).toContain(`Writes: ${d.label}: ${words}`)
      expect(readFileSync(join(run.reportDir, 'fleet.md'), 'utf8')).toContain(`| ${words.replace(/[()]/g, '\\$&')} |`)
      expect(readFileSync(join(run.reportDir, 'fleet.html'), 'utf8')).toContain(`<td>${words}</td>`)
    }
    const merged = merge([...fleet.deployments.map((d) => join(run.reportDir, d.label)), '--report-dir', join(scratch, 'merged-writes')])
    expect(readJson<FleetResult>(join(scratch, 'merged-writes', 'fleet.json')).deployments.map((d) => d.writes)).toEqual(fleet.deployments.map((d) => d.writes))
    expect(merged.stdout).toContain(`Writes: eu-production: `)
  })

  test('merge of a shell pattern that matched nothing says so, not that its name is no label', () => {
    const nothing = merge([join(scratch, 'artifacts-never-uploaded', '*') + '/', '--report-dir', join(scratch, 'nothing')])
    expect(nothing.code).toBe(2)
    expect(nothing.stderr).toMatch(/artifacts-never-uploaded\/\*\/ is no folder \(a pattern that matched nothing: did the jobs upload their reports\?\)/)
  })
})

describe('--base-url given twice: two deployments of one account, sharing its key', { timeout: RUN_TIMEOUT_MS }, () => {
  test('both judged with the one key of CONFORM_API_KEY, labelled by host, port and path; exit 0', async () => {
    const key = canaryKey()
    const [a, b] = await Promise.all([fleetServer(undefined, key), fleetServer(undefined, key)])
    servers.push(a, b)
    const run = await runConformInProcess(['--base-url', a.server.baseUrl, '--base-url', b.server.baseUrl, '--rule', 'list-returns-200', '--rule', 'auth-invalid-key-401'], { env: { CONFORM_API_KEY: key } })
    runs.push(run)
    expect(run.code, run.stderr + run.stdout).toBe(0)
    const fleet = readJson<FleetResult>(join(run.reportDir, 'fleet.json'))
    const label = (s: FleetServer) => `127.0.0.1-${new URL(s.server.baseUrl).port}-v1`
    expect(fleet.deployments.map((d) => [d.label, d.verdict, d.exitCode])).toEqual([
      [label(a), 'pass', 0],
      [label(b), 'pass', 0],
    ])
    expect(run.stdout).toMatch(/^Fleet: PASS \(exit 0\): 2 of 2 passed \(each with must-rules not verified\)$/m)
    for (const s of [a, b]) expect(s.authorizations).toContain(`Bearer ${key}`)
    expect(keyLeaks({ stdout: run.stdout, stderr: run.stderr, ...filesUnder(run.reportDir) }, [key])).toEqual([])
  })
})

describe("a deployment given another's key, whose server names the key it expected", { timeout: RUN_TIMEOUT_MS }, () => {
  test("neither key shows in any deployment's reports: each is redacted with every key of the fleet", async () => {
    const expected = canaryKey()
    // one service of two tenants, whose 401 says which key it wanted (a debug message left in)
    const namesItsKey: ServerCase = {
      name: 'names-the-expected-key',
      description: 'a 401 names the key the service expected',
      behaviour: { finish: (reply) => (reply.status === 401 ? { ...reply, body: { code: 'unauthorized', message: `expected Bearer ${expected}`, status: 401 } } : reply) },
    }
    const shared = await fleetServer(namesItsKey, expected)
    servers.push(shared)
    const wrong = canaryKey()
    const targets = join(scratch, 'two-tenants.yaml')
    writeFileSync(targets, `deployments:\n  - label: right\n    baseUrl: ${shared.server.baseUrl}\n    apiKeyEnv: RIGHT_KEY\n  - label: wrong\n    baseUrl: ${shared.server.baseUrl}\n    apiKeyEnv: WRONG_KEY\n`)
    const run = await runConformInProcess(['--targets', targets, '--rule', 'list-returns-200', '--rule', 'auth-invalid-key-401'], { env: { RIGHT_KEY: expected, WRONG_KEY: wrong } })
    runs.push(run)
    // the server did name the key to the deployment that sent the wrong one
    expect(shared.authorizations).toContain(`Bearer ${wrong}`)
    expect(keyLeaks({ stdout: run.stdout, stderr: run.stderr, ...filesUnder(run.reportDir) }, [expected, wrong])).toEqual([])
    expect(readFileSync(join(run.reportDir, 'wrong', 'results.json'), 'utf8')).toContain('expected Bearer [REDACTED]')
  })
})

describe('two keys of the fleet, one the start of the other, whose server names the longer', { timeout: RUN_TIMEOUT_MS }, () => {
  test("the longer is hidden whole in the shorter's evidence, not only the shorter's part of it", async () => {
    // a tenant's key made of the account's key and a suffix, shorter than the runs of a key hidden wherever they are (lib/http/secret-runs.ts)
    const shorter = canaryKey()
    const tail = `-${randomBytes(3).toString('hex')}`
    const longer = `${shorter}${tail}`
    // a 401 that names the key the service wanted; the evidence of the deployment whose key is its start was redacted with that key alone, and kept the rest
    const namesItsKey: ServerCase = {
      name: 'names-the-expected-key',
      description: 'a 401 names the key the service expected, in its body and a header',
      behaviour: { finish: (reply) => (reply.status === 401 ? { ...reply, headers: { ...reply.headers, 'x-expected-key': longer }, body: { code: 'unauthorized', message: `expected Bearer ${longer}`, status: 401 } } : reply) },
    }
    const shared = await fleetServer(namesItsKey, longer)
    servers.push(shared)
    const targets = join(scratch, 'prefix-keys.yaml')
    writeFileSync(targets, `deployments:\n  - label: longer\n    baseUrl: ${shared.server.baseUrl}\n    apiKeyEnv: LONGER_KEY\n  - label: shorter\n    baseUrl: ${shared.server.baseUrl}\n    apiKeyEnv: SHORTER_KEY\n`)
    const run = await runConformInProcess(['--targets', targets], { env: { LONGER_KEY: longer, SHORTER_KEY: shorter } })
    runs.push(run)
    expect(shared.authorizations).toContain(`Bearer ${shorter}`)
    const texts = { stdout: run.stdout, stderr: run.stderr, ...filesUnder(run.reportDir) }
    expect(readFileSync(join(run.reportDir, 'shorter', 'results.json'), 'utf8')).toContain('expected Bearer [REDACTED]')
    expect(Object.entries(texts).filter(([, text]) => text.includes(tail)).map(([where]) => where)).toEqual([])
    expect(keyLeaks(texts, [longer, shorter])).toEqual([])
  })
})
