/**
 * Installed like any other command: `npm pack`, then `npx ./<tarball>` in an empty folder (and,
 * as a library, `npm install <tarball> vitest` with a two-line test file), with
 * npm resolving and installing the dependencies itself (from a loopback registry that serves the
 * lockfile's versions out of npm's cache: lockfile-registry.ts says why), against a server on
 * loopback. Reports land where the user stands.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, test, type TestContext } from 'vitest'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { ruleCatalogue } from '../../lib/spec/rule-catalogue.ts'
import { ROOT } from '../helpers/run-conform.ts'
import { startLockfileRegistry, type LockfileRegistry } from './lockfile-registry.ts'
import { packProject, SLOW, type Packed } from './pack.ts'

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; bin: Record<string, string>; exports: Record<string, string | Record<string, string>> }
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

/** npm's environment for a child: only the loopback registry can be reached, and npm's own cache of this test. */
function npmEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  const childEnv: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (/^CONFORM_|^GITHUB_|^npm_/i.test(name)) continue
    childEnv[name] = value
  }
  return Object.assign(childEnv, {
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
}

/** `command ARGS` in `cwd`, with npm's environment. */
async function spawnIn(cwd: string, command: string, args: string[], env: Record<string, string> = {}): Promise<Npx> {
  const child = spawn(command, args, { cwd, env: npmEnv(env) })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const killer = setTimeout(() => child.kill('SIGKILL'), 200_000)
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  clearTimeout(killer)
  return { code, stdout, stderr }
}

/** `npx ./<tarball> ARGS` in the user's folder; npm may reach only the loopback registry. */
async function npxTarball(args: string[], env: Record<string, string> = {}): Promise<Npx> {
  mkdirSync(userFolder, { recursive: true })
  const spec = relative(userFolder, packed.tarball)
  return spawnIn(userFolder, 'npx', [spec.startsWith('.') ? spec : `./${spec}`, ...args], env)
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
    // every file the exports map names (the entries and their type declarations)
    for (const target of Object.values(pkg.exports).flatMap((t) => (typeof t === 'string' ? [t] : Object.values(t)))) expect(paths, target).toContain(target.replace(/^\.\//, ''))
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

describe('npm install <tarball> vitest, and a two-line test file', () => {
  test('vitest runs the suite against the server: exit 0, one describe per rule; the main entry runs it too', async (ctx) => {
    const folder = join(work, 'library-user')
    mkdirSync(folder, { recursive: true })
    const init = await spawnIn(folder, 'npm', ['init', '-y'])
    expect(init.code, init.stderr).toBe(0)
    // vitest: the lockfile's version, the one the loopback registry serves (and this project tests with)
    const install = await spawnIn(folder, 'npm', ['install', packed.tarball, 'vitest'])
    skipIfCacheLacks(ctx, install)
    expect(install.code, install.stderr).toBe(0)
    writeFileSync(
      join(folder, 'conformance.test.mjs'),
      `import { defineConformance } from '${pkg.name}/vitest'\ndefineConformance({ baseUrl: '${server.baseUrl}', apiKey: '${API_KEY}' })\n`,
    )
    const run = await spawnIn(folder, process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--reporter=json', '--outputFile=vitest.json'])
    expect(run.code, run.stdout + run.stderr).toBe(0)
    const report = JSON.parse(readFileSync(join(folder, 'vitest.json'), 'utf8')) as { testResults: { assertionResults: { ancestorTitles: string[]; status: string }[] }[] }
    const assertions = report.testResults.flatMap((file) => file.assertionResults)
    expect(new Set(assertions.flatMap((a) => a.ancestorTitles)).size).toBe(ruleCatalogue().length)
    expect(assertions.filter((a) => a.status === 'failed')).toEqual([])
    // the programmatic entry, with the types beside it
    const main = await spawnIn(folder, process.execPath, ['--input-type=module', '-e', `const { runConformance } = await import('${pkg.name}'); const r = await runConformance({ baseUrl: '${server.baseUrl}', apiKey: '${API_KEY}', rule: 'list-returns-200' }); console.log(r.verdict)`])
    expect(main.stdout + main.stderr).toBe('pass\n')
    for (const entry of ['index', 'vitest']) expect(existsSync(join(folder, 'node_modules', pkg.name, `dist/entry/${entry}.d.ts`)), entry).toBe(true)
    expect(readdirSync(folder).sort()).toEqual(['conformance.test.mjs', 'node_modules', 'package-lock.json', 'package.json', 'vitest.json'])
  }, SLOW)
})
