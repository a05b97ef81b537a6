/**
 * The reusable GitHub Action (action.yml), run the way the runner runs a composite action
 * (action-runner.ts) from a copy of the repository, against servers on loopback: its outputs,
 * the job summary and annotations, the inputs reaching the run, and no input ever run as shell.
 * The install step's `npm ci` works from npm's cache (the tests never download).
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, test, type TestContext } from 'vitest'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { ROOT, runConformInProcess } from '../helpers/run-conform.ts'
import { scratchDir } from '../helpers/scratch-dir.ts'
import { readActionManifest, runCompositeAction, type ActionRun } from './action-runner.ts'
import { npmCacheDir } from './lockfile-registry.ts'
import { SLOW } from './pack.ts'
import { opensslMissing } from '../hostile/hostile-servers.ts'
import { makePki, mtlsFront, PASSPHRASE } from '../hostile/mutual-tls.ts'

const KEY = 'action-test-key-7d2e91c4b8a3'
let work: string
let actionPath: string
let passing: RunningServer
let failing: RunningServer

/** The repository as the runner downloads it for `uses: owner/repo@ref`: its files, no node_modules. */
function copyRepository(destination: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
  for (const file of files.split('\0').filter(Boolean)) {
    if (!existsSync(join(ROOT, file))) continue
    mkdirSync(dirname(join(destination, file)), { recursive: true })
    copyFileSync(join(ROOT, file), join(destination, file))
  }
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'conform-action-'))
  actionPath = join(work, '_actions', 'example', 'petstore-conformance', 'v1')
  copyRepository(actionPath)
  passing = await startReferenceServer({ apiKey: KEY })
  // a gateway that answers 403 where the interface says 401
  failing = await startReferenceServer({
    apiKey: KEY,
    behaviour: {
      finish: (reply) => (reply.status === 401 ? { ...reply, status: 403, body: { code: 'forbidden', message: 'no', status: 403 } } : reply),
    },
  })
}, 60_000)

afterAll(async () => {
  await passing?.close()
  await failing?.close()
  if (work) rmSync(work, { recursive: true, force: true })
})

let scenario = 0
/** One use of the action in a fresh workspace, as a job step `uses: example/petstore-conformance@v1`. */
async function useAction(ctx: TestContext, inputs: Record<string, string>, files: Record<string, string> = {}, stepEnv: Record<string, string> = {}): Promise<ActionRun & { workspace: string }> {
  scenario += 1
  const workspace = join(work, `workspace-${scenario}`)
  const runnerTemp = join(work, `runner-temp-${scenario}`)
  mkdirSync(workspace, { recursive: true })
  // what actions/checkout put there: the service's repository, its baseline file
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(workspace, name)), { recursive: true })
    writeFileSync(join(workspace, name), text)
  }
  mkdirSync(runnerTemp, { recursive: true })
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^CONFORM_|^GITHUB_|^RUNNER_|^npm_|^(HTTPS?|NO|ALL)_PROXY$/i.test(name)) env[name] = value
  }
  Object.assign(env, {
    npm_config_cache: npmCacheDir(),
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    // anything but loopback goes to a closed port: a step that reached out would fail
    HTTPS_PROXY: 'http://127.0.0.1:9',
    HTTP_PROXY: 'http://127.0.0.1:9',
    NO_PROXY: '127.0.0.1',
    // the `env:` of the step that uses the action (a composite action's steps inherit it): a targets entry's key
    ...stepEnv,
  })
  const run = await runCompositeAction({ actionPath, workspace, runnerTemp, inputs, env })
  const install = run.steps[0]
  const notCached = /ENOTCACHED[\s\S]*?request to (\S+) failed/.exec(install.stderr)
  if (install.code !== 0 && notCached) {
    const reason = `npm's cache lacks ${notCached[1]}: run \`npm ci\` first (the tests never download)`
    console.warn(`test/package/action.test.ts: skipped, ${reason}`)
    ctx.skip(reason)
  }
  expect(install.code, install.stderr).toBe(0)
  return { ...run, workspace }
}

function allOutput(run: ActionRun): string {
  return run.steps.map((s) => s.stdout + s.stderr).join('') + run.stepSummary
}

