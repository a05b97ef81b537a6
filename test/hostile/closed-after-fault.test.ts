/**
 * uvicorn (0.17, under FastAPI 0.92, measured) closes a kept-alive connection after an answer whose
 * handler raised (Starlette's ServerErrorMiddleware writes the 500, then re-raises), without
 * Connection: close: a request written there next gets no byte of an answer, the keep-alive race
 * (RFC 9112 §9.3.1). A POST it takes is sent again only when the list shows it was not stored; a
 * store that took a lone surrogate answers every later list 500, so the list cannot tell (here one
 * holds another client's from the start). Such a
 * POST failed four rules with NO_RESPONSE ("no complete response"), the race reported as a broken
 * rule; it is not verified now, said why, and not sent again (it may have created a record).
 * Here the race is made sure of: the request written next on such a connection is dropped unread.
 */
import type { Socket } from 'node:net'
import { afterAll, describe, expect, test } from 'vitest'
import { runConform, type ConformRun } from '../helpers/run-conform.ts'
import { httpServer, jsonReply, type HostileServer } from './hostile-servers.ts'
import { expectNoStackTrace, failedChecks, RUN_TIMEOUT_MS } from './expect-run.ts'
import { ANSWER_LOST_LIST_UNREADABLE } from '../../lib/http/journal.ts'

const KEY = 'closed-after-fault-key-7c1d93'
/** A lone surrogate: text with no UTF-8 form (String.prototype.isWellFormed, which the project's ES target does not type). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
const storable = (text: string | undefined) => !LONE_SURROGATE.test(text ?? '')
const servers: HostileServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
})

/** A store behind uvicorn's close: text with a lone surrogate is stored, then answered 500 (it cannot be written as UTF-8), and so is every list after it. */
async function closesAfterAFault() {
  // another client's record holds a lone surrogate already: every list answers 500 from the start, so no list can tell
  const store: { id: number; name: string; description?: string }[] = [{ id: 1, name: 'other client \ud800' }]
  const faulted = new WeakSet<Socket>()
  let lost = 0
  const fault = (res: Parameters<Parameters<typeof httpServer>[0]>[1]) => {
    faulted.add(res.socket!)
    res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Internal Server Error')
  }
  const server = await httpServer((req, res, seen) => {
    if (faulted.has(req.socket)) return void (lost++, req.socket.destroy())
    if (seen.headers.authorization !== `Bearer ${KEY}`) return jsonReply(res, 401, { code: 'unauthorized', message: 'missing or invalid API key', status: 401 })
    if (seen.url.split('?')[0] !== '/v1/categories') return jsonReply(res, 404, { code: 'not_found', message: 'not found', status: 404 })
    if (req.method === 'GET') return store.some((r) => !storable(r.name) || !storable(r.description)) ? fault(res) : jsonReply(res, 200, store)
    let body: unknown
    try {
      body = JSON.parse(seen.body)
    } catch {
      return jsonReply(res, 400, { code: 'invalid_json', message: 'invalid JSON', status: 400 })
    }
    const { name, description, ...rest } = (body ?? {}) as Record<string, unknown>
    const valid = typeof body === 'object' && body !== null && !Array.isArray(body) && typeof name === 'string' && (description === undefined || typeof description === 'string') && !('id' in rest)
    if (!valid) return jsonReply(res, 400, { code: 'validation', message: 'invalid body', status: 400 })
    const record = { id: store.length + 1, name, ...(description === undefined ? {} : { description }) }
    store.push(record)
    if (!storable(name) || !storable(description as string | undefined)) return fault(res)
    jsonReply(res, 201, record)
  })
  servers.push(server)
  return { server, lost: () => lost }
}

