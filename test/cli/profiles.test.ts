/**
 * Environment profiles: `.env` is always read, `--env NAME` also reads `.env.NAME` (which wins over
 * `.env`), the environment wins over both, and flags over everything. Each case runs the real
 * command in a temporary working directory holding only its .env files, against reference servers
 * that count what they receive, so "which settings won" is read off which server was called.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { ROOT, runConform, type ConformRun } from '../helpers/run-conform.ts'

const KEY = `profile-${randomBytes(12).toString('hex')}`
const servers: Record<'dotenv' | 'staging' | 'environment', RunningServer> = {} as never
const dirs: string[] = []
const runs: ConformRun[] = []

beforeAll(async () => {
  for (const name of ['dotenv', 'staging', 'environment'] as const) servers[name] = await startReferenceServer({ apiKey: KEY })
})
afterAll(async () => {
  runs.forEach((r) => r.cleanup())
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }))
  await Promise.all(Object.values(servers).map((s) => s.close()))
})

/** A working directory with these files (the CLI reads .env files from its working directory). */
function workdir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'conform-profile-'))
  dirs.push(dir)
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  return dir
}

async function run(args: string[], cwd: string, env: Record<string, string> = {}): Promise<ConformRun> {
  for (const server of Object.values(servers)) server.requests.length = 0
  const result = await runConform(['--rule', 'list-returns-200', ...args], { cwd, env })
  runs.push(result)
  return result
}

const called = () => (Object.keys(servers) as (keyof typeof servers)[]).filter((name) => servers[name].requests.length > 0)

describe('environment profiles', () => {
  test('--env staging reads .env.staging: base URL and key come from it', async () => {
    const cwd = workdir({ '.env.staging': `CONFORM_BASE_URL=${servers.staging.baseUrl}\nCONFORM_API_KEY=${KEY}\n` })
    const result = await run(['--env', 'staging'], cwd)
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(called()).toEqual(['staging'])
    expect(result.results!.baseUrl).toBe(servers.staging.baseUrl)
  })

  test('.env is always read, and .env.staging wins over it', async () => {
    const cwd = workdir({
      '.env': `CONFORM_BASE_URL=${servers.dotenv.baseUrl}\nCONFORM_API_KEY=${KEY}\nCONFORM_TIMEOUT_MS=7000\n`,
      '.env.staging': `CONFORM_BASE_URL=${servers.staging.baseUrl}\n`,
    })
    const withoutProfile = await run([], cwd)
    expect(withoutProfile.code, withoutProfile.stderr).toBe(0)
    expect(called()).toEqual(['dotenv'])
    const withProfile = await run(['--env', 'staging'], cwd)
    expect(withProfile.code, withProfile.stderr).toBe(0)
    expect(called()).toEqual(['staging'])
    // what .env.staging does not set still comes from .env
    expect(withProfile.results!.options.timeoutMs).toBe(7000)
  }, 120_000)

  test('the environment wins over .env.staging, and a flag over the environment', async () => {
    const cwd = workdir({ '.env.staging': `CONFORM_BASE_URL=${servers.staging.baseUrl}\nCONFORM_API_KEY=${KEY}\n` })
    const fromEnvironment = await run(['--env', 'staging'], cwd, { CONFORM_BASE_URL: servers.environment.baseUrl })
    expect(fromEnvironment.code, fromEnvironment.stderr).toBe(0)
    expect(called()).toEqual(['environment'])
    const fromFlag = await run(['--env', 'staging', '--base-url', servers.dotenv.baseUrl], cwd, { CONFORM_BASE_URL: servers.environment.baseUrl })
    expect(fromFlag.code, fromFlag.stderr).toBe(0)
    expect(called()).toEqual(['dotenv'])
  }, 120_000)

  test('CONFORM_READ_ONLY=true in a profile makes a read-only run', async () => {
    const cwd = workdir({ '.env.production': `CONFORM_BASE_URL=${servers.staging.baseUrl}\nCONFORM_API_KEY=${KEY}\nCONFORM_READ_ONLY=true\n` })
    const result = await run(['--env', 'production', '--rule', 'create-returns-201'], cwd)
    expect(result.code, result.stderr).toBe(0)
    expect(result.results!.options.readOnly).toBe(true)
    expect(servers.staging.requests.filter((r) => r.method === 'POST')).toEqual([])
  })

  test('a missing profile file is exit 2 with one line naming the file, and nothing is sent', async () => {
    const cwd = workdir({})
    const result = await run(['--env', 'staging'], cwd)
    expect(result.code).toBe(2)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(result.stderr).toMatch(/^conform: cannot read \S*\.env\.staging\b.*drop --env/)
    expect(called()).toEqual([])
  })

  test('the key read from a profile never reaches output or reports', async () => {
    const cwd = workdir({ '.env.staging': `CONFORM_BASE_URL=${servers.staging.baseUrl}\nCONFORM_API_KEY=${KEY}\n` })
    const result = await run(['--env', 'staging'], cwd)
    expect(result.stdout + result.stderr).not.toContain(KEY)
    for (const [name, text] of Object.entries(result.files)) expect(text, name).not.toContain(KEY)
  })
})