function reportFiles(dir: string): string {
  return readdirSync(dir)
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('')
}

describe('action.yml', () => {
  test('passes every input to its scripts through env, never as ${{ }} in a run: script', () => {
    const manifest = readActionManifest(ROOT)
    expect(manifest.runs.using).toBe('composite')
    for (const step of manifest.runs.steps) expect(step.run, step.name).not.toMatch(/\$\{\{/)
    expect(Object.keys(manifest.inputs).sort()).toEqual(['api-key', 'base-url', 'baseline', 'ca-cert', 'client-cert', 'client-key', 'client-key-passphrase', 'concurrency', 'list-lag', 'max-writes', 'rate-limit', 'read-only', 'report-dir', 'rules', 'targets'])
    expect(Object.keys(manifest.outputs).sort()).toEqual(['exit-code', 'report-dir', 'verdict'])
    const keyUses = manifest.runs.steps.flatMap((s) => Object.entries(s.env ?? {}).filter(([, value]) => /inputs\.api-key/.test(value)))
    expect(keyUses).toEqual([['CONFORM_API_KEY', '${{ inputs.api-key }}']])
  })

  test("the tables of docs/ci.md name every input and output of action.yml", () => {
    const manifest = readActionManifest(ROOT)
    const readme = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8')
    for (const name of [...Object.keys(manifest.inputs), ...Object.keys(manifest.outputs)]) expect(readme, name).toContain(`| \`${name}\` |`)
  })

  test('a conforming server: verdict pass, the reports, the job summary; the install prints no warning of ours', async (ctx) => {
    const run = await useAction(ctx, { 'base-url': passing.baseUrl, 'api-key': KEY })
    expect(run.result, allOutput(run)).toBe('success')
    expect(run.outputs).toEqual({ verdict: 'pass', 'exit-code': '0', 'report-dir': join(run.workspace, 'conformance-reports') })
    expect(readdirSync(run.outputs['report-dir']).sort()).toEqual(['journal.ndjson', 'junit.xml', 'report.html', 'results.json', 'summary.md'])
    expect(run.stepSummary).toContain(readFileSync(join(run.outputs['report-dir'], 'summary.md'), 'utf8'))
    expect(run.steps[1].stdout).toContain('Verdict: PASS (exit 0)')
    // warnings about the user's own npm configuration are not the project's
    const npmWarnings = run.steps[0].stderr.split('\n').filter((line) => /^npm warn/i.test(line) && !/user config/.test(line))
    expect(npmWarnings).toEqual([])
    expect(run.steps[0].stdout).toMatch(/added \d+ packages/)
    expect(allOutput(run) + reportFiles(run.outputs['report-dir'])).not.toContain(KEY)
  }, SLOW)

  test('a server that breaks a rule: the step fails, verdict fail, an annotation names the rule, outputs still set', async (ctx) => {
    const run = await useAction(ctx, { 'base-url': failing.baseUrl, 'api-key': KEY })
    // the second use in a job reuses the install of the first (the tests below rely on it too)
    expect(run.steps[0].stdout).toContain('conformance suite already installed')
    expect(run.result).toBe('failure')
    expect(run.outputs).toEqual({ verdict: 'fail', 'exit-code': '1', 'report-dir': join(run.workspace, 'conformance-reports') })
    expect(run.steps[1].stdout).toMatch(/^::error [^\n]*auth-missing-key-401/m)
    expect(run.stepSummary).toMatch(/FAIL/)
    const results = JSON.parse(readFileSync(join(run.outputs['report-dir'], 'results.json'), 'utf8')) as { verdict: string }
    expect(results.verdict).toBe('fail')
    expect(allOutput(run) + reportFiles(run.outputs['report-dir'])).not.toContain(KEY)
  }, SLOW)

  test('rules, max-writes, rate-limit, concurrency, list-lag and report-dir reach the run, and a folder name full of shell is only a name', async (ctx) => {
    const before = passing.requests.filter((r) => r.method === 'POST').length
    const reportDir = 'reports of $(touch pwned) `touch pwned-too`; touch pwned-three'
    const run = await useAction(ctx, {
      'base-url': passing.baseUrl,
      'api-key': KEY,
      rules: 'list-returns-200, create-returns-201\nauth-missing-key-401',
      'max-writes': '1',
      'rate-limit': '500',
      concurrency: '4',
      'list-lag': '1500',
      'report-dir': reportDir,
    })
    expect(run.result, allOutput(run)).toBe('success')
    expect(run.outputs).toEqual({ verdict: 'pass', 'exit-code': '0', 'report-dir': resolve(run.workspace, reportDir) })
    const results = JSON.parse(readFileSync(join(run.outputs['report-dir'], 'results.json'), 'utf8')) as {
      options: { rules: string[]; maxWrites: number; rateLimit?: number; concurrency?: number; listLagMs?: number }
    }
    expect(results.options).toMatchObject({ rules: ['list-returns-200', 'create-returns-201', 'auth-missing-key-401'], maxWrites: 1, rateLimit: 500, concurrency: 4, listLagMs: 1500 })
    expect(passing.requests.filter((r) => r.method === 'POST').length - before).toBeLessThanOrEqual(1)
    expect(readdirSync(run.workspace)).toEqual([reportDir])
    expect(readdirSync(actionPath).filter((name) => name.startsWith('pwned'))).toEqual([])
  }, SLOW)

  test.skipIf(opensslMissing() !== undefined)('mutual TLS: ca-cert, client-cert and an encrypted client-key of the workspace, the passphrase from a secret; the key and passphrase in no output', async (ctx) => {
    const pki = makePki()
    const front = await mtlsFront(pki, Number(new URL(passing.baseUrl).port), { demand: true })
    try {
      const files = { 'ca.pem': readFileSync(pki.caFile, 'utf8'), 'client.pem': readFileSync(pki.clientCertFile, 'utf8'), 'client.key': readFileSync(pki.encryptedKeyFile, 'utf8') }
      const run = await useAction(ctx, { 'base-url': front.baseUrl, 'api-key': KEY, 'ca-cert': 'ca.pem', 'client-cert': 'client.pem', 'client-key': 'client.key', 'client-key-passphrase': PASSPHRASE, rules: 'list-returns-200' }, files)
      expect(run.result, allOutput(run)).toBe('success')
      expect(run.outputs.verdict).toBe('pass')
      expect(front.subjects).toContain('conform-test-client')
      expect(allOutput(run) + reportFiles(run.outputs['report-dir'])).not.toContain(PASSPHRASE)
      expect(allOutput(run) + reportFiles(run.outputs['report-dir'])).not.toContain('PRIVATE KEY')
    } finally {
      await front.close()
      pki.cleanup()
    }
  }, SLOW)

  test("baseline: a file of the service's repository, relative to the workspace, lets the known deviation pass as known", async (ctx) => {
    // the team's day one: --update-baseline against the service as it is
    const file = join(scratchDir('conform-action-baseline-'), 'b.json')
    const day1 = await runConformInProcess(['--base-url', failing.baseUrl, '--baseline', file, '--update-baseline'], { env: { CONFORM_API_KEY: KEY } })
    try {
      expect(day1.code).toBe(0)
      const baseline = readFileSync(file, 'utf8')
      const run = await useAction(ctx, { 'base-url': failing.baseUrl, 'api-key': KEY, baseline: 'conform-baseline.json' }, { 'conform-baseline.json': baseline })
      expect(run.result, allOutput(run)).toBe('success')
      expect(run.outputs.verdict).toBe('pass')
      expect(run.steps[1].stdout).toMatch(/^::warning title=auth-missing-key-401 \(known failures%2C --baseline/m)
      // an entry of a rule excuses each of its checks that fails alike: as many known failures as day one excused
      expect(run.steps[1].stdout).toContain(`Baseline ${join(run.workspace, 'conform-baseline.json')}: ${day1.results!.baseline!.known.length} known failures excused`)
    } finally {
      day1.cleanup()
    }
  }, SLOW)

  test('read-only sends no POST', async (ctx) => {
    const before = passing.requests.filter((r) => r.method === 'POST').length
    const run = await useAction(ctx, { 'base-url': passing.baseUrl, 'api-key': KEY, 'read-only': 'true' })
    expect(run.result, allOutput(run)).toBe('success')
    expect(run.outputs.verdict).toBe('pass')
    expect(passing.requests.filter((r) => r.method === 'POST').length).toBe(before)
    const results = JSON.parse(readFileSync(join(run.outputs['report-dir'], 'results.json'), 'utf8')) as { options: { readOnly: boolean } }
    expect(results.options.readOnly).toBe(true)
  }, SLOW)

  test("targets: the deployments of a file of the workspace judged at once, each with the key its entry names (the step's env, or api-key as CONFORM_API_KEY); the fleet's page, outputs and annotations", async (ctx) => {
    const targets = `deployments:\n  - label: staging\n    baseUrl: ${passing.baseUrl}\n    apiKeyEnv: CONFORM_API_KEY\n  - label: gateway\n    baseUrl: ${failing.baseUrl}\n    apiKeyEnv: GATEWAY_KEY\n`
    const run = await useAction(ctx, { targets: 'deploy/targets.yaml', 'api-key': KEY, rules: 'auth-missing-key-401 list-returns-200' }, { 'deploy/targets.yaml': targets }, { GATEWAY_KEY: KEY })
    expect(run.result).toBe('failure')
    expect(run.outputs).toEqual({ verdict: 'fail', 'exit-code': '1', 'report-dir': join(run.workspace, 'conformance-reports') })
    expect(run.steps[1].stdout).toContain('Checking 2 deployments at once: staging, gateway.')
    expect(run.steps[1].stdout).toMatch(/^::error [^\n]*gateway[^\n]*auth-missing-key-401/m)
    const fleet = JSON.parse(readFileSync(join(run.outputs['report-dir'], 'fleet.json'), 'utf8')) as { deployments: { label: string; verdict: string; selectedRules?: string[] }[] }
    expect(fleet.deployments.map((d) => [d.label, d.verdict])).toEqual([['staging', 'pass'], ['gateway', 'fail']])
    // the fleet's page, its report links as text (a relative link on the job summary leads nowhere)
    expect(run.stepSummary).toContain((readFileSync(join(run.outputs['report-dir'], 'fleet.md'), 'utf8').split('\n')[0]))
    expect(run.stepSummary).toContain('| gateway/report.html |')
    expect(allOutput(run) + reportFiles(join(run.outputs['report-dir'], 'staging'))).not.toContain(KEY)
  }, SLOW)

  test('targets beside base-url is refused by the command line; neither is refused by the action, never a check of the embedded server', async (ctx) => {
    const both = await useAction(ctx, { targets: 'targets.yaml', 'base-url': passing.baseUrl, 'api-key': KEY }, { 'targets.yaml': `deployments:\n  - baseUrl: ${passing.baseUrl}\n    apiKeyEnv: CONFORM_API_KEY\n` })
    expect(both.outputs).toMatchObject({ verdict: 'error', 'exit-code': '2' })
    expect(both.steps[1].stderr).toContain('give --targets FILE or --base-url, not both')
    const neither = await useAction(ctx, { 'api-key': KEY })
    expect(neither.result).toBe('failure')
    expect(neither.outputs).toMatchObject({ verdict: 'error', 'exit-code': '2' })
    expect(neither.steps[1].stdout).toMatch(/^::error title=conformance run could not be made::give base-url .* or targets/m)
    expect(allOutput(neither)).not.toContain('embedded reference server at')
  }, SLOW)

  test('a base URL that is shell code is refused as a URL (verdict error, exit 2), never run', async (ctx) => {
    const run = await useAction(ctx, { 'base-url': 'https://x.example/v1"; touch pwned; echo "$(touch pwned-too)', 'api-key': KEY })
    expect(run.result).toBe('failure')
    expect(run.outputs).toMatchObject({ verdict: 'error', 'exit-code': '2' })
    expect(run.steps[1].stdout).toMatch(/^::error title=conformance run could not be made/m)
    expect(readdirSync(run.workspace).filter((name) => name.startsWith('pwned'))).toEqual([])
  }, SLOW)
})