describe("a server that closes a kept-alive connection after a fault's answer, whose list then answers 500", { timeout: RUN_TIMEOUT_MS }, () => {
  test('a POST lost to the close is not verified, never a NO_RESPONSE failure; the faults still fail the run', async () => {
    const { server, lost } = await closesAfterAFault()
    const run = await runConform(['--base-url', server.baseUrl], { env: { CONFORM_API_KEY: KEY }, killAfterMs: 100_000 })
    runs.push(run)
    expectNoStackTrace(run)
    expect(run.code, run.stdout).toBe(1)
    expect(lost()).toBeGreaterThan(0)
    const lostPosts = run.results!.journal!.filter((e) => e.method === 'POST' && e.onWire && e.status === undefined)
    expect(lostPosts.length, 'the race took a POST (else this test proves nothing)').toBeGreaterThan(0)
    expect(failedChecks(run).filter((c) => c.failure?.code === 'NO_RESPONSE').map((c) => c.name)).toEqual([])
    const notVerified = run.results!.rules.flatMap((r) => r.checks).filter((c) => c.cause === 'not-sent-again')
    expect(notVerified.length).toBeGreaterThan(0)
    expect(notVerified[0]!.skipReason).toMatch(/^not verified: no answer, the connection closed under the request .*the list could not tell whether it was stored/)
    // the reports' words for the cause say what kept it back: no list could tell, not --max-writes nor the run's bound of resends (review48)
    const summary = run.files['summary.md']!
    expect(summary).toContain('no list could tell whether it was stored')
    expect(summary).not.toMatch(/--max-writes, or the run had sent its bound/)
    // the faults themselves are the service's: the lone surrogate's 500, and the list's after it
    expect(failedChecks(run).some((c) => c.failure?.code === 'SERVER_ERROR')).toBe(true)
  })
})

/** Stores every POST; on a connection whose latest answer was no 5xx it destroys the socket instead of answering; every list answers 500. */
async function dropsAnswersOnReusedConnections() {
  const store: { id: number; name: string }[] = []
  // the status of the latest answer on each connection: a POST after a 5xx there is answered (that is uvicorn's case, above)
  const latestOn = new WeakMap<Socket, number>()
  let dropped = 0
  const server = await httpServer((req, res, seen) => {
    const latest = latestOn.get(req.socket)
    res.on('finish', () => latestOn.set(req.socket, res.statusCode))
    if (seen.headers.authorization !== `Bearer ${KEY}`) return jsonReply(res, 401, { code: 'unauthorized', message: 'missing or invalid API key', status: 401 })
    if (seen.url.split('?')[0] !== '/v1/categories') return jsonReply(res, 404, { code: 'not_found', message: 'not found', status: 404 })
    if (req.method === 'GET') return void res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Internal Server Error')
    let body: unknown
    try {
      body = JSON.parse(seen.body)
    } catch {
      return jsonReply(res, 400, { code: 'invalid_json', message: 'invalid JSON', status: 400 })
    }
    const name = (body as { name?: unknown } | null)?.name
    if (typeof name !== 'string') return jsonReply(res, 400, { code: 'validation', message: 'invalid body', status: 400 })
    const record = { id: store.length + 1, name }
    store.push(record)
    if (latest !== undefined && latest < 500) return void (dropped++, req.socket.destroy())
    jsonReply(res, 201, record)
  })
  servers.push(server)
  return { server, dropped: () => dropped }
}

describe('a server that stores a POST and drops its answer on a reused connection, with no 5xx before it there, behind a list that answers 500', { timeout: RUN_TIMEOUT_MS }, () => {
  test('the lost answer is no keep-alive close after a fault: create-returns-201 fails, the run exits 1 (review48 had it pass)', async () => {
    const { server, dropped } = await dropsAnswersOnReusedConnections()
    const run = await runConform(['--base-url', server.baseUrl, '--rule', 'create-returns-201'], { env: { CONFORM_API_KEY: KEY }, killAfterMs: 100_000 })
    runs.push(run)
    expectNoStackTrace(run)
    expect(dropped(), 'a POST was dropped on a reused connection (else this test proves nothing)').toBeGreaterThan(0)
    expect(run.code, run.stdout).toBe(1)
    const rule = run.results!.rules.find((r) => r.id === 'create-returns-201')!
    expect(rule.status).toBe('fail')
    // failed for the lost answer itself: no answer to a POST stored, not a keep-alive close after a fault
    expect(rule.checks.filter((c) => c.status === 'fail').map((c) => c.failure?.code)).toContain('NO_RESPONSE')
    expect(run.results!.journal!.some((e) => e.answerLost === ANSWER_LOST_LIST_UNREADABLE)).toBe(false)
  })
})

