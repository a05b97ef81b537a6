/**
 * The programmatic API takes the command line's options, with its defaults and its complaints:
 * each bad value below is refused by runConformance() with a ConformanceConfigError whose message
 * is the line `npm run conform` prints before exiting 2, word for word but for the options' names
 * (`maxWrites: 0` where the command line says `--max-writes 0`: a test file has no flags); a run that cannot start
 * throws a ConformanceRunError; report files are written only when asked, and the result never
 * holds the key.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { configBeforeAddress, configFromOptions, inOptionWords, type ConformanceOptions } from '../../lib/api/options.ts'
import { loadConfig } from '../../lib/config/config.ts'
import { ConformanceConfigError as SourceConfigError } from '../../lib/api/errors.ts'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { ROOT, runConformInProcess } from '../helpers/run-conform.ts'
import { mainEntry } from './api-entry.ts'

const API_KEY = 'api-options-key-8c2e51d7'
let server: RunningServer
let work: string

beforeAll(async () => {
  server = await startReferenceServer({ apiKey: API_KEY })
  work = mkdtempSync(join(tmpdir(), 'conform-api-'))
})
afterAll(async () => {
  await server?.close()
  if (work) rmSync(work, { recursive: true, force: true })
})

/** The same wrong setting, as options and as the command line's arguments. */
const REFUSED: [string, ConformanceOptions, string[]][] = [
  ['a timeout under its minimum', { timeout: 5 }, ['--timeout', '5']],
  ['a deadline that is not a whole number', { deadline: 1.5 }, ['--deadline', '1.5']],
  ['a negative write budget', { maxWrites: -1 }, ['--max-writes=-1']],
  ['a concurrency past its maximum', { concurrency: 65 }, ['--concurrency', '65']],
  ['an unknown rule', { rule: ['error-status-matches-http', 'no-such-rule'] }, ['--rule', 'error-status-matches-http', '--rule', 'no-such-rule']],
  ['a base URL without a scheme', { baseUrl: 'localhost:8080/v1', apiKey: API_KEY }, ['--base-url', 'localhost:8080/v1', '--api-key', API_KEY]],
  ['plain http to a host that is not loopback', { baseUrl: 'http://petstore.example/v1', apiKey: API_KEY }, ['--base-url', 'http://petstore.example/v1', '--api-key', API_KEY]],
  ['a base path that is not /v1', { baseUrl: 'https://petstore.example/api', apiKey: API_KEY }, ['--base-url', 'https://petstore.example/api', '--api-key', API_KEY]],
  ['a base URL without a key', { baseUrl: 'https://petstore.example/v1' }, ['--base-url', 'https://petstore.example/v1']],
  ['a key a bearer token cannot carry', { baseUrl: 'https://petstore.example/v1', apiKey: 'two words' }, ['--base-url', 'https://petstore.example/v1', '--api-key', 'two words']],
  ['a header that replaces Authorization', { header: 'Authorization: Basic eA==' }, ['--header', 'Authorization: Basic eA==']],
  ['--update-baseline without --baseline', { updateBaseline: true }, ['--update-baseline']],
  ['a baseline file that does not exist', { baseline: 'no-such-baseline.json' }, ['--baseline', 'no-such-baseline.json']],
]

