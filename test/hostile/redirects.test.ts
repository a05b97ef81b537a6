/**
 * Redirects are never followed: a 3xx is a failure that names where it pointed, and the key is
 * never sent anywhere but the base URL's origin.
 */
import { afterAll, describe, expect, test } from 'vitest'
import { runConform, type ConformRun } from '../helpers/run-conform.ts'
import { httpServer, recorder, redirectsTo, type HostileServer } from './hostile-servers.ts'
import { RUN_TIMEOUT_MS, expectCleanFailure, failedChecks } from './expect-run.ts'

const KEY = 'redirect-test-key-0a77c4e19b'
const servers: HostileServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
})

describe.concurrent('a server that redirects to another origin', { timeout: RUN_TIMEOUT_MS }, () => {
  for (const status of [302, 307]) {
    test(`${status} to a second loopback server → failure names the Location; the second server receives nothing`, async () => {
      const elsewhere = await recorder()
      const location = `${elsewhere.origin}/v1/categories`
      const server = await redirectsTo(location, status)
      servers.push(elsewhere, server)
      const run = await runConform(['--base-url', server.baseUrl, '--timeout', '5000'], { env: { CONFORM_API_KEY: KEY }, killAfterMs: 100_000 })
      runs.push(run)
      expectCleanFailure(run)
      const check = failedChecks(run).find((c) => c.name === "GET /categories with a valid key, as curl --compressed asks (Accept: */*, every coding) → 200")
      expect(check?.failure?.message).toBe(`GET answered ${status} redirecting to ${location} (redirects are not followed), expected 200`)
      expect(run.stdout).toContain(`redirecting to ${location}`)
      // the key went to the server that was named, and nowhere else
      expect(server.requests.some((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true)
      expect(elsewhere.connections()).toBe(0)
      expect(elsewhere.requests).toEqual([])
      // not probed again, as a second probe would meet the same redirects: said so (it said "--confirm 0, the write budget or the deadline")
      expect(run.stdout).toContain('not probed again: the server redirected every request of the run, and a second probe would only meet the same redirects')
      expect(run.stdout).not.toContain('--confirm 0, the write budget or the deadline')
    })
  }

  test('a redirect loop (every URL to itself): a failure naming the Location, one finding, and why nothing was probed again', async () => {
    const loop = await httpServer((req, res) => void res.writeHead(307, { location: req.url ?? '/' }).end())
    servers.push(loop)
    const run = await runConform(['--base-url', loop.baseUrl, '--timeout', '5000'], { env: { CONFORM_API_KEY: KEY }, killAfterMs: 100_000 })
    runs.push(run)
    expectCleanFailure(run)
    expect(run.stdout.split('\n')[2]).toMatch(/^✗ unconfirmed: \d+ checks met requests redirected \(307 to \/v1\/categories.*; not probed again: the server redirected every request of the run, and a second probe would only meet the same redirects$/)
    // each request once: none followed, none probed again
    expect(loop.requests.length).toBe(run.results!.summary.requests)
    expect(run.results!.summary.writesAgain ?? 0).toBe(0)
  })
})

describe('a server that redirects to a Location of 15 KB (under the 16 KiB a head may take)', { timeout: RUN_TIMEOUT_MS }, () => {
  test('each failure quotes its start and length, never a piece of a key the cut would split; the reports stay small', async () => {
    // the key 490 characters in: a cut at 500 would have kept 10 characters of it
    const location = `http://127.0.0.1:1/${'l'.repeat(470)}?token=${KEY}&pad=${'p'.repeat(15_000)}`
    const server = await redirectsTo(location, 302)
    servers.push(server)
    const run = await runConform(['--base-url', server.baseUrl, '--timeout', '5000', '--confirm', '0'], { env: { CONFORM_API_KEY: KEY } })
    runs.push(run)
    expectCleanFailure(run)
    const check = failedChecks(run).find((c) => c.name === "GET /categories with a valid key, as curl --compressed asks (Accept: */*, every coding) → 200")
    // the Location as recorded, the key redacted in it
    const recorded = location.length - KEY.length + '[REDACTED]'.length
    expect(check?.failure?.message).toBe(`GET answered 302 redirecting to http://127.0.0.1:1/${'l'.repeat(470)}?… (${recorded} characters) (redirects are not followed), expected 200`)
    for (const [file, text] of Object.entries(run.files)) {
      // the exchanges' evidence keeps each header whole (up to the 16 KiB of a head): results.json and report.html hold it once an exchange
      expect(text.length, file).toBeLessThan(file === 'junit.xml' ? 1_000_000 : 6_000_000)
      expect(text, file).not.toContain(KEY.slice(-10, -4))
    }
  })
})
