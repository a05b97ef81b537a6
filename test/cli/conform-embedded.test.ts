/** The newcomer's run: no arguments, the embedded reference server, every rule passed, exit 0. */
import { afterAll, describe, expect, test } from 'vitest'
import { EMBEDDED_WRITES } from '../../lib/cli/conform.ts'
import { CONFORM_OPTIONS } from '../../lib/config/conform-options.ts'
import { namePrefix } from '../../lib/result/run-result.ts'
import { ruleCatalogue } from '../../lib/spec/rule-catalogue.ts'
import { VALID_CREATES } from '../../suites/cases/valid-creates.ts'
import { runConform, runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'

describe('npm run conform with no arguments', () => {
  let run: ConformRun
  afterAll(() => run?.cleanup())

  test('checks the embedded reference server, passes every rule and exits 0', async () => {
    run = await runConform([])
    expect(run.stderr).toBe('')
    expect(run.code, run.stdout).toBe(0)
    expect(run.stdout).toContain('embedded reference server')
    expect(run.stdout).toContain('Verdict: PASS (exit 0)')
    // its second line: the embedded server's writes are its memory's, not the plan's bounds for a service (92 POSTs, 368 in all, 3680 resends, a newcomer's first sight)
    expect(run.stdout.split('\n').slice(0, 2)).toEqual([expect.stringMatching(/^No --base-url given: checking the embedded reference server at /), EMBEDDED_WRITES])
    const results = run.results!
    expect(results.verdict).toBe('pass')
    expect(results.problems).toEqual([])
    expect(results.rules.map((r) => r.id).sort()).toEqual(ruleCatalogue().map((r) => r.id).sort())
    for (const rule of results.rules) {
      expect(rule.checks.length, rule.id).toBeGreaterThan(0)
      expect(rule.status, `${rule.id}: ${JSON.stringify(rule.checks.find((c) => c.status !== 'pass'))}`).toBe('pass')
    }
  })

  test('writes junit.xml and results.json with every rule, its checks and their evidence', () => {
    expect(run.files['junit.xml']).toMatch(/^<\?xml/)
    expect(run.files['junit.xml']).toContain('<testsuite name="create-echoes-fields')
    const results = run.results!
    expect(results.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
    expect(results.summary.requests).toBeGreaterThan(20)
    const check = results.rules.find((r) => r.id === 'create-returns-201')!.checks[0]
    expect(check.exchanges[0].request.method).toBe('POST')
    expect(check.exchanges[0].request.headers.authorization).toBe('Bearer $CONFORM_API_KEY')
    expect(check.exchanges[0].response?.status).toBe(201)
  })

  test("sends about as many requests as --concurrency's help says a run sends (it said 130 while a run sent 148)", () => {
    const help = CONFORM_OPTIONS.find((o) => o.flag === 'concurrency')!.help
    const said = Number(/a run sends about (\d+)/.exec(help)?.[1])
    expect(Math.abs(run.results!.summary.requests - said) / said, `${run.results!.summary.requests} requests; --help: ${help}`).toBeLessThanOrEqual(0.1)
  })

  test('says what to run next as the command was run: npx petstore-conform outside `npm run conform` (a packed install has no such script)', async () => {
    expect(run.stdout).toContain('Next: your own service, CONFORM_API_KEY=<its key> npx petstore-conform --base-url https://<its host>/v1 ')
    const underNpm = await runConformInProcess([], { env: { npm_lifecycle_event: 'conform' } })
    underNpm.cleanup()
    expect(underNpm.stdout).toContain('Next: your own service, CONFORM_API_KEY=<its key> npm run conform -- --base-url https://<its host>/v1 ')
    // a service's engineers may want the checks beside their unit tests: the line names that door too
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('  or in its own vitest, beside its unit tests: defineConformance() (README: In your own tests)')
  })

  test('says the records went with the embedded server, not the prefix to find them by in a service', () => {
    // a newcomer's first run read "Records created: 25 (names, and the descriptions of the empty name, …, start with cf-p22f4-; …)"
    expect(run.stdout).toContain(`Records created: ${run.results!.ledger.length}, in the embedded reference server's memory, gone with it (listed in the reports)`)
    expect(run.stdout).not.toMatch(/^Records created: .*start with/m)
  })

  test('ledgers every record it created, each named after the run', () => {
    const { ledger, runId } = run.results!
    expect(ledger.length).toBe(VALID_CREATES.length)
    // an empty name (create-empty-name), a name of digits (create-numeric-name), "0" (create-short-name) and __proto__ (create-prototype-name) carry the run's prefix in the description the ledger's body holds
    for (const entry of ledger) expect(entry.name.trim().startsWith(`${namePrefix(runId)}-`) || (/^(|0|-00\d+|__proto__)$/.test(entry.name) && entry.body?.includes(`${namePrefix(runId)}-`))).toBe(true)
  })
})

describe('no base URL, yet one was meant: exit 2 before any request, never a PASS of the embedded server', () => {
  const runs: ConformRun[] = []
  afterAll(() => runs.forEach((r) => r.cleanup()))
  const KEY = 'ci-secret-7f3a9c2e5b'

  test.each([
    ['CONFORM_BASE_URL set but empty (a CI variable not set), the key beside it', { CONFORM_BASE_URL: '', CONFORM_API_KEY: KEY }, [], /^conform: CONFORM_BASE_URL is set but empty .*: the run would check the embedded reference server, not your service;/],
    ['CONFORM_BASE_URL set but empty, no key', { CONFORM_BASE_URL: '' }, [], /^conform: CONFORM_BASE_URL is set but empty /],
    ['a key in CONFORM_API_KEY, no address', { CONFORM_API_KEY: KEY }, [], /^conform: a key is given \(CONFORM_API_KEY\) but no base URL: the run would check the embedded reference server, not your service/],
    ['a key given by --api-key, no address', {}, ['--api-key', KEY], /^conform: a key is given \(--api-key\) but no base URL/],
  ])('%s', async (_, env: Record<string, string>, args: string[], said: RegExp) => {
    const run = await runConformInProcess(args, { env })
    runs.push(run)
    expect(run.code, run.stdout).toBe(2)
    expect(run.stderr).toMatch(said)
    expect(run.stdout).not.toContain('embedded reference server at')
    expect(run.results?.exitCode).toBe(2)
    expect(`${run.stdout}${run.stderr}${Object.values(run.files).join('')}`).not.toContain(KEY)
  })
})
