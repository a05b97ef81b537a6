/**
 * `--dry-run` sends nothing to the base URL (a server that counts its connections, and a proxy
 * that does, get none), and shows the requests the run these options ask for sends: the same ones
 * a real run with the same --seed sends to a conforming server, the key never shown, the POSTs
 * within --max-writes and none under --read-only.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createServer, type AddressInfo, type Server } from 'node:net'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import type { DryRunPlan } from '../../lib/reporters/dry-run.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { RUN_TIMEOUT_MS } from '../hostile/expect-run.ts'

const KEY = 'dry-run-key-5c1e9a7b3d'
let connections = 0
const counting: Server = createServer((socket) => {
  connections++
  socket.destroy()
})
const runs: ConformRun[] = []
const servers: RunningServer[] = []
afterAll(async () => {
  runs.forEach((r) => r.cleanup())
  await Promise.all(servers.map((s) => s.close()))
  await new Promise((resolve) => counting.close(resolve))
})

async function countingUrl(): Promise<string> {
  if (!counting.listening) await new Promise<void>((resolve) => counting.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(counting.address() as AddressInfo).port}`
}

async function dryRun(...args: string[]): Promise<{ run: ConformRun; plan: DryRunPlan }> {
  const origin = await countingUrl()
  // a proxy at the same counting port: the dry run's requests go through none either
  const run = await runConformInProcess(['--base-url', `${origin}/v1`, '--dry-run', ...args], { env: { CONFORM_API_KEY: KEY, HTTP_PROXY: origin, HTTPS_PROXY: origin } })
  runs.push(run)
  const plan = JSON.parse(readFileSync(join(run.reportDir, 'dry-run.json'), 'utf8')) as DryRunPlan
  return { run, plan }
}

/** A request with what differs between runs made alike: the run's prefix and id, ids in paths, the trace context. */
const normalized = (method: string, url: string, probe: string | undefined, body: string | undefined) =>
  [method, new URL(url).pathname.replace(/\/categories\/[^/?]+/, '/categories/ID'), probe ?? '', (body ?? '').replace(/cf-[a-z0-9]{5}-/g, 'cf-RUN-')].join(' ')