/**
 * A conforming store behind a limiter and the keep-alive race: the first POST written on a reused
 * connection meets the connection's silent close (not stored), and from then on every list is
 * answered 429, Retry-After past the run's deadline, so the list read to tell is cut by it.
 */
async function racesThenLimitsLists() {
  const store: { id: number; name: string; description?: string }[] = []
  const requestsOn = new WeakMap<Socket, number>()
  let dropped = 0
  const server = await httpServer((req, res, seen) => {
    const n = (requestsOn.get(req.socket) ?? 0) + 1
    requestsOn.set(req.socket, n)
    if (seen.headers.authorization !== `Bearer ${KEY}`) return jsonReply(res, 401, { code: 'unauthorized', message: 'missing or invalid API key', status: 401 })
    if (seen.url.split('?')[0] !== '/v1/categories') return jsonReply(res, 404, { code: 'not_found', message: 'not found', status: 404 })
    if (req.method === 'GET') {
      if (dropped === 0) return jsonReply(res, 200, store)
      return void res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3600' }).end(JSON.stringify({ code: 'rate_limited', message: 'slow down', status: 429 }))
    }
    if (n > 1 && dropped === 0) return void (dropped++, req.socket.destroy())
    let body: unknown
    try {
      body = JSON.parse(seen.body)
    } catch {
      return jsonReply(res, 400, { code: 'invalid_json', message: 'invalid JSON', status: 400 })
    }
    const { name, description, ...rest } = (body ?? {}) as Record<string, unknown>
    const valid = typeof body === 'object' && body !== null && !Array.isArray(body) && typeof name === 'string' && (description === undefined || typeof description === 'string') && !('id' in rest)
    if (!valid) return jsonReply(res, 400, { code: 'validation', message: 'invalid body', status: 400 })
    const record = { id: store.length + 1, name, ...(description === undefined ? {} : { description: description as string }) }
    store.push(record)
    jsonReply(res, 201, record)
  })
  servers.push(server)
  return { server, dropped: () => dropped }
}

describe("a POST lost to the keep-alive race whose list read the run's deadline cut (a limiter's 429 past it)", { timeout: RUN_TIMEOUT_MS }, () => {
  test('the list said nothing of the server: the POST is not verified, never a NO_RESPONSE failure (review51)', async () => {
    const { server, dropped } = await racesThenLimitsLists()
    const run = await runConform(['--base-url', server.baseUrl, '--rule', 'create-returns-201', '--deadline', '8000'], { env: { CONFORM_API_KEY: KEY }, killAfterMs: 60_000 })
    runs.push(run)
    expectNoStackTrace(run)
    expect(dropped(), 'a POST was dropped on a reused connection (else this test proves nothing)').toBe(1)
    expect(failedChecks(run).filter((c) => c.failure?.code === 'NO_RESPONSE').map((c) => c.name)).toEqual([])
    expect(run.results!.journal!.filter((e) => e.answerLost === ANSWER_LOST_LIST_UNREADABLE).length).toBe(1)
    const notVerified = run.results!.rules.flatMap((r) => r.checks).filter((c) => c.cause === 'not-sent-again')
    expect(notVerified.length).toBeGreaterThan(0)
    for (const c of notVerified) expect(c.skipReason).toMatch(/; the list read to tell was not answered \(.*deadline.*\), which says nothing of the server .* the list could not tell whether it was stored/)
  })
})