describe('a bad option', () => {
  test.each(REFUSED)('%s: ConformanceConfigError with the command line\'s message', async (_, options, argv) => {
    const { runConformance, ConformanceConfigError } = await mainEntry()
    const cli = await runConformInProcess(argv)
    cli.cleanup()
    expect(cli.code).toBe(2)
    const error = await runConformance({ ...options, environment: {}, cwd: ROOT }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConformanceConfigError)
    expect(`conform: ${(error as Error).message}\n`).toBe(inOptionWords(cli.stderr))
    expect((error as Error).message).not.toContain(API_KEY)
  })

  test.each([
    ['a whole number out of range', { maxWrites: -1 }, 'maxWrites takes a whole number of at least 0, got "-1"; e.g. maxWrites: 0'],
    ['plain http to a host that is not loopback', { baseUrl: 'http://petstore.example/v1', apiKey: API_KEY }, 'refusing to send the API key in clear text to petstore.example: use https://, or allowInsecureHttp: true if you really mean it'],
    ['a base path that is not /v1', { baseUrl: 'http://127.0.0.1:8080/api', apiKey: API_KEY }, 'or allowAnyBasePath: true to run anyway'],
    ['a key written with its scheme', { baseUrl: 'http://127.0.0.1:8080/v1', apiKey: `Bearer ${API_KEY}` }, 'apiKey begins with "Bearer "'],
    ['an unknown rule', { rule: 'no-such-rule' }, 'unknown rule "no-such-rule"; the command line\'s --list-rules prints the catalogue'],
  ] satisfies [string, ConformanceOptions, string][])('%s: named as the option is written, not as the command line\'s flag', async (_, options, says) => {
    const { runConformance } = await mainEntry()
    const error = await runConformance({ ...options, environment: {}, cwd: ROOT }).catch((e: unknown) => e)
    expect((error as Error).message).toContain(says)
    expect((error as Error).message).not.toMatch(/(?<!line's )--[a-z]/)
  })

  test.each(['http://[::]:4000/v1', 'http://0.0.0.0:4000/v1'])('the unspecified address %s (a server listening on every interface): the loopback address to give instead', async (baseUrl) => {
    const { runConformance, ConformanceConfigError } = await mainEntry()
    const error = await runConformance({ baseUrl, apiKey: API_KEY, environment: {}, cwd: ROOT }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConformanceConfigError)
    expect((error as Error).message).toMatch(/^baseUrl (\[::\]|0\.0\.0\.0):4000 is the unspecified address, .*: give its loopback address, http:\/\/127\.0\.0\.1:4000\/v1 \(or http:\/\/\[::1\]:4000…\)$/)
  })

  test('an option the command line does not have is named, with the ones it has', async () => {
    const { runConformance, ConformanceConfigError } = await mainEntry()
    const error = await runConformance({ maxWrite: 3 } as ConformanceOptions).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConformanceConfigError)
    expect((error as Error).message).toMatch(/^unknown option "maxWrite" \(did you mean "maxWrites"\?\); .*maxWrites/)
    // every option it takes, baseUrl and the library's own too (the list left them out)
    for (const own of ['baseUrl', 'environment', 'cwd', 'signal']) expect((error as Error).message).toContain(own)
    // a key in another case, written as the flag or mistyped, names the option it was meant for (a JS test file has no type to catch it)
    for (const [written, meant] of [['apikey', 'apiKey'], ['read-only', 'readOnly'], ['BASEURL', 'baseUrl'], ['readonly', 'readOnly'], ['maxWirtes', 'maxWrites']]) {
      const typo = await runConformance({ baseUrl: 'http://127.0.0.1:9/v1', [written as string]: true } as ConformanceOptions).catch((e: unknown) => e)
      expect((typo as Error).message).toMatch(new RegExp(`^unknown option "${written}" \\(did you mean "${meant}"\\?\\); `))
    }
  })
})

describe('defaults and the environment', () => {
  test('no options give the command line\'s configuration without arguments', () => {
    expect(configFromOptions({}, undefined, {}, ROOT)).toEqual(loadConfig([], {}, ROOT))
  })

  test('options win over the environment, which fills in what they leave out; false says no whatever the environment says', () => {
    const environment = { CONFORM_TIMEOUT_MS: '2000', CONFORM_MAX_WRITES: '4', CONFORM_READ_ONLY: 'true' }
    const config = configFromOptions({ timeout: 3000, readOnly: false }, undefined, environment, ROOT)
    expect(config).toMatchObject({ timeoutMs: 3000, maxWrites: 4, readOnly: false })
    expect(configFromOptions({}, undefined, environment, ROOT).readOnly).toBe(true)
  })
})

describe('before the address is known (defineConformance() when vitest collects the file)', () => {
  test('every option is checked, the address aside: a baseUrl option wins over CONFORM_BASE_URL, which is then not read', () => {
    const environment = { CONFORM_BASE_URL: 'not a url' }
    expect(() => configBeforeAddress({ baseUrl: () => server.baseUrl, apiKey: API_KEY }, environment, ROOT)).not.toThrow()
    expect(() => configBeforeAddress({ baseUrl: () => server.baseUrl, timeout: 1 }, environment, ROOT)).toThrow(/^timeout takes a whole number/)
    expect(() => configBeforeAddress({ apiKey: API_KEY }, environment, ROOT)).toThrow(/CONFORM_BASE_URL "not a url" is not a URL/)
    expect(() => configBeforeAddress({ apiKey: API_KEY }, { CONFORM_BASE_URL: server.baseUrl }, ROOT)).not.toThrow()
  })
})

describe('an address written but empty is refused, never read as the embedded reference server', () => {
  // `baseUrl: process.env.SERVICE_URL` read when the file is collected, before the beforeAll that sets it
  test.each([['undefined', undefined], ['empty', '']])('baseUrl %s: ConformanceConfigError naming the function form, at collection and at the run', async (_, baseUrl) => {
    const { runConformance, ConformanceConfigError } = await mainEntry()
    const options: ConformanceOptions = { baseUrl, apiKey: API_KEY }
    expect(() => configBeforeAddress(options, {}, ROOT)).toThrow(SourceConfigError)
    expect(() => configBeforeAddress(options, {}, ROOT)).toThrow(/pass a function, baseUrl: \(\) => process\.env\.SERVICE_URL/)
    const error = await runConformance({ ...options, environment: {}, cwd: ROOT }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConformanceConfigError)
    expect((error as Error).message).toMatch(/^baseUrl is (undefined|empty): pass a function/)
    // an address from a globalSetup, inject('serviceURL') for the 'serviceUrl' it provided: the name, not the order of hooks
    if (baseUrl === undefined) expect((error as Error).message).toContain("inject('name') gives undefined when no globalSetup provided that name (project.provide('name', url)): check the name and the config's globalSetup")
    expect((error as Error).message).not.toContain(API_KEY)
  })

  test('an apiKey with no address at all is refused: the embedded server would be checked, not the service the key is for', async () => {
    const { runConformance, ConformanceConfigError } = await mainEntry()
    expect(() => configBeforeAddress({ apiKey: API_KEY }, {}, ROOT)).toThrow(/apiKey given without baseUrl/)
    const error = await runConformance({ apiKey: API_KEY, environment: {}, cwd: ROOT }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConformanceConfigError)
    expect((error as Error).message).toMatch(/^apiKey given without baseUrl/)
    // without baseUrl and without a key: the embedded reference server, as the command line checks it
    expect(() => configBeforeAddress({}, {}, ROOT)).not.toThrow()
    // unless CONFORM_BASE_URL is set but empty (a CI variable not set): an address was meant, as the command line refuses it
    expect(() => configBeforeAddress({}, { CONFORM_BASE_URL: '' }, ROOT)).toThrow(/^CONFORM_BASE_URL is set but empty .*not your service/)
    const empty = await runConformance({ environment: { CONFORM_BASE_URL: '' }, cwd: ROOT }).catch((e: unknown) => e)
    expect(empty).toBeInstanceOf(ConformanceConfigError)
    // a baseUrl given wins over the variable, empty or not
    expect(() => configBeforeAddress({ baseUrl: () => 'http://127.0.0.1:9/v1' }, { CONFORM_BASE_URL: '' }, ROOT)).not.toThrow()
  })
})

test('a key the server refuses is named as the caller gave it: the apiKey option, not a variable nobody set', async () => {
  const { runConformance } = await mainEntry()
  const result = await runConformance({ baseUrl: server.baseUrl, apiKey: 'not-the-key-31f9', rule: ['list-returns-200', 'create-returns-201'], environment: {}, cwd: ROOT })
  expect(result.verdict).toBe('incomplete')
  expect(result.problems[0]?.message).toMatch(/check the apiKey option \(wrong, expired/)
})

describe('a run', () => {
  test('resolves to the result results.json holds, without the key, and writes no file unless asked', async () => {
    const { runConformance } = await mainEntry()
    const result = await runConformance({ baseUrl: () => Promise.resolve(server.baseUrl), apiKey: API_KEY, rule: 'error-status-matches-http', cwd: work, environment: {} })
    expect(result).toMatchObject({ verdict: 'pass', exitCode: 0, baseUrl: server.baseUrl, embeddedServer: false })
    expect(result.rules.map((r) => r.id)).toEqual(['error-status-matches-http'])
    expect(JSON.stringify(result)).not.toContain(API_KEY)
    expect(readdirSync(work)).toEqual([])
  })

  test('with reportDir, writes the reports the command line writes', async () => {
    const { runConformance } = await mainEntry()
    const result = await runConformance({ baseUrl: server.baseUrl, apiKey: API_KEY, rule: 'list-returns-200', reportDir: 'out', cwd: work, environment: {} })
    expect(result.verdict).toBe('pass')
    expect(readdirSync(join(work, 'out')).sort()).toEqual(['journal.ndjson', 'junit.xml', 'report.html', 'results.json', 'summary.md'])
  })

  test('reportDir: false writes no report file (it wrote them into a folder named false), nor does CONFORM_REPORT_DIR without reportDir', async () => {
    const { runConformance } = await mainEntry()
    const quiet = mkdtempSync(join(tmpdir(), 'conform-api-no-reports-'))
    try {
      const result = await runConformance({ baseUrl: server.baseUrl, apiKey: API_KEY, rule: 'list-returns-200', reportDir: false, cwd: quiet, environment: { CONFORM_REPORT_DIR: 'from-env' } })
      expect(result.verdict).toBe('pass')
      expect(readdirSync(quiet)).toEqual([])
      await runConformance({ baseUrl: server.baseUrl, apiKey: API_KEY, rule: 'list-returns-200', cwd: quiet, environment: { CONFORM_REPORT_DIR: 'from-env' } })
      expect(readdirSync(quiet)).toEqual([])
    } finally {
      rmSync(quiet, { recursive: true, force: true })
    }
  })

  // a JavaScript test file (or TypeScript, which vitest runs without checking its types) has no type to catch these
  test.each([
    ['reportDir: true, which wrote a folder named true', { reportDir: true }, 'reportDir takes a folder\'s path (a string), or false for no report files; got true'],
    ['apiKey: false, sent as the key "false"', { apiKey: false }, 'apiKey takes a string; got false'],
    ['a key given as a number, its value not shown', { apiKey: 73105 }, 'apiKey takes a string; got a number'],
    ['baseline: null', { baseline: null }, 'baseline takes a string; got null'],
    ['a key given as a list', { apiKey: ['sk_live_3f9a0c1e'] }, 'apiKey takes a string; got a list'],
    ['an object where a string goes', { reportDir: { path: 'out' } }, "reportDir takes a folder's path (a string), or false for no report files; got an object"],
    // a switch's message quoted the string whole, where the command line's hides one that could be a key
    ['a key where a switch goes, its value not shown', { readOnly: 'sk_live_3f9a0c1e9b7d' }, 'readOnly takes true or false, got a value of 20 characters (not shown: it could be a key)'],
    ['a switch given the string "true"', { readOnly: 'true' }, 'readOnly takes true or false, got "true"'],
  ])('%s: ConformanceConfigError, nothing sent', async (_, options, message) => {
    const { runConformance, ConformanceConfigError } = await mainEntry()
    const before = server.requests.length
    const error = await runConformance({ baseUrl: server.baseUrl, rule: 'list-returns-200', cwd: work, environment: {}, ...(options as ConformanceOptions) }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConformanceConfigError)
    expect((error as Error).message).toBe(message)
    expect(server.requests.length).toBe(before)
    expect(readdirSync(work)).not.toContain('true')
  })

  test('without a base URL, checks the embedded reference server, as the command line does', async () => {
    const { runConformance } = await mainEntry()
    const result = await runConformance({ rule: 'list-returns-200', environment: {} })
    expect(result).toMatchObject({ verdict: 'pass', embeddedServer: true })
    expect(existsSync(join(ROOT, 'out'))).toBe(false)
  })

  test('a service that cannot be reached: ConformanceRunError with the command line\'s message', async () => {
    const { runConformance, ConformanceRunError } = await mainEntry()
    const closed = await startReferenceServer({ apiKey: API_KEY })
    await closed.close()
    const cli = await runConformInProcess(['--base-url', closed.baseUrl], { env: { CONFORM_API_KEY: API_KEY } })
    cli.cleanup()
    const error = await runConformance({ baseUrl: closed.baseUrl, apiKey: API_KEY, environment: {} }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConformanceRunError)
    expect(`conform: ${(error as Error).message}\n`).toBe(inOptionWords(cli.stderr))
  })

  test('a signal aborted before the run starts: ConformanceRunError, nothing sent', async () => {
    const { runConformance, ConformanceRunError } = await mainEntry()
    const before = server.requests.length
    const error = await runConformance({ baseUrl: server.baseUrl, apiKey: API_KEY, signal: AbortSignal.abort('SIGINT'), environment: {} }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConformanceRunError)
    expect((error as Error).message).toBe('interrupted by SIGINT before the run started')
    expect(server.requests.length).toBe(before)
  })
})
