/**
 * A front's bot check in front of the service (Cloudflare's challenge page, `cf-mitigated: challenge`):
 * the run says whose answer it was and ends without a verdict (exit 2), instead of "the server refused
 * the key" and 49 failed checks of the auth rules worded as Spring's CSRF 403. lib/result/front-answered.ts.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, expect, test } from 'vitest'
import type { Exchange } from '../../lib/http/exchange.ts'
import { blockedRun, challengedRun, frontAnswered, withoutChecksOfTheFront } from '../../lib/result/front-answered.ts'
import { startReferenceServer, type Reply, type RunningServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { POST_PROBES } from '../../suites/cases/write-order.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'

const servers: RunningServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((r) => r.cleanup())
  await Promise.all(servers.map((s) => s.close()))
})

/** Cloudflare's managed challenge, as a zone with Bot Fight Mode answers a client that runs no JavaScript. */
const CHALLENGE: Reply = {
  status: 403,
  headers: { 'content-type': 'text/html; charset=UTF-8', 'cf-mitigated': 'challenge', server: 'cloudflare', 'cf-ray': '8e1f2a3b4c5d6e7f-FRA' },
  body: '<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title></head><body><noscript>Enable JavaScript and cookies to continue</noscript></body></html>',
}

test("a bot check that challenges every request: said first, as the front's, no rule failed; verdict INCOMPLETE, exit 2, nothing probed again", async () => {
  const key = `right-${randomBytes(12).toString('hex')}`
  const server = await startReferenceServer({ apiKey: key, behaviour: { finish: () => CHALLENGE } })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl], { env: { CONFORM_API_KEY: key } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(2)
  expect(run.stdout.split('\n')[2]).toMatch(/^✗ Cloudflare's bot check answered \d+ requests 403 with its challenge \(cf-mitigated\), not the service; .*a WAF custom rule with the Skip action for the User-Agent petstore-conform\//)
  expect(run.stdout).not.toContain('refused the key')
  expect(run.stdout).not.toContain('CSRF')
  expect(run.results?.problems[0]?.kind).toBe('front-answered')
  expect(run.files['report.html']).toContain('INCOMPLETE: a front&#39;s bot check or firewall answered the run&#39;s requests')
  const checks = (run.results?.rules ?? []).flatMap((r) => r.checks)
  expect(checks.filter((c) => c.status === 'fail')).toEqual([])
  // the requests without a key were challenged too: their checks are not verified, not failed
  const withoutKey = checks.filter((c) => c.exchanges.length > 0 && c.exchanges.every((e) => e.request.headers.authorization === undefined))
  expect(withoutKey.length).toBeGreaterThan(5)
  expect(withoutKey.filter((c) => c.status !== 'skip' || c.cause !== 'front-answered')).toEqual([])
  expect(run.results?.summary.writes).toBeLessThanOrEqual(POST_PROBES.filter((p) => !p.followUp).length)
})

test("Vercel's challenge is a 429: not waited out as a rate limit (120 s and 4,823 requests before), said as the front's", async () => {
  const key = `right-${randomBytes(12).toString('hex')}`
  const vercel: Reply = { status: 429, headers: { 'content-type': 'text/html; charset=utf-8', 'x-vercel-mitigated': 'challenge', server: 'Vercel' }, body: '<!DOCTYPE html><title>Vercel Security Checkpoint</title>' }
  const server = await startReferenceServer({ apiKey: key, behaviour: { finish: () => vercel } })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl, '--deadline', '8000'], { env: { CONFORM_API_KEY: key } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(2)
  expect(run.results?.problems.map((p) => p.kind)).toEqual(['front-answered'])
  expect(run.results?.problems[0]?.message).toMatch(/^Vercel's bot check answered \d+ requests 429 with its challenge \(x-vercel-mitigated\), not the service/)
  expect(run.results?.summary.requests).toBeLessThan(200)
  expect(run.results?.durationMs).toBeLessThan(6000)
})

/** Cloudflare's block page, as a WAF rule's Block action (or a blocked address) answers. */
const BLOCK_PAGE = '<!DOCTYPE html><html lang="en-US"><head><title>Attention Required! | Cloudflare</title></head><body><h1>Sorry, you have been blocked</h1><p>Cloudflare Ray ID: <strong>8e1f2a3b4c5d6e7f</strong></p></body></html>'

test("a firewall that blocks every request: its block page is said to be the front's, not 'the server refused the key' and 49 failed checks", async () => {
  const key = `right-${randomBytes(12).toString('hex')}`
  const block: Reply = { status: 403, headers: { 'content-type': 'text/html; charset=UTF-8', server: 'cloudflare', 'cf-ray': '8e1f2a3b4c5d6e7f-FRA' }, body: BLOCK_PAGE }
  const server = await startReferenceServer({ apiKey: key, behaviour: { finish: () => block } })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl], { env: { CONFORM_API_KEY: key } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(2)
  expect(run.stdout.split('\n')[2]).toMatch(/^✗ Cloudflare refused every request of the run \(\d+, 403 with its block page\), with the key and without it, not the service; let the suite's requests through: a WAF custom rule/)
  expect(run.stdout).not.toContain('refused the key')
  expect((run.results?.rules ?? []).flatMap((r) => r.checks).filter((c) => c.status === 'fail')).toEqual([])
})

test("a rate rule of the front that blocks every request from the 120th on: its block pages judge nothing (it was a FAIL of both auth rules, 'the server stopped accepting the key'); exit 2, said as the front's", async () => {
  const key = `right-${randomBytes(12).toString('hex')}`
  const block: Reply = { status: 403, headers: { 'content-type': 'text/html; charset=UTF-8', server: 'cloudflare', 'cf-ray': '8e1f2a3b4c5d6e7f-FRA' }, body: BLOCK_PAGE }
  let seen = 0
  const server = await startReferenceServer({ apiKey: key, behaviour: { finish: (reply) => (++seen >= 120 ? block : reply) } })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl], { env: { CONFORM_API_KEY: key } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(2)
  // the client knows when a request went on the wire only once its write's callback has run: with
  // the server in this process under a full npm test's load, a request the server counted before
  // the 120th was once journalled as written after the first block page, and served, and the run
  // was told by the blocks' other sign (sent again, or the same GET served elsewhere): "for a while"
  // (1 run in a full npm test at a load of 8 to 12). Either words are the front's, exit 2.
  expect(run.results?.problems[0]?.message).toMatch(
    /^Cloudflare (refused every request sent after its first block page \(\d+ answered 403\), with the key and without it, not the service: a rate rule |blocked \d+ requests for a while ).*--rate-limit/,
  )
  expect(run.stdout).not.toContain('stopped accepting the key')
  expect((run.results?.rules ?? []).flatMap((r) => r.checks).filter((c) => c.status === 'fail')).toEqual([])
})

test("Azure API Management's 401 for want of its subscription key: not 'the server refused the key', and what to give", async () => {
  const key = `right-${randomBytes(12).toString('hex')}`
  const apim: Reply = { status: 401, headers: { 'content-type': 'application/json' }, body: { statusCode: 401, message: 'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.' } }
  const server = await startReferenceServer({ apiKey: key, behaviour: { finish: () => apim } })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl], { env: { CONFORM_API_KEY: key } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(2)
  expect(run.results?.problems[0]?.message).toMatch(/^Azure API Management refused every request of the run \(\d+, 401 with its refusal for want of its subscription key\), .*--header 'Ocp-Apim-Subscription-Key: <subscription key>'/)
  expect(run.stdout).not.toContain('refused the key')
  // its 401s to the requests without a key are its own too: no Error record asked of them
  expect((run.results?.rules ?? []).flatMap((r) => r.checks).filter((c) => c.status === 'fail')).toEqual([])
})

test("a front that challenges some paths only: the service's own answers still fail the rule they break, confirmed (FAIL, exit 1), the challenge said first", async () => {
  const key = `right-${randomBytes(12).toString('hex')}`
  const server = await startCase(MUTATIONS.find((m) => m.name === 'list-wrapped-behind-area-challenge')!, { apiKey: key })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl], { env: { CONFORM_API_KEY: key } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(1)
  expect(run.results?.problems[0]?.message).toMatch(/^Cloudflare's bot check answered \d+ requests 403 with its challenge/)
  const failed = (run.results?.rules ?? []).flatMap((r) => r.checks).filter((c) => c.status === 'fail')
  expect(failed.map((c) => c.failure?.code)).toContain('SCHEMA_MISMATCH')
  // its failures were probed again: the front challenges other paths, not the list
  expect(failed.filter((c) => c.recurrence?.kind === 'deterministic').length, JSON.stringify(failed.map((c) => c.recurrence))).toBeGreaterThan(0)
})

const answered = (id: string, status: number, headers: Record<string, string>): Exchange => ({
  id,
  startedAt: new Date(0).toISOString(),
  durationMs: 1,
  request: { method: 'GET', url: 'http://127.0.0.1:9/v1/categories', headers: {} },
  response: { status, headers, body: '', bodyBytes: 0, bodyTruncated: false },
})

test("each front by the header it documents for its challenges, and only when there are enough of them", () => {
  const cf = (id: string) => answered(id, 403, { 'cf-mitigated': 'challenge' })
  expect(challengedRun([cf('a'), cf('b')])).toBeUndefined()
  expect(challengedRun([cf('a'), cf('a'), cf('b')])).toBeUndefined()
  expect(challengedRun([cf('a'), cf('b'), cf('c')])?.message).toMatch(/^Cloudflare's bot check answered 3 requests 403/)
  // Vercel answers its challenge 429; AWS WAF its Challenge 202 and its CAPTCHA 405
  expect(challengedRun(['a', 'b', 'c'].map((id) => answered(id, 429, { 'x-vercel-mitigated': 'challenge' })))?.message).toMatch(/^Vercel's bot check answered 3 requests 429 .*a rule of the front/)
  const waf = [answered('a', 202, { 'x-amzn-waf-action': 'challenge' }), answered('b', 405, { 'x-amzn-waf-action': 'captcha' }), answered('c', 405, { 'x-amzn-waf-action': 'captcha' })]
  expect(challengedRun(waf)?.message).toMatch(/^AWS WAF's bot check answered 3 requests 202 or 405 with its challenge \(x-amzn-waf-action\)/)
  // a Cloudflare block (not a challenge) is a refusal the rules judge
  expect(challengedRun(['a', 'b', 'c'].map((id) => answered(id, 403, { 'cf-mitigated': 'block', server: 'cloudflare' })))).toBeUndefined()
})

test('a firewall that blocked some requests only (a managed rule against markup) leaves them to the rules; one that blocked all of them is the run\'s problem', () => {
  const page = (id: string): Exchange => ({ ...answered(id, 403, { server: 'cloudflare' }), response: { status: 403, headers: { server: 'cloudflare' }, body: BLOCK_PAGE, bodyBytes: BLOCK_PAGE.length, bodyTruncated: false } })
  expect(blockedRun([page('a'), page('b'), page('c')])?.message).toMatch(/^Cloudflare refused every request of the run \(3, 403 with its block page\)/)
  expect(blockedRun([page('a'), page('b'), page('c'), answered('d', 201, {})])).toBeUndefined()
  expect(blockedRun([page('a'), page('b')])).toBeUndefined()
  // Cloud Run's IAM, which reads Authorization as a Google identity token: 403 without one, 401 to the service's key
  const google = (id: string, status: number, body: string): Exchange => ({ ...answered(id, status, {}), response: { status, headers: { server: 'Google Frontend' }, body, bodyBytes: body.length, bodyTruncated: false } })
  const forbidden = '<html><head><title>403 Forbidden</title></head><body><h1>Error: Forbidden</h1><h2>Your client does not have permission to get URL <code>/v1/categories</code> from this server.</h2></body></html>'
  const unauthorized = '<html><head><title>401 Unauthorized</title></head><body><h1>Error: Unauthorized</h1><h2>Your client does not have permission to the requested URL <code>/v1/categories</code>.</h2></body></html>'
  expect(blockedRun([google('a', 403, forbidden), google('b', 401, unauthorized), google('c', 401, unauthorized)])?.message).toMatch(
    /^Google Cloud Run refused every request of the run \(3, 403 or 401 with its refusal of the invoker \(IAM\)\), .*--allow-unauthenticated.*X-Serverless-Authorization/,
  )
})

test('a block page for some requests is judged the same with or without challenges elsewhere: a failure, confirmed (exit 1 both ways)', async () => {
  for (const name of ['markup-blocked', 'markup-blocked-behind-area-challenge']) {
    const key = `right-${randomBytes(12).toString('hex')}`
    const server = await startCase(MUTATIONS.find((m) => m.name === name)!, { apiKey: key })
    servers.push(server)
    const run = await runConformInProcess(['--base-url', server.baseUrl, '--rule', 'create-returns-201', '--rule', 'auth-missing-key-401'], { env: { CONFORM_API_KEY: key } })
    runs.push(run)
    expect(run.code, `${name}\n${run.stdout}`).toBe(1)
    const failed = (run.results?.rules ?? []).flatMap((r) => r.checks).filter((c) => c.status === 'fail')
    // the two creates whose names hold markup: create-json-escapes and create-padded-name
    expect(failed.map((c) => c.failure?.actual), name).toEqual([expect.stringContaining("Cloudflare's block page"), expect.stringContaining("Cloudflare's block page")])
    expect(failed.map((c) => c.recurrence?.kind), name).toEqual(['deterministic', 'deterministic'])
  }
})

test("in a challenged run, a check whose evidence holds a block page stays judged; one whose evidence holds a challenge is not verified; in a run blocked whole, every one is", () => {
  const page = (id: string): Exchange => ({ ...answered(id, 403, {}), response: { status: 403, headers: { server: 'cloudflare' }, body: BLOCK_PAGE, bodyBytes: BLOCK_PAGE.length, bodyTruncated: false } })
  const cf = (id: string) => answered(id, 403, { 'cf-mitigated': 'challenge' })
  const checks = [
    { status: 'fail', exchanges: [page('a')] },
    { status: 'fail', exchanges: [cf('b')] },
    { status: 'pass', exchanges: [cf('c'), cf('d')] },
    { status: 'pass', exchanges: [answered('e', 200, {})] },
  ]
  const run = checks.flatMap((c) => c.exchanges)
  const kept = withoutChecksOfTheFront(checks, frontAnswered(run, false)!)
  expect(kept.map((c) => c.status)).toEqual(['fail', 'skip', 'skip', 'pass'])
  expect(frontAnswered(run, false)!.answered(page('a'))).toBe(false)
  const blockedWhole = [page('a'), page('b'), page('c')]
  const all = withoutChecksOfTheFront([{ status: 'fail', exchanges: blockedWhole }], frontAnswered(blockedWhole, false)!)
  expect(all.map((c) => c.status)).toEqual(['skip'])
  expect(frontAnswered(blockedWhole, false)!.answered(page('a'))).toBe(true)
  // challenged on some paths, every other request blocked: the service answered none, so no rule is judged on them
  const blockedElsewhere = [cf('x'), cf('y'), cf('z'), ...blockedWhole]
  const none = withoutChecksOfTheFront([{ status: 'fail', exchanges: [page('a')] }, { status: 'fail', exchanges: [cf('x')] }], frontAnswered(blockedElsewhere, false)!)
  expect(none.map((c) => c.status)).toEqual(['skip', 'skip'])
})
