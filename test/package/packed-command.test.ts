/**
 * Installed like any other command: `npm pack`, then `npx ./<tarball>` in an empty folder, with
 * npm resolving and installing the dependencies itself (from a loopback registry that serves the
 * lockfile's versions out of npm's cache: lockfile-registry.ts says why), against a server on
 * loopback. Reports land where the user stands.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, test, type TestContext } from 'vitest'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { ROOT } from '../helpers/run-conform.ts'
import { startLockfileRegistry, type LockfileRegistry } from './lockfile-registry.ts'
import { packProject, SLOW, type Packed } from './pack.ts'

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; bin: Record<string, string> }
const API_KEY = 'packed-command-key-4f1c2a9e7b'

let work: string
let userFolder: string
let npmCache: string
let packed: Packed
let registry: LockfileRegistry
let server: RunningServer

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'conform-package-'))
  userFolder = join(work, 'empty-folder')
  npmCache = join(work, 'npm-cache')
  packed = packProject(work)
  registry = await startLockfileRegistry(join(ROOT, 'package-lock.json'))
  server = await startReferenceServer({ apiKey: API_KEY })
}, 60_000)

afterAll(async () => {
  await server?.close()
  await registry?.close()
  if (work) rmSync(work, { recursive: true, force: true })
})

interface Npx {
  code: number | null
  stdout: string
  stderr: string
}

/** `npx ./<tarball> ARGS` in the user's folder; npm may reach only the loopback registry. */
async function npxTarball(args: string[], env: Record<string, string> = {}): Promise<Npx> {
  mkdirSync(userFolder, { recursive: true })
  const spec = relative(userFolder, packed.tarball)
  const childEnv: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (/^CONFORM_|^GITHUB_|^npm_/i.test(name)) continue
    childEnv[name] = value
  }
  Object.assign(childEnv, {
    npm_config_registry: registry.url,
    npm_config_cache: npmCache,
    npm_config_yes: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    // anything but the loopback registry goes to a closed port: a test that reached out would fail
    HTTPS_PROXY: 'http://127.0.0.1:9',
    HTTP_PROXY: 'http://127.0.0.1:9',
    NO_PROXY: '127.0.0.1',
    ...env,
  })
  const child = spawn('npx', [spec.startsWith('.') ? spec : `./${spec}`, ...args], { cwd: userFolder, env: childEnv })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const killer = setTimeout(() => child.kill('SIGKILL'), 200_000)
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  clearTimeout(killer)
  return { code, stdout, stderr }
}

/** Skips, naming the package, when npm's cache truly lacks a tarball the install needs. */
function skipIfCacheLacks(ctx: TestContext, run: Npx): void {
  if (run.code !== 0 && registry.missing.length > 0) {
    const reason = `npm's cache lacks ${registry.missing.join(', ')}: run \`npm ci\` first (the tests never download)`
    console.warn(`test/package/packed-command.test.ts: skipped, ${reason}`)
    ctx.skip(reason)
  }
}

describe('npm pack', () => {
  test('holds what a run needs, an executable entry and the license, and not the self-tests', () => {
    const paths = packed.files.map((f) => f.path)
    for (const needed of ['package.json', 'LICENSE', 'README.md', 'spec/rules.yaml', 'spec/openapi.yaml', 'lib/cli/conform.ts', 'lib/server/reference-server.ts']) {
      expect(paths, needed).toContain(needed)
    }
    expect(paths.filter((p) => p.startsWith('suites/')).length).toBeGreaterThan(3)
    for (const entry of Object.values(pkg.bin)) {
      const file = packed.files.find((f) => f.path === entry)
      expect(file, entry).toBeDefined()
      expect(file!.mode & 0o111, `${entry} is executable`).toBe(0o111)
      expect(readFileSync(join(ROOT, entry), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/)
    }
    const selfTests = paths.filter((p) => /^(test|scripts|\.ci)\/|^lib\/server\/(mutations|variants|server-cases)|^lib\/cli\/serve|^vitest\.config|^reports\//.test(p))
    expect(selfTests).toEqual([])
  })
})

describe('npx ./<tarball> in an empty folder', () => {
  test('--version prints the package version and exits 0', async (ctx) => {
    const run = await npxTarball(['--version'])
    skipIfCacheLacks(ctx, run)
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toBe(`${pkg.version}\n`)
    expect(registry.missing).toEqual([])
  }, SLOW)

  test('checks a server on loopback, exits 0, and writes the reports where the user stands', async (ctx) => {
    const run = await npxTarball(['--base-url', `${server.baseUrl}`], { CONFORM_API_KEY: API_KEY })
    skipIfCacheLacks(ctx, run)
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toContain('Verdict: PASS (exit 0)')
    expect(run.stdout).toContain('Reports: reports/report.html')
    expect(run.stdout + run.stderr).not.toContain(API_KEY)
    expect(readdirSync(userFolder)).toEqual(['reports'])
    expect(readdirSync(join(userFolder, 'reports')).sort()).toEqual(['journal.ndjson', 'junit.xml', 'report.html', 'results.json', 'summary.md'])
    const results = JSON.parse(readFileSync(join(userFolder, 'reports', 'results.json'), 'utf8')) as { verdict: string; baseUrl: string }
    expect(results).toMatchObject({ verdict: 'pass', baseUrl: server.baseUrl })
    // the installed package itself stays as it was unpacked
    const installed = readdirSync(join(npmCache, '_npx')).map((dir) => join(npmCache, '_npx', dir, 'node_modules', pkg.name))
    expect(installed.filter((dir) => existsSync(dir))).toHaveLength(1)
    for (const dir of installed) expect(existsSync(join(dir, 'reports'))).toBe(false)
  }, SLOW)
})
