/**
 * A server that stops taking connections during the run (stopped, restarted by a deploy, crashed):
 * from some request on, every connection is refused, confirmations too. No rule is the fault: the
 * run is INCOMPLETE (exit 2), as against a server unreachable from the start, and says from which
 * request on. A server whose port stays open still fails: one that resets the connection of some
 * requests (a crash of a worker, not of the server) is judged on them. One that stops listening for
 * a moment and comes back (a restart) passes: a refused connection carried nothing, and goes again.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, expect, test } from 'vitest'
import type { Exchange } from '../../lib/http/exchange.ts'
import { SERVER_GONE, serverGone } from '../../lib/result/server-gone.ts'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { failedRules, runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { forwardTo } from '../hostile/hostile-servers.ts'

const servers: RunningServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((r) => r.cleanup())
  await Promise.all(servers.map((s) => s.close()))
})

/** A conforming server that, at its `at`th request, closes every connection (that request's too) and stops listening. */
async function goesAwayAt(at: number, apiKey: string): Promise<RunningServer> {
  let requests = 0
  let running: RunningServer | undefined
  running = await startReferenceServer({
    apiKey,
    behaviour: {
      finish: (reply) => {
        if (++requests === at) void running?.close()
        return reply
      },
    },
  })
  servers.push(running)
  return running
}

