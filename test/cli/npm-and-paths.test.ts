/**
 * What npm does around the command: flags it swallows when `--` is forgotten stop the run before
 * anything is sent (exit 2, the command shown with `--` in place); paths are the user's (npm's
 * INIT_CWD), also under `npm --prefix`; and a run that exits 2 leaves reports of its own, in place
 * of an earlier run's. Real npm, real loopback servers that count what they receive.
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { HEADER_ON_NPM_COMMAND_LINE, KEY_ON_NPM_COMMAND_LINE } from '../../lib/cli/conform.ts'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { cleanEnv, ROOT } from '../helpers/child-process.ts'
import { runConform } from '../helpers/run-conform.ts'
import { RUN_TIMEOUT_MS } from '../hostile/expect-run.ts'

const KEY = `npm-${randomBytes(12).toString('hex')}`
let server: RunningServer
const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'conform-npm-'))
  dirs.push(dir)
  return dir
}
beforeAll(async () => {
  server = await startReferenceServer({ apiKey: KEY })
})
afterAll(async () => {
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }))
  await server?.close()
})

/** `npm …` as a user types it, from `cwd`. */
async function npm(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('npm', args, { cwd, env: cleanEnv({ CONFORM_API_KEY: KEY, ...env }), stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c) => (stdout += c))
  child.stderr.on('data', (c) => (stderr += c))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  return { code, stdout, stderr }
}

describe('flags npm swallowed (the -- forgotten)', () => {
  test('`npm run conform --read-only -- --base-url URL` sends nothing, exits 2 and shows the command with -- in place', async () => {
    server.requests.length = 0
    const cwd = tempDir()
    const run = await npm(['--prefix', ROOT, 'run', 'conform', '--read-only', '--', '--base-url', server.baseUrl, '--report-dir', 'out'], cwd)
    expect(run.code, run.stdout + run.stderr).toBe(2)
    expect(server.requests).toEqual([])
    expect(run.stderr).toContain(`conform: npm took --read-only for itself (it goes after --), so nothing was sent; run: npm run conform -- --read-only --base-url ${server.baseUrl} --report-dir out\n`)
    expect(JSON.parse(readFileSync(join(cwd, 'out', 'results.json'), 'utf8')).exitCode).toBe(2)
  }, RUN_TIMEOUT_MS)

  test('`npm run conform --base-url URL --max-writes 3`: the values npm left as arguments go back after their flags', async () => {
    server.requests.length = 0
    const run = await npm(['--prefix', ROOT, 'run', 'conform', '--base-url', server.baseUrl, '--max-writes', '3'], tempDir())
    expect(run.code, run.stdout + run.stderr).toBe(2)
    expect(server.requests).toEqual([])
    expect(run.stderr).toContain(`npm took --base-url, --max-writes for itself (it goes after --), so nothing was sent; run: npm run conform -- --base-url ${server.baseUrl} --max-writes 3\n`)
  }, RUN_TIMEOUT_MS)

  test('a swallowed --api-key: its value is never shown', async () => {
    const secret = `canary-${randomBytes(8).toString('hex')}`
    const run = await npm(['--prefix', ROOT, 'run', 'conform', '--api-key', secret, '--', '--base-url', server.baseUrl], tempDir(), { CONFORM_API_KEY: '' })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`run: npm run conform -- --api-key "$CONFORM_API_KEY" --base-url ${server.baseUrl}\n`)
    // npm itself echoes the arguments (its warnings, "> node bin/conform.mjs …"): not ours to hide
    const ours = (run.stdout + run.stderr).split('\n').filter((line) => line.startsWith('conform'))
    expect(ours).toHaveLength(1)
    expect(ours[0]).not.toContain(secret)
  }, RUN_TIMEOUT_MS)
})

