/**
 * A server that never answers: the first requests wait out --timeout, the rest are not sent (not
 * verified, saying why), and the run ends on its own with exit 2: a server that answered nothing
 * within --timeout may only be slower than that (lib/result/no-answer-in-time.ts), so its timeouts
 * judge nothing. --deadline bounds the whole run, however many requests are left (exit 2: no
 * verdict was reached).
 */
import { afterAll, describe, expect, test } from 'vitest'
import { runConform, type ConformRun } from '../helpers/run-conform.ts'
import { dripsBody, neverAnswers, type HostileServer } from './hostile-servers.ts'
import { RUN_TIMEOUT_MS, expectCleanFailure, expectRefused, failedChecks } from './expect-run.ts'

const KEY = { CONFORM_API_KEY: 'timeout-test-key-6c1f0e' }
const servers: HostileServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
})

async function timed(args: string[]): Promise<{ run: ConformRun; ms: number }> {
  const started = performance.now()
  const run = await runConform(args, { env: KEY, killAfterMs: 100_000 })
  runs.push(run)
  return { run, ms: performance.now() - started }
}

describe.concurrent('a server that never answers', { timeout: RUN_TIMEOUT_MS }, () => {
  test('accepts the connection, never answers → the first requests wait out 300 ms, the rest are kept back, nothing verified, exit 2', async () => {
    const server = await neverAnswers()
    servers.push(server)
    const { run } = await timed(['--base-url', server.baseUrl, '--timeout', '300'])
    expect(run.code, run.stdout).toBe(2)
    expect(run.stderr).toBe('')
    expect(run.stdout).toContain('Verdict: INCOMPLETE (exit 2)')
    expect(run.results!.problems[0]?.kind).toBe('no-answer-in-time')
    // GET /store/orders among the first: the key and its case-swapped form, on a connection of their own, share a slot granted among the first (lib/http/named-slots.ts)
    expect(run.results!.problems[0]?.message).toMatch(/^requests went unanswered past --timeout \(300 ms\) where ((GET|POST) \/(categories|store)( without the key)? answered no request of the run in time(; )?)+: slower than that \(latency is not shown, §8: a cold start, a slow store\) or hung; a longer --timeout judges it$/)
    expect(run.stdout).toContain('✗ requests went unanswered past --timeout (300 ms) where')
    expect(failedChecks(run)).toEqual([])
    const checks = run.results!.rules.flatMap((r) => r.checks)
    // the first requests timed out; the server had answered nothing, so the rest were kept back
    const timedOut = checks.filter((c) => /^not verified: no response within 300 ms, and (GET|POST) \/categories( without the key)? answered no request of the run in time \(slower than --timeout, or hung\)$/.test(c.skipReason ?? ''))
    expect(timedOut.length).toBeGreaterThan(0)
    expect(timedOut.every((c) => c.cause === 'stalled' && c.exchanges.some((e) => e.error?.code === 'TIMEOUT'))).toBe(true)
    // the list's own check timed out, or was kept back once another GET /categories had
    const statusCheck = checks.find((c) => c.name === "GET /categories with a valid key, as curl --compressed asks (Accept: */*, every coding) → 200")
    expect(statusCheck?.skipReason).toMatch(/^not verified: (no response within 300 ms, and GET \/categories answered no request of the run in time \(slower than --timeout, or hung\)|the server had answered no request when (GET|POST) \/\S+ got no answer within 300 ms \(--timeout\), so this one was not sent)$/)
    // every request reached the server: the checks, not the preflight, judged it
    expect(server.requests.length).toBe(run.results!.summary.requests)
    // the POSTs that went out (the first 16 requests may hold none) were never answered: not
    // records anyone saw, but each may be one
    const posts = server.requests.filter((r) => r.method === 'POST').length
    expect(run.results!.summary.unansweredWrites).toBe(posts)
    expect(run.results!.ledger).toEqual([])
    if (posts > 0) expect(run.stdout).toContain(`POSTs without an answer: ${posts} (each may have created a record; results.json lists them in its journal)`)
  })

  test('--deadline ends the run at the deadline, not after every request has timed out', async () => {
    const server = await neverAnswers()
    servers.push(server)
    // unbounded, the longest chain of requests in one worker (about three timeouts) takes 180 s
    const { run, ms } = await timed(['--base-url', server.baseUrl, '--timeout', '60000', '--deadline', '1500'])
    expectCleanFailureButForTheDeadline(run)
    // vitest's start counts towards the deadline but cannot be cut short; on a loaded machine it
    // takes seconds, hence the margins
    expect(run.results!.durationMs).toBeLessThan(1500 + 10_000)
    expect(ms).toBeLessThan(1500 + 40_000)
    const checks = run.results!.rules.flatMap((r) => r.checks)
    const reasons = checks.map((c) => c.skipReason ?? '')
    // (on a loaded machine vitest may not have collected the checks by the deadline: every rule is then not verified)
    if (checks.length === 0) expect(run.results!.rules.every((r) => r.status === 'skip')).toBe(true)
    // with at most 16 connections, requests beyond them wait for one and are cut there: not verified
    else expect(reasons.some((m) => /the run's deadline \(--deadline\) .*so this request was not sent|the run was cut short \(--deadline/.test(m)), reasons.join('\n')).toBe(true)
    expect(failedChecks(run)).toEqual([])
    // requests that the deadline kept from going out are not counted as made
    expect(run.results!.summary.requests).toBe(server.requests.length)
  })

  test('a body that trickles in and never ends → "the 200 response\'s body did not end within 400 ms", exit 1', async () => {
    const server = await dripsBody()
    servers.push(server)
    const { run } = await timed(['--base-url', server.baseUrl, '--timeout', '400'])
    expectCleanFailure(run)
    expect(failedChecks(run).some((c) => c.failure?.message === "no complete response: the 200 response's body did not end within 400 ms")).toBe(true)
  })

  test('over https, a server that opens TCP but never completes the TLS handshake → exit 2 within the connect timeout', async () => {
    const server = await neverAnswers()
    servers.push(server)
    const { run, ms } = await timed(['--base-url', `https://127.0.0.1:${server.port}/v1`, '--timeout', '400'])
    expectRefused(run, new RegExp(`cannot reach 127\\.0\\.0\\.1:${server.port}: the TCP connection opened but no TLS handshake completed within 400 ms`))
    // without the preflight's own timer this would wait for the kill at 100 s
    expect(ms).toBeLessThan(400 + 15_000)
  })
})

/** No verdict (exit 2), with the one problem a deadline adds. */
function expectCleanFailureButForTheDeadline(run: ConformRun): void {
  expect(run.code, run.stderr).toBe(2)
  expect(run.stderr).toBe('')
  expect(run.results!.problems).toEqual([{ kind: 'deadline', message: 'the run did not finish within 1500 ms (--deadline); checks that had not finished are not verified' }])
  expect(run.stdout).toContain('Verdict: INCOMPLETE (exit 2)')
}

describe('which timeouts judge nothing (lib/result/no-answer-in-time.ts)', () => {
  const BASE = 'http://127.0.0.1:1/v1'
  interface Sent {
    id: string
    durationMs: number
    request: { method: string; url: string; headers: Record<string, string> }
    response?: { status: number }
    error?: { code: string; message: string; status?: number }
  }
  const exchange = (id: string, method: string, path: string, durationMs: number, outcome: 'answered' | 'timeout'): Sent => ({
    id,
    durationMs,
    request: { method, url: `${BASE}${path}`, headers: { authorization: 'Bearer $CONFORM_API_KEY' } },
    ...(outcome === 'answered' ? { response: { status: 200 } } : { error: { code: 'TIMEOUT', message: `no response within ${durationMs} ms` } }),
  })
  const failed = (e: Sent) => ({ status: 'fail', failure: { code: 'NO_RESPONSE', actual: `TIMEOUT: ${e.error?.message}`, transport: { code: 'TIMEOUT' } }, exchanges: [e] })
  const passed = (e: Sent) => ({ status: 'pass', exchanges: [e] })

  test('an operation that answered none, or none within --timeout of its write (a slow list the answer clock let finish): not verified', async () => {
    const { slowOperations, withoutFailuresOfTheTimeout } = await import('../../lib/result/no-answer-in-time.ts')
    const hung = failed(exchange('1', 'GET', '/categories', 2000, 'timeout'))
    const slowList = [hung, passed(exchange('2', 'GET', '/categories', 3300, 'answered'))]
    const slow = slowOperations(slowList, BASE, 2000)
    expect([...slow]).toEqual([['GET /categories', { quickest: 3300 }]])
    expect(withoutFailuresOfTheTimeout(slowList, slow, BASE)[0]).toMatchObject({ status: 'skip', cause: 'stalled', skipReason: 'not verified: no response within 2000 ms, and GET /categories answered no request within --timeout, its quickest after 3300 ms (slower than --timeout, or hung)' })
    expect([...slowOperations([hung], BASE, 2000)]).toEqual([['GET /categories', {}]])
  })

  test('an operation that answered a request within --timeout and not this one (an input that hangs it; those queued behind it on a one-worker server answered late): the failure stands', async () => {
    const { slowOperations, withoutFailuresOfTheTimeout } = await import('../../lib/result/no-answer-in-time.ts')
    const checks = [
      failed(exchange('1', 'POST', '/categories', 2000, 'timeout')),
      passed(exchange('2', 'POST', '/categories', 15, 'answered')),
      passed(exchange('3', 'POST', '/categories', 3100, 'answered')),
      passed(exchange('4', 'GET', '/categories', 5000, 'answered')),
    ]
    const slow = slowOperations(checks, BASE, 2000)
    expect(slow.size).toBe(0)
    expect(withoutFailuresOfTheTimeout(checks, slow, BASE)[0]?.status).toBe('fail')
  })

  test("decided on the client's code and whether a status line came, not on the words of actual", async () => {
    const { slowOperations, withoutFailuresOfTheTimeout } = await import('../../lib/result/no-answer-in-time.ts')
    // a body that trickled past --timeout after its status line: the server answered in time
    const trickled: Sent = { ...exchange('5', 'GET', '/categories', 2000, 'timeout'), error: { code: 'TIMEOUT', message: "the 200 response's body did not end within 2000 ms", status: 200 } }
    const body = [{ status: 'fail', failure: { code: 'NO_RESPONSE', actual: `TIMEOUT: ${trickled.error?.message}`, transport: { code: 'TIMEOUT', status: 200 } }, exchanges: [trickled] }]
    expect(slowOperations(body, BASE, 2000).size).toBe(0)
    // other words for the same timeout before any byte: judged the same
    const hung: Sent = { ...exchange('6', 'GET', '/categories', 2000, 'timeout'), error: { code: 'TIMEOUT', message: 'nothing came in 2000 ms' } }
    const reworded = [{ status: 'fail', failure: { code: 'NO_RESPONSE', actual: 'TIMEOUT: nothing came in 2000 ms', transport: { code: 'TIMEOUT' } }, exchanges: [hung] }]
    const slow = slowOperations(reworded, BASE, 2000)
    expect([...slow]).toEqual([['GET /categories', {}]])
    expect(withoutFailuresOfTheTimeout(reworded, slow, BASE)[0]).toMatchObject({ status: 'skip', cause: 'stalled', skipReason: 'not verified: nothing came in 2000 ms, and GET /categories answered no request of the run in time (slower than --timeout, or hung)' })
    // the words of a timeout on a failure of another cause: not one
    const reset = [{ status: 'fail', failure: { code: 'NO_RESPONSE', actual: 'TIMEOUT: no response within 2000 ms', transport: { code: 'CONNECTION_RESET' } }, exchanges: [exchange('7', 'GET', '/categories', 2000, 'timeout')] }]
    expect(withoutFailuresOfTheTimeout(reset, slowOperations(reset, BASE, 2000), BASE)[0]?.status).toBe('fail')
  })
})