describe('--dry-run', () => {
  test(
    'sends nothing to the base URL or the proxy, and lists the POSTs --max-writes allows, each with its headers and body, the key as $CONFORM_API_KEY',
    async () => {
      const { run, plan } = await dryRun('--max-writes', '5', '--seed', '7')
      expect(run.code, run.stderr).toBe(0)
      expect(connections).toBe(0)
      const posts = plan.requests.filter((r) => r.method === 'POST')
      expect(posts).toHaveLength(5)
      expect(plan.requests.every((r) => r.url.startsWith(`${plan.baseUrl}/`))).toBe(true)
      expect(posts.every((r) => r.probe !== undefined && Object.keys(r.headers).length > 0)).toBe(true)
      expect(plan.requests.some((r) => r.headers.authorization === 'Bearer $CONFORM_API_KEY')).toBe(true)
      expect(plan.keptBack.length).toBeGreaterThan(0)
      expect(plan.unverified.map((u) => u.rule)).toContain('create-rejects-missing-body')
      const md = readFileSync(join(run.reportDir, 'dry-run.md'), 'utf8')
      for (const text of [run.stdout, run.stderr, md, JSON.stringify(plan)]) expect(text).not.toContain(KEY)
      expect(run.stdout).toContain('Dry run: nothing was sent to')
      expect(run.stdout).toMatch(/Requests: \d+ \(5 POSTs, \d+ GETs\)/)
      // the run's reports are not written: a dry run is no verdict
      expect(run.files['results.json']).toBeUndefined()
      expect(run.files['journal.ndjson']).toBeUndefined()
    },
    RUN_TIMEOUT_MS,
  )

  test(
    'lists what a real run with the same options and --seed sends to a conforming server',
    async () => {
      const { plan } = await dryRun('--max-writes', '6', '--seed', '11', '--confirm', '0')
      const server = await startReferenceServer({ apiKey: KEY })
      servers.push(server)
      const real = await runConformInProcess(['--base-url', server.baseUrl, '--max-writes', '6', '--seed', '11', '--confirm', '0'], { env: { CONFORM_API_KEY: KEY } })
      runs.push(real)
      expect(real.code, real.stdout).toBe(0)
      const sent = real.results!.journal!.filter((e) => e.outcome !== 'refused').map((e) => normalized(e.method, e.url, e.probe, e.body)).sort()
      const planned = plan.requests.map((r) => normalized(r.method, r.url, r.probe, r.body)).sort()
      expect(planned).toEqual(sent)
      expect(connections).toBe(0)
    },
    2 * RUN_TIMEOUT_MS,
  )

  test(
    '--read-only: no POST, every creating rule named as not verified; a later run removes the plan from the folder',
    async () => {
      const { run, plan } = await dryRun('--read-only')
      expect(run.code).toBe(0)
      expect(plan.requests.filter((r) => r.method === 'POST')).toHaveLength(0)
      expect(plan.requests.length).toBeGreaterThan(50)
      expect(plan.unverified.map((u) => u.rule)).toEqual(expect.arrayContaining(['create-returns-201', 'create-rejects-invalid-json']))
      expect(run.stdout).toContain('Writes: none (--read-only)')
      expect(connections).toBe(0)
      writeFileSync(join(run.reportDir, 'results.json'), '{}')
      const { clearRunFolder } = await import('../../lib/runner/report-files.ts')
      clearRunFolder(run.reportDir)
      expect(existsSync(join(run.reportDir, 'dry-run.json'))).toBe(false)
      expect(existsSync(join(run.reportDir, 'dry-run.md'))).toBe(false)
    },
    RUN_TIMEOUT_MS,
  )

  test(
    'a key in the base path is shown redacted, and the requests at the base URL, not the loopback address',
    async () => {
      const origin = await countingUrl()
      const run = await runConformInProcess(['--base-url', `${origin}/tenants/${KEY}/v1`, '--dry-run', '--read-only', '--rule', 'list-returns-200'], { env: { CONFORM_API_KEY: KEY } })
      runs.push(run)
      expect(run.code, run.stderr).toBe(0)
      const plan = JSON.parse(readFileSync(join(run.reportDir, 'dry-run.json'), 'utf8')) as DryRunPlan
      const md = readFileSync(join(run.reportDir, 'dry-run.md'), 'utf8')
      // before: the base URL whole in all three, and each request at http://127.0.0.1:PORT/tenants/[REDACTED]/v1
      for (const text of [run.stdout, md, JSON.stringify(plan)]) expect(text).not.toContain(KEY)
      expect(plan.requests.length).toBeGreaterThan(0)
      expect(plan.requests.every((r) => r.url.startsWith(`${plan.baseUrl}/`) && r.url.startsWith(origin))).toBe(true)
      expect(connections).toBe(0)
    },
    RUN_TIMEOUT_MS,
  )

  test(
    "dry-run.json holds no character a terminal acts on: the suite's own bodies (C1 controls, bidi overrides) as JSON escapes; what depends on the run id and the answers said",
    async () => {
      const { run, plan } = await dryRun('--seed', '5', '--confirm', '0')
      expect(run.code, run.stderr).toBe(0)
      expect(plan.requests.some((r) => /[\u007f-\u009f\u202e]/.test(r.body ?? ''))).toBe(true)
      // the one body whose value is the run id's, not the seed's: said, or a real run with --seed 5 differed in it unannounced
      const digits = (JSON.parse(plan.requests.find((r) => r.probe === 'create-numeric-name')!.body!) as { name: string }).name
      expect(plan.dependsOnAnswers[0]).toContain(`(the name of digits, "${digits}" here, is those five characters read as a number: it differs too)`)
      // a create answered far later than the others brings one more list (--list-lag), a GET the plan does not show
      expect(plan.dependsOnAnswers.join(' ')).toContain('once more --list-lag after the last create was answered when one create took far longer than the others')
      expect(readFileSync(join(run.reportDir, 'dry-run.json'), 'utf8')).not.toMatch(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/)
    },
    RUN_TIMEOUT_MS,
  )

  test(
    'a base URL whose path holds the key shows it nowhere: the terminal, dry-run.md and dry-run.json redacted as a run\'s reports are',
    async () => {
      const origin = await countingUrl()
      const run = await runConformInProcess(['--base-url', `${origin}/t/${KEY}/v1`, '--dry-run', '--read-only'], { env: { CONFORM_API_KEY: KEY } })
      runs.push(run)
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout).toContain('/t/[REDACTED]/v1')
      for (const text of [run.stdout, run.stderr, ...['dry-run.md', 'dry-run.json'].map((file) => readFileSync(join(run.reportDir, file), 'utf8'))]) expect(text).not.toContain(KEY)
      expect(connections).toBe(0)
    },
    RUN_TIMEOUT_MS,
  )

  test('an option it cannot read leaves the reports of an earlier run in --report-dir as they are', async () => {
    const origin = await countingUrl()
    const folder = mkdtempSync(join(tmpdir(), 'dry-run-earlier-'))
    writeFileSync(join(folder, 'results.json'), '{"verdict":"pass"}')
    const run = await runConformInProcess(['--base-url', `${origin}/v1`, '--dry-run', '--max-writes', '-1', '--report-dir', folder], { env: { CONFORM_API_KEY: KEY } })
    runs.push(run)
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('max-writes')
    // before: the earlier run's results.json, the verdict of a run that was made, was replaced by a run that could not be
    expect(readdirSync(folder)).toEqual(['results.json'])
    expect(readFileSync(join(folder, 'results.json'), 'utf8')).toBe('{"verdict":"pass"}')
    rmSync(folder, { recursive: true, force: true })
  })

  test('--update-baseline: says it writes no baseline, and leaves the file as it is', async () => {
    const origin = await countingUrl()
    const folder = mkdtempSync(join(tmpdir(), 'dry-run-baseline-'))
    const baseline = join(folder, 'baseline.json')
    writeFileSync(baseline, '{"knownFailures": []}\n')
    const run = await runConformInProcess(['--base-url', `${origin}/v1`, '--dry-run', '--read-only', '--rule', 'list-returns-200', '--baseline', baseline, '--update-baseline'], { env: { CONFORM_API_KEY: KEY } })
    runs.push(run)
    expect(run.code, run.stderr).toBe(0)
    // before: nothing said, the option silently of no effect
    expect(run.stderr).toContain('a dry run judges nothing and writes no baseline')
    expect(readFileSync(baseline, 'utf8')).toBe('{"knownFailures": []}\n')
    expect(connections).toBe(0)
    rmSync(folder, { recursive: true, force: true })
  })

  test('is refused beside several deployments, before anything is sent', async () => {
    const origin = await countingUrl()
    const run = await runConformInProcess(['--base-url', `${origin}/v1`, '--base-url', `${origin}/b/v1`, '--dry-run'], { env: { CONFORM_API_KEY: KEY } })
    runs.push(run)
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('--dry-run shows the requests of one deployment')
    expect(connections).toBe(0)
  })
})