describe('a key given as --api-key under npm', () => {
  test('npm prints it in the command line it runs: a note says so, never the key; from CONFORM_API_KEY, no note', async () => {
    const flag = await npm(['--prefix', ROOT, 'run', 'conform', '--', '--base-url', server.baseUrl, '--api-key', KEY, '--rule', 'list-returns-200', '--report-dir', 'out'], tempDir(), { CONFORM_API_KEY: '' })
    expect(flag.code, flag.stdout + flag.stderr).toBe(0)
    expect(flag.stdout).toContain(`--api-key ${KEY}`)
    const ours = (flag.stdout + flag.stderr).split('\n').filter((line) => line.startsWith('conform'))
    expect(ours).toEqual([`conform: note: ${KEY_ON_NPM_COMMAND_LINE}`])
    const variable = await npm(['--prefix', ROOT, 'run', 'conform', '--', '--base-url', server.baseUrl, '--rule', 'list-returns-200', '--report-dir', 'out'], tempDir())
    expect(variable.code, variable.stdout + variable.stderr).toBe(0)
    expect(variable.stderr).not.toContain('note:')
  }, RUN_TIMEOUT_MS)

  test('a secret --header value under npm: a note says npm printed it, never the value; a header that is no secret, none', async () => {
    const secret = `gw-${randomBytes(10).toString('hex')}`
    const run = await npm(['--prefix', ROOT, 'run', 'conform', '--', '--base-url', server.baseUrl, '--header', `X-Gateway-Token: ${secret}`, '--header=X-Tenant: acme', '--rule', 'list-returns-200', '--report-dir', 'out'], tempDir())
    expect(run.code, run.stdout + run.stderr).toBe(0)
    const ours = (run.stdout + run.stderr).split('\n').filter((line) => line.startsWith('conform'))
    expect(ours).toEqual([`conform: note: ${HEADER_ON_NPM_COMMAND_LINE}`])
    const plain = await npm(['--prefix', ROOT, 'run', 'conform', '--', '--base-url', server.baseUrl, '--header', 'X-Tenant: acme', '--rule', 'list-returns-200', '--report-dir', 'out'], tempDir())
    expect(plain.code, plain.stdout + plain.stderr).toBe(0)
    expect(plain.stderr).not.toContain('note:')
  }, RUN_TIMEOUT_MS)
})

describe("paths are the user's", () => {
  test('under `npm --prefix DIR run conform`, --report-dir and the printed path are relative to where the user stands; --env reads the .env there', async () => {
    server.requests.length = 0
    const cwd = tempDir()
    writeFileSync(join(cwd, '.env.here'), `CONFORM_BASE_URL=${server.baseUrl}\n`)
    const run = await npm(['--prefix', ROOT, 'run', 'conform', '--', '--env', 'here', '--report-dir', 'out', '--rule', 'list-returns-200'], cwd)
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(server.requests.length).toBeGreaterThan(0)
    expect(run.stdout).toContain('Reports: out/report.html (open in a browser)')
    expect(readdirSync(join(cwd, 'out')).sort()).toEqual(['journal.ndjson', 'junit.xml', 'report.html', 'results.json', 'summary.md'])
    expect(existsSync(join(ROOT, 'out'))).toBe(false)
  }, RUN_TIMEOUT_MS)
})

describe('a run that exits 2 leaves reports of its own', () => {
  const cases: [string, string[], Record<string, string>][] = [
    ['a bad flag', ['--no-such-flag'], {}],
    ['no key', ['--base-url', 'https://petstore.example/v1'], { CONFORM_API_KEY: '' }],
    ['an unreachable host', ['--base-url', 'http://127.0.0.1:9/v1'], {}],
  ]
  test.each(cases)('%s, over an earlier PASS: only its own reports, each saying why', async (_label, args, env) => {
    const dir = join(tempDir(), 'reports')
    mkdirSync(dir)
    const pass = await runConform(['--base-url', server.baseUrl, '--rule', 'list-returns-200', '--report-dir', dir], { env: { CONFORM_API_KEY: KEY } })
    pass.cleanup()
    expect(pass.code).toBe(0)
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('PASS')
    writeFileSync(join(dir, 'notes.txt'), 'the user\'s own file stays')

    const run = await runConform([...args, '--report-dir', dir], { env: { CONFORM_API_KEY: KEY, ...env } })
    run.cleanup()
    expect(run.code, run.stderr).toBe(2)
    const why = run.stderr.replace(/^conform: /, '').trimEnd()
    expect(readdirSync(dir).sort()).toEqual(['junit.xml', 'notes.txt', 'report.html', 'results.json', 'summary.md'])
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'))
    expect(results).toMatchObject({ verdict: 'error', exitCode: 2, error: why, rules: [], ledger: [] })
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8')
    expect(junit).toContain('errors="1"')
    expect(junit).toMatch(/<testcase classname="conformance-run" name="the run could be made" time="0">\s*<error message="/)
    for (const file of ['summary.md', 'report.html']) {
      const text = readFileSync(join(dir, file), 'utf8')
      expect(text, file).toContain('could not be made (exit 2)')
      expect(text, file).not.toContain('PASS')
    }
  }, RUN_TIMEOUT_MS)
})