test("a server that stops listening at its 40th request: INCOMPLETE (exit 2), no rule failed, and the reports say from which request on", async () => {
  const apiKey = `key-${randomBytes(12).toString('hex')}`
  const server = await goesAwayAt(40, apiKey)
  const run = await runConformInProcess(['--base-url', server.baseUrl, '--seed', '1'], { env: { CONFORM_API_KEY: apiKey } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(2)
  expect(failedRules(run)).toEqual([])
  expect(run.results?.verdict).toBe('incomplete')
  expect(run.results?.problems[0]?.kind).toBe('server-gone')
  const problem = run.results?.problems[0]?.message ?? ''
  expect(problem).toMatch(new RegExp(`^${SERVER_GONE}: from request \\d+ on \\(of \\d+, in the order they ended\\), \\d+ requests were refused a connection`))
  expect(problem).toMatch(/the last answer came at .* \((GET|POST) \/v1\/\S+, \d{3}\)/)
  const from = Number(/from request (\d+) on/.exec(problem)?.[1])
  expect(from).toBeGreaterThan(30)
  expect(from).toBeLessThan(60)
  expect(run.stdout).toContain(`✗ ${SERVER_GONE}`)
  expect(run.files['summary.md']).toContain(`from request ${from} on`)
  expect(run.results?.notVerified.some((r) => r.cause === 'server-gone')).toBe(true)
  for (const text of [run.stdout, run.stderr, ...Object.values(run.files)]) expect(text).not.toContain(apiKey)
})

const exchange = (id: string, at: number, outcome: number | 'CONNECTION_REFUSED' | 'CONNECTION_RESET' | 'TIMEOUT' | 'STALLED' | 'DEADLINE'): Exchange => ({
  id,
  startedAt: new Date(at).toISOString(),
  durationMs: 1,
  request: { method: 'GET', url: 'http://127.0.0.1:9/v1/categories', headers: {} },
  ...(typeof outcome === 'number'
    ? { response: { status: outcome, headers: {}, body: '', bodyBytes: 0, bodyTruncated: false } }
    : { error: { code: outcome, message: outcome } }),
})

test('only connections refused to the end of the run: an answer after them, a reset alone or a hang is the server judged', () => {
  const gone = serverGone([exchange('a', 1, 200), exchange('b', 2, 'CONNECTION_RESET'), exchange('c', 3, 'CONNECTION_REFUSED'), exchange('d', 4, 'CONNECTION_REFUSED'), exchange('e', 5, 'CONNECTION_REFUSED')])
  expect(gone?.problem.message).toMatch(/from request 2 on \(of 5, in the order they ended\), 3 requests were refused a connection .*, and 1 in flight had their connection cut/)
  expect([...(gone?.unanswered ?? [])]).toEqual(['b', 'c', 'd', 'e'])
  // restarted: it answered again, and is judged on its answers
  expect(serverGone([exchange('a', 1, 200), exchange('b', 2, 'CONNECTION_REFUSED'), exchange('c', 3, 'CONNECTION_REFUSED'), exchange('d', 4, 'CONNECTION_REFUSED'), exchange('e', 5, 500)])).toBeUndefined()
  // connections cut, the port open: a fault of the server (a worker that crashes on a request)
  expect(serverGone([exchange('a', 1, 200), exchange('b', 2, 'CONNECTION_RESET'), exchange('c', 3, 'CONNECTION_RESET'), exchange('d', 4, 'CONNECTION_RESET')])).toBeUndefined()
  // a server that hangs fails (README: exit 1)
  expect(serverGone([exchange('a', 1, 200), exchange('b', 2, 'TIMEOUT'), exchange('c', 3, 'TIMEOUT'), exchange('d', 4, 'TIMEOUT')])).toBeUndefined()
  // two refusals say too little
  expect(serverGone([exchange('a', 1, 200), exchange('b', 2, 'CONNECTION_REFUSED'), exchange('c', 3, 'CONNECTION_REFUSED')])).toBeUndefined()
})

test('a connection cut as the server went, that the client saw end just before an answer written before it went, was in flight too; a cut seconds before is judged', () => {
  // under load the cut of b was read before the answer of c (a full npm test run failed 4 rules on such a b)
  const interleaved = serverGone([exchange('a', 1, 200), exchange('b', 1_000, 'CONNECTION_RESET'), exchange('c', 1_010, 201), exchange('d', 1_020, 'CONNECTION_RESET'), exchange('e', 1_030, 'CONNECTION_REFUSED'), exchange('f', 1_040, 'CONNECTION_REFUSED'), exchange('g', 1_050, 'CONNECTION_REFUSED')])
  expect([...(interleaved?.unanswered ?? [])].sort()).toEqual(['b', 'd', 'e', 'f', 'g'])
  expect(interleaved?.problem.message).toMatch(/, and 2 in flight had their connection cut \(the first: GET \/v1\/categories/)
  const earlier = serverGone([exchange('a', 1, 200), exchange('b', 1_000, 'CONNECTION_RESET'), exchange('c', 5_000, 201), exchange('e', 5_030, 'CONNECTION_REFUSED'), exchange('f', 5_040, 'CONNECTION_REFUSED'), exchange('g', 5_050, 'CONNECTION_REFUSED')])
  expect([...(earlier?.unanswered ?? [])].sort()).toEqual(['e', 'f', 'g'])
  // a request the client never sent (a stalled operation, the deadline) ends after the refusals and says nothing of the server
  const unsent = serverGone([exchange('a', 1, 200), exchange('e', 30, 'CONNECTION_REFUSED'), exchange('f', 40, 'CONNECTION_REFUSED'), exchange('g', 50, 'CONNECTION_REFUSED'), exchange('h', 60, 'STALLED'), exchange('i', 70, 'DEADLINE')])
  expect([...(unsent?.unanswered ?? [])].sort()).toEqual(['e', 'f', 'g'])
})

test('a server that answered no request of the run: no rule passed but the one that needs no answer (base-url-ends-v1)', async () => {
  // a conditional check ("if refused with 400, the body is an Error record") held on no answer,
  // and error-body-is-error-record and error-status-matches-http read as rules passed
  const apiKey = `key-${randomBytes(12).toString('hex')}`
  const server = await goesAwayAt(1, apiKey)
  const run = await runConformInProcess(['--base-url', server.baseUrl, '--seed', '1'], { env: { CONFORM_API_KEY: apiKey } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(2)
  expect(run.results?.problems[0]?.kind).toBe('server-gone')
  const passed = run.results!.rules.filter((r) => r.status === 'pass').map((r) => r.id)
  expect(passed).toEqual(['base-url-ends-v1'])
  expect(run.results!.rules.flatMap((r) => r.checks.filter((c) => c.status === 'pass' && c.exchanges.some((e) => e.response === undefined)).map((c) => c.name))).toEqual([])
})

/**
 * A conforming service behind a front that restarts gracefully at its `at`th request: it stops
 * listening (requests in flight are answered, idle connections closed) and listens again on the same
 * port `downMs` later, as a process manager's reload does.
 */
async function restartsAt(at: number, downMs: number, apiKey: string): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const service = await startReferenceServer({ apiKey })
  servers.push(service)
  const upstream = new URL(service.baseUrl)
  let requests = 0
  const front: Server = createServer((req, res) => {
    if (++requests === at) {
      front.close()
      front.closeIdleConnections()
      setTimeout(() => front.listen(port, '127.0.0.1'), downMs)
    }
    forwardTo(upstream, req, res)
  })
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  const port = (front.address() as AddressInfo).port
  return { baseUrl: `http://127.0.0.1:${port}${upstream.pathname}`, close: () => new Promise((resolve) => { front.closeAllConnections(); front.close(() => resolve()) }) }
}

test('a server that stops listening for 800 ms at its 40th request and comes back (a restart): the refused requests go again, and the run passes', async () => {
  // each request refused in those 800 ms failed its checks as "no complete response" (exit 1, intermittent)
  const apiKey = `key-${randomBytes(12).toString('hex')}`
  const front = await restartsAt(40, 800, apiKey)
  const run = await runConformInProcess(['--base-url', front.baseUrl, '--seed', '1'], { env: { CONFORM_API_KEY: apiKey } })
  runs.push(run)
  await front.close()
  expect(run.results?.journal?.some((e) => e.error === 'CONNECTION_REFUSED'), 'the restart refused no request of the run').toBe(true)
  expect(run.code, run.stdout).toBe(0)
  expect(failedRules(run)).toEqual([])
  // a refused attempt never left: the POST that went after it is no resend (it was said "sent again after the server answered 429 or 503")
  expect(run.results!.journal!.some((e) => e.method === 'POST' && e.error === 'CONNECTION_REFUSED'), 'the restart refused no POST').toBe(true)
  expect(run.results!.journal!.some((e) => e.status === 429 || e.status === 503)).toBe(false)
  expect(run.results!.summary.resentWrites ?? 0).toBe(0)
  expect(run.stdout).not.toMatch(/sent again after the server answered 429 or 503/)
})

test('a restart of 12 s (a container restarted by its orchestrator) is waited out within a --timeout of 20 s: the run passes', async () => {
  // the window was a fixed 5 s: the requests refused past it failed their checks, though the server came back
  const apiKey = `key-${randomBytes(12).toString('hex')}`
  const front = await restartsAt(40, 12_000, apiKey)
  const run = await runConformInProcess(['--base-url', front.baseUrl, '--seed', '1', '--timeout', '20000'], { env: { CONFORM_API_KEY: apiKey } })
  runs.push(run)
  await front.close()
  expect(run.results?.journal?.some((e) => e.error === 'CONNECTION_REFUSED'), 'the restart refused no request of the run').toBe(true)
  expect(run.code, run.stdout).toBe(0)
  expect(failedRules(run)).toEqual([])
}, 90_000)
