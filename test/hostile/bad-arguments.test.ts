/**
 * Bad arguments and an unreachable host: one line on stderr that names the problem and the fix,
 * exit 2, no stack trace, nothing sent.
 */
import { afterAll, describe, expect, test } from 'vitest'
import { filesUnder, keyLeaks } from '../helpers/key-leaks.ts'
import { runConform, type ConformRun } from '../helpers/run-conform.ts'
import { closedPort } from './hostile-servers.ts'
import { expectRefused } from './expect-run.ts'

const KEY = 'bad-arguments-test-key-77a0c2'
const runs: ConformRun[] = []
afterAll(() => runs.forEach((run) => run.cleanup()))

interface Case {
  name: string
  args: string[]
  env?: Record<string, string | undefined>
  /** What the one line must say. */
  says: RegExp
  /** A secret in the arguments that no output or report may show. */
  hidden?: string
}

const CASES: Case[] = [
  {
    name: 'a base URL that is not a URL',
    args: ['--base-url', 'petstore.example/v1'],
    says: /--base-url "petstore\.example\/v1" is not a URL with a scheme; did you mean https:\/\/petstore\.example\/v1\?$/,
  },
  {
    name: 'a base URL without its scheme, that new URL() would take for one: the loopback URL meant, over http',
    args: ['--base-url', 'localhost:8080/v1'],
    says: /--base-url "localhost:8080\/v1" is not a URL with a scheme; did you mean http:\/\/localhost:8080\/v1\?$/,
  },
  {
    name: 'a base URL with its "://" mistyped: the URL meant',
    args: ['--base-url', 'http:/127.0.0.1:8080/v1'],
    says: /--base-url "http:\/127\.0\.0\.1:8080\/v1" is not a URL with its scheme \(":" then "\/\/"\); did you mean http:\/\/127\.0\.0\.1:8080\/v1\?$/,
  },
  {
    name: 'a loopback address mistyped, over http: the address meant, not https:// or --allow-insecure-http',
    args: ['--base-url', 'http://127.0.0.l:8080/v1'],
    says: /^conform: --base-url 127\.0\.0\.l:8080 is not this machine: http:\/\/ is taken for localhost, 127\.x\.x\.x and \[::1\] only; did you mean http:\/\/127\.0\.0\.1:8080\/v1\?$/,
  },
  {
    name: 'localhost mistyped, over http: localhost meant',
    args: ['--base-url', 'http://locahost:8080/v1'],
    says: /--base-url locahost:8080 is not this machine: .*; did you mean http:\/\/localhost:8080\/v1\?$/,
  },
  {
    name: 'a base URL not ending in /v1',
    args: ['--base-url', 'https://petstore.example/api'],
    says: /the base URL path "\/api" does not end in \/v1, where the interface puts the version \(§9\.2\); give the address ending in \/v1, or --allow-any-base-path to run anyway/,
  },
  {
    name: 'a base URL from the environment, not ending in /v1',
    args: [],
    env: { CONFORM_BASE_URL: 'https://petstore.example/' },
    says: /does not end in \/v1.*\(https:\/\/petstore\.example\/v1\), or --allow-any-base-path/,
  },
  {
    name: 'a base URL ending in /V1, the version in capitals',
    args: ['--base-url', 'https://petstore.example/api/V1'],
    says: /the base URL path "\/api\/V1" does not end in \/v1.*; give the address ending in \/v1 \(https:\/\/petstore\.example\/api\/v1\), or --allow-any-base-path/,
  },
  {
    name: "a base URL that is an endpoint's address (/v1/categories, copied from a browser)",
    args: ['--base-url', 'https://petstore.example/api/v1/categories'],
    says: /the base URL path "\/api\/v1\/categories" does not end in \/v1.*; give the address ending in \/v1 \(https:\/\/petstore\.example\/api\/v1\), or --allow-any-base-path/,
  },
  {
    name: 'no key for a remote server',
    args: ['--base-url', 'https://petstore.example/v1'],
    env: { CONFORM_API_KEY: undefined },
    // the .env named where it is read (the folder the command ran in): a newcomer's key sat in their service's .env
    says: /no API key: set CONFORM_API_KEY \(in the environment, or in \/\S+\/\.env, where \.env files are read\) or --api-key to the key issued for the account$/,
  },
  {
    // a workflow's `CONFORM_API_KEY: ${{ secrets.X }}` of a secret the job does not get: "set CONFORM_API_KEY" to one who had
    name: 'a key variable set, but empty (a CI secret the job does not get)',
    args: ['--base-url', 'https://petstore.example/v1'],
    env: { CONFORM_API_KEY: '' },
    says: /no API key: CONFORM_API_KEY is set, but empty\. A CI secret that does not exist, or that the job is not given \(GitHub Actions gives none to a pull request from a fork, .*\), reaches the job as an empty variable: give it the key issued for the account \(or --api-key\)$/,
  },
  {
    name: 'the shared key of repeated --base-url set, but empty',
    args: ['--base-url', 'https://eu.petstore.example/v1', '--base-url', 'https://us.petstore.example/v1'],
    env: { CONFORM_API_KEY: '' },
    says: /--base-url #1: no key: CONFORM_API_KEY is set, but empty\. A CI secret that does not exist, .*: give it the key issued for the account \(or --api-key\)$/,
  },
  {
    name: 'the base URL written alone, without --base-url: the command with it',
    args: ['http://127.0.0.1:8080/v1'],
    says: /^conform: http:\/\/127\.0\.0\.1:8080\/v1 is given without --base-url before it: --base-url http:\/\/127\.0\.0\.1:8080\/v1 \(under npm: npm run conform -- --base-url http:\/\/127\.0\.0\.1:8080\/v1\)$/,
  },
  {
    name: 'the base URL written alone, with credentials and a token in its query: neither shown',
    args: ['--read-only', 'https://alice:S3cretPassw0rd@petstore.example/v1?token=S3cretPassw0rd'],
    says: /^conform: https:\/\/\*\*\*@petstore\.example\/v1 is given without --base-url before it/,
    hidden: 'S3cretPassw0rd',
  },
  { name: 'an unknown flag', args: ['--base-url', 'https://petstore.example/v1', '--timout', '500'], says: /Unknown option '--timout' \(did you mean --timeout\?\); see --help/ },
  { name: 'an env file that does not exist', args: ['--env', 'nosuch'], says: /cannot read .*\.env\.nosuch \(no such file\): create it .*, or drop --env/ },
  // read on, these filled memory long past any --deadline: a file the user names is read up to a bound
  { name: 'a targets file that never ends (/dev/zero)', args: ['--targets', '/dev/zero', '--deadline', '2000'], says: /cannot read the targets file \/dev\/zero \(it holds more than 4 MiB: a list of deployments is a few KiB\)/ },
  { name: 'a baseline that never ends (/dev/zero)', args: ['--baseline', '/dev/zero', '--deadline', '2000'], says: /cannot read the baseline \/dev\/zero \(it holds more than 64 MiB; a baseline of every check the suite has is under 1 MiB\)/ },
  { name: 'a baseline that is a directory', args: ['--baseline', '/'], says: /cannot read the baseline \/ \(it is a directory\)/ },
  { name: 'a --timeout that is not a number', args: ['--timeout', '5s'], says: /--timeout takes a whole number of milliseconds of at least 10, got "5s"; e\.g\. --timeout 10000/ },
  { name: 'a --timeout without its value', args: ['--timeout'], says: /^conform: --timeout needs a value: --timeout MS; see --help$/ },
  {
    name: 'a bad timeout in the environment',
    args: [],
    env: { CONFORM_TIMEOUT_MS: '-1' },
    says: /CONFORM_TIMEOUT_MS takes a whole number of milliseconds of at least 10, got "-1"; e\.g\. CONFORM_TIMEOUT_MS=10000/,
  },
  // an action's `max-writes: ${{ secrets.PETSTORE_KEY }}`: the key stood in the terminal and every report of the run not made
  {
    name: 'a key where a number or a switch goes: not shown',
    args: [],
    env: { CONFORM_MAX_WRITES: 'sWapped0Key+Q7f/2kLmNpR4tUvW8x', CONFORM_API_KEY: '' },
    says: /^conform: CONFORM_MAX_WRITES takes a whole number of at least 0, got a value of 30 characters \(not shown: it could be a key\); e\.g\. CONFORM_MAX_WRITES=0$/,
    hidden: 'sWapped0Key+Q7f/2kLmNpR4tUvW8x',
  },
  { name: 'a key where a switch goes: not shown', args: ['--base-url', 'https://petstore.example/v1'], env: { CONFORM_READ_ONLY: 'sk_live_9fQ2mX7pL4vB' }, says: /CONFORM_READ_ONLY takes true or false .*, got a value of 20 characters \(not shown/, hidden: 'sk_live_9fQ2mX7pL4vB' },
  // the key given where a rule id goes: it stood as the unknown rule in the terminal and every report
  { name: 'a key where a rule id goes: not shown', args: ['--base-url', 'https://petstore.example/v1', '--rule', 'sWapped0Key+Q7f/2kLmNpR4tUvW8x'], says: /unknown rule a value of 30 characters \(not shown: it could be a key\); --list-rules/, hidden: 'sWapped0Key+Q7f/2kLmNpR4tUvW8x' },
  { name: 'a rule id mistyped: quoted, with the nearest', args: ['--base-url', 'https://petstore.example/v1', '--rule', 'auth-missing-key-410'], says: /unknown rule "auth-missing-key-410" \(did you mean auth-missing-key-401\?\)/ },
  { name: 'a --deadline of zero', args: ['--deadline', '0'], says: /--deadline takes a whole number of milliseconds of at least 100, got "0"/ },
  { name: 'a --max-response-bytes that is not whole', args: ['--max-response-bytes', '1.5'], says: /--max-response-bytes takes a whole number of bytes of at least 1, got "1\.5"/ },
  { name: 'a key in the base URL', args: ['--base-url', 'https://user:pw@petstore.example/v1'], says: /--base-url must not carry credentials; the key goes in CONFORM_API_KEY/ },
  // a function URL copied whole (Azure Functions' ?code=…): refused, and its code was written into results.json, report.html, junit.xml
  {
    name: 'a token in the base URL\'s query or fragment: in no report',
    args: ['--base-url', 'https://petstore.example/v1?code=S3cretFuncC0de#access_token=S3cretFragT0ken'],
    says: /--base-url must not carry a query or fragment; give the address ending in \/v1$/,
    hidden: 'S3cretFuncC0de',
  },
  { name: 'a token in the base URL\'s fragment: in no report', args: ['--base-url', 'https://petstore.example/v1#access_token=S3cretFragT0ken'], says: /must not carry a query or fragment/, hidden: 'S3cretFragT0ken' },
  {
    name: 'credentials in a base URL without its colon: not shown',
    args: ['--base-url', 'https//alice:S3cretPassw0rd@petstore.example/v1'],
    says: /--base-url "https\/\/\*\*\*@petstore\.example\/v1" is not a URL with its scheme \(":" then "\/\/"\); give one like https:\/\/petstore\.example\/v1$/,
    hidden: 'S3cretPassw0rd',
  },
  {
    name: 'credentials in a base URL with a bad port: not shown, and the port named',
    args: ['--base-url', 'https://alice:S3cretPassw0rd@petstore.example:99999/v1'],
    says: /--base-url "https:\/\/\*\*\*@petstore\.example:99999\/v1" is not a valid URL \(its host or port\?\)/,
    hidden: 'S3cretPassw0rd',
  },
  // the base URL's and the key's CI secrets swapped: the key was the line, and every report's reason
  {
    name: 'the key where the base URL goes (two CI secrets swapped): not shown',
    args: [],
    env: { CONFORM_BASE_URL: 'sWapped0Key+Q7f/2kLmNpR4tUvW8xYz1aB3cD5eF7g=', CONFORM_API_KEY: 'https://petstore.internal/v1' },
    says: /^conform: CONFORM_BASE_URL is not a URL with a scheme \(its 44 characters are not shown: they could be a key, as where the CI secrets of the base URL and of the key were swapped\); give one like https:\/\/petstore\.example\/v1$/,
    hidden: 'sWapped0Key+Q7f/2kLmNpR4tUvW8xYz1aB3cD5eF7g=',
  },
  {
    name: 'a JWT where the base URL goes: not shown',
    args: ['--base-url', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjaSJ9.c2lnbmF0dXJlLXN3YXBwZWQtOTk'],
    says: /--base-url is not a URL with a scheme \(its 65 characters are not shown/,
    hidden: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjaSJ9.c2lnbmF0dXJlLXN3YXBwZWQtOTk',
  },
]

describe.concurrent('bad arguments → one line naming the problem and the fix, exit 2', () => {
  for (const c of CASES) {
    test(c.name, async () => {
      const run = await runConform(c.args, { env: { CONFORM_API_KEY: KEY, ...c.env }, killAfterMs: 60_000 })
      runs.push(run)
      expectRefused(run, c.says)
      if (c.hidden) expect(keyLeaks({ stdout: run.stdout, stderr: run.stderr, ...filesUnder(run.reportDir) }, [c.hidden])).toEqual([])
    })
  }

  test('an unreachable host (a closed loopback port) → exit 2 within the connect timeout, naming host and port', async () => {
    const port = await closedPort()
    const started = performance.now()
    const run = await runConform(['--base-url', `http://127.0.0.1:${port}/v1`, '--timeout', '2000'], { env: { CONFORM_API_KEY: KEY } })
    runs.push(run)
    expectRefused(run, new RegExp(`cannot reach 127\\.0\\.0\\.1:${port}: connection refused; is the server running there, and is the base URL right\\?`))
    // the child's own start (tsx) is most of this
    expect(performance.now() - started).toBeLessThan(2000 + 10_000)
    // the reports say the run could not be made (test/cli/npm-and-paths.test.ts reads them)
    expect(JSON.parse(run.files['results.json']).exitCode).toBe(2)
  })
})