describe('read-only from a profile beside --max-writes on the command line', () => {
  test('no POST goes, and a note on stderr says the budget is unused and which file made the run read-only', async () => {
    // docs/production.md: CONFORM_READ_ONLY=true in .env.production; a later run adds --max-writes 2 and wrote nothing, silently
    const cwd = workdir({ '.env.production': `CONFORM_BASE_URL=${servers.staging.baseUrl}\nCONFORM_READ_ONLY=true\n` })
    const result = await run(['--env', 'production', '--max-writes', '2'], cwd, { CONFORM_API_KEY: KEY })
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(servers.staging.requests.filter((r) => r.method === 'POST')).toEqual([])
    expect(result.stderr).toContain('conform: note: --max-writes is not used: the run is read-only (CONFORM_READ_ONLY in .env.production) and sends no POST')
    const plain = await run(['--env', 'production'], cwd, { CONFORM_API_KEY: KEY })
    expect(plain.stderr).not.toContain('is not used')
  })
})

describe('the first line about writes names the setting that bounds them, where no flag did', () => {
  // an acceptance run whose budget or read-only came from a file or a variable left exported said
  // "--max-writes 3" or "--read-only", a flag nobody typed
  test('CONFORM_MAX_WRITES in a profile, as .env.example writes it (a comment after the value)', async () => {
    const cwd = workdir({ '.env.production': `CONFORM_BASE_URL=${servers.staging.baseUrl}\nCONFORM_MAX_WRITES=3    # a few writes\n` })
    const result = await run(['--env', 'production', '--rule', 'create-returns-201'], cwd, { CONFORM_API_KEY: KEY })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout.split('\n')[0]).toMatch(/^Writes: at most 3 POSTs \(CONFORM_MAX_WRITES=3 in \.env\.production, of the \d+ the rules need\)/)
    expect(servers.staging.requests.filter((r) => r.method === 'POST')).toHaveLength(3)
    // and so do the reasons of what it left unverified, and the line of what it sent: never a flag nobody typed
    expect(result.stdout).toContain('over the write budget (CONFORM_MAX_WRITES=3 in .env.production')
    expect(result.stdout).toContain('of at most 3 (CONFORM_MAX_WRITES=3 in .env.production)')
    expect(result.stdout).not.toContain('--max-writes 3')
    expect(readFileSync(join(result.reportDir, 'summary.md'), 'utf8')).not.toContain('--max-writes 3')
  })

  test('CONFORM_READ_ONLY in the environment; a flag is named as the flag', async () => {
    const cwd = workdir({})
    const env = { CONFORM_BASE_URL: servers.environment.baseUrl, CONFORM_API_KEY: KEY }
    const readOnly = await run(['--rule', 'create-returns-201'], cwd, { ...env, CONFORM_READ_ONLY: 'yes' })
    expect(readOnly.stdout.split('\n')[0]).toMatch(/^Writes: none \(CONFORM_READ_ONLY in the environment\)\./)
    // the rules it left unverified say the same: it was given no --read-only
    expect(readOnly.stdout).toContain('not verified: read-only (CONFORM_READ_ONLY in the environment) sends no request that could create a record')
    expect(readOnly.stdout).not.toContain('--read-only')
    const summary = readFileSync(join(readOnly.reportDir, 'summary.md'), 'utf8')
    expect(summary).toContain('read-only \\(CONFORM\\_READ\\_ONLY in the environment\\)')
    expect(summary).not.toContain('--read-only')
    const flag = await run(['--rule', 'create-returns-201', '--max-writes', '2'], cwd, { ...env, CONFORM_MAX_WRITES: '3' })
    expect(flag.stdout.split('\n')[0]).toMatch(/^Writes: at most 2 POSTs \(--max-writes 2 of the \d+ the rules need\)/)
  })
})

describe('a switch of writes or the key\'s variable misspelled stops the run before any request', () => {
  // CONFORM_READONLY=true was never read: an acceptance run meant to be read-only sent a full run's POSTs
  test.each([
    ['CONFORM_READONLY=true in .env.production', { '.env.production': 'CONFORM_READONLY=true\n' }, {}, 'CONFORM_READONLY in .env.production is no setting: did you mean CONFORM_READ_ONLY?'],
    ['conform_read_only=1 in the environment', {}, { conform_read_only: '1' }, 'conform_read_only in the environment is no setting: did you mean CONFORM_READ_ONLY?'],
    ['CONFORM_MAX_WRITE=6 in .env', { '.env': 'CONFORM_MAX_WRITE=6\n' }, {}, 'CONFORM_MAX_WRITE in .env is no setting: did you mean CONFORM_MAX_WRITES?'],
  ])('%s', async (_, files, env, message) => {
    const cwd = workdir({ ...files, '.env.production': `CONFORM_BASE_URL=${servers.staging.baseUrl}\n${(files as Record<string, string>)['.env.production'] ?? ''}` })
    const result = await run(['--env', 'production'], cwd, { CONFORM_API_KEY: KEY, ...env })
    expect(result.code, result.stdout + result.stderr).toBe(2)
    expect(result.stderr).toContain(`conform: ${message} As it is written it is not read, and the run would write as if it were not there; nothing was sent\n`)
    expect(called()).toEqual([])
  })

  // a newcomer's .env said CONFORM_APIKEY=…, and the run answered "no API key: set CONFORM_API_KEY"
  test.each([
    ['CONFORM_APIKEY in .env', { '.env': `CONFORM_APIKEY=${KEY}\n` }, [], 'CONFORM_APIKEY in .env is no setting: did you mean CONFORM_API_KEY?'],
    ['conform_api_key in .env.production', { '.env.production': `conform_api_key=${KEY}\n` }, ['--env', 'production'], 'conform_api_key in .env.production is no setting: did you mean CONFORM_API_KEY?'],
  ])('the key\'s variable misspelled, a base URL given: %s', async (_, files, args, message) => {
    const cwd = workdir(files)
    const result = await run([...args, '--base-url', servers.staging.baseUrl], cwd, {})
    expect(result.code, result.stdout + result.stderr).toBe(2)
    expect(result.stderr).toBe(`conform: ${message} As it is written it is not read, and the run has no key; nothing was sent\n`)
    expect(called()).toEqual([])
  })

  test('a variable near the setting while the setting itself is set is someone else\'s: the run goes on', async () => {
    const cwd = workdir({ '.env.production': `CONFORM_BASE_URL=${servers.staging.baseUrl}\nCONFORM_MAX_WRITES=2\nCONFORM_MAX_WRITES_PROD=6\n` })
    const result = await run(['--env', 'production'], cwd, { CONFORM_API_KEY: KEY })
    expect(result.code, result.stderr).toBe(0)
    expect(called()).toEqual(['staging'])
  })
})

describe('.env.example', () => {
  test('is committed with every setting a profile needs and no key in it', () => {
    const example = readFileSync(join(ROOT, '.env.example'), 'utf8')
    expect(example).toMatch(/^CONFORM_BASE_URL=https:\/\/\S+\/v1$/m)
    expect(example).toMatch(/^CONFORM_API_KEY=$/m)
    expect(example).toMatch(/CONFORM_READ_ONLY=true/)
    expect(example).toMatch(/CONFORM_MAX_WRITES=\d+/)
  })

  test('real .env files are git-ignored, the example is not', () => {
    const ignore = readFileSync(join(ROOT, '.gitignore'), 'utf8').split('\n')
    expect(ignore).toEqual(expect.arrayContaining(['.env', '.env.*', '!.env.example']))
  })
})
