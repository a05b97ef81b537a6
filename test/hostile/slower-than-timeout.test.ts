/**
 * A conforming server slower than --timeout on every request (a cold start that outlasts it, a
 * slow store): the request that expired first fails no rule when the ones written behind it are
 * answered in the second more they wait (lib/http/answer-clock.ts BEHIND_MS), later than
 * --timeout too. Before, that one request failed 5 rules (exit 1): the server had answered, so
 * lib/result/no-answer-in-time.ts took it for a server seen on time that hung on one input.
 */
import { randomBytes } from 'node:crypto'
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, test } from 'vitest'
import { slowOperations } from '../../lib/result/no-answer-in-time.ts'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { runsWithKey } from '../helpers/run-conform.ts'
import { forwardTo } from './hostile-servers.ts'

const KEY = `slow-${randomBytes(12).toString('hex')}`
const { serve, conform } = runsWithKey(KEY)
const TIMEOUT_MS = 1_000
/** Past --timeout, and within the second more the requests behind the first to expire wait. */
const ANSWER_MS = 1_500

/**
 * The reference server behind a front that answers each request ANSWER_MS after it came, once the
 * client has given up on a request that came before it (its connection closed unanswered): the
 * request that expires first is never answered, and the ones written behind it are answered in the
 * second more they wait, later than --timeout. Each answer is read from the service when its request
 * comes, so that it goes out the moment its timer fires, and the client runs in this process: its
 * timer for a request behind (--timeout, then a second more) comes after the front's in the one timer
 * list, however late a loaded machine runs them, and it looks for input once more before it expires
 * the request. Forwarding each request only when its timer fired, a run under a load of 8 to 14 had
 * no answer in that second (2 runs of 2), nor when the front answered at the first expiry.
 */
async function slowFront(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const upstream = serve(await startReferenceServer({ apiKey: KEY }))
  const target = new URL(upstream.baseUrl)
  let arrivals = 0
  // behind: the client gave up on a request that came before it, while it waited; waited: ANSWER_MS have passed since it came
  const held = new Set<{ arrival: number; waited: boolean; behind: boolean; answer: () => void }>()
  const release = () => {
    for (const h of [...held]) if (h.waited && h.behind) (held.delete(h), h.answer())
  }
  const front = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      let upstreamAnswer: { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer } | undefined
      let mayAnswer = false
      const write = () => upstreamAnswer && mayAnswer && res.writeHead(upstreamAnswer.status, upstreamAnswer.headers).end(upstreamAnswer.body)
      const forwarded = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        const body: Buffer[] = []
        answer.on('data', (c: Buffer) => body.push(c))
        answer.on('end', () => ((upstreamAnswer = { status: answer.statusCode ?? 502, headers: answer.headers, body: Buffer.concat(body) }), write()))
      })
      forwarded.on('error', () => res.destroy())
      forwarded.end(Buffer.concat(chunks))
      const entry = { arrival: ++arrivals, waited: false, behind: false, answer: () => ((mayAnswer = true), write()) }
      held.add(entry)
      res.on('close', () => {
        // answered, or given up on by the client
        if (!held.delete(entry)) return
        for (const h of held) if (h.arrival > entry.arrival) h.behind = true
        release()
      })
      setTimeout(() => ((entry.waited = true), release()), ANSWER_MS)
    })
  })
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  return { baseUrl: `http://127.0.0.1:${(front.address() as AddressInfo).port}/v1`, close: () => new Promise((resolve) => (front.closeAllConnections(), front.close(() => resolve()))) }
}

/** A gateway that refuses a request without the key at once and forwards the rest to the slow front (a cold service behind it). */
async function gatewayBeforeColdService(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const cold = serve(await slowFront())
  const target = new URL(cold.baseUrl)
  const gateway = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${KEY}`) {
      req.resume()
      return void res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' }).end('{"code":"unauthorized","message":"no valid key","status":401}')
    }
    forwardTo(target, req, res)
  })
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve))
  return { baseUrl: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/v1`, close: () => new Promise((resolve) => (gateway.closeAllConnections(), gateway.close(() => resolve()))) }
}

const BASE = 'http://x/v1'
let ids = 0
/** A check whose one GET /categories with the key was answered `status` after `ms`, or timed out (no status). */
const check = (ms: number, status?: number) => ({
  status: status === undefined ? 'fail' : 'pass',
  ...(status === undefined ? { failure: { code: 'NO_RESPONSE', actual: `TIMEOUT: no response within ${ms} ms` } } : {}),
  exchanges: [
    {
      id: String(ids++),
      durationMs: ms,
      request: { method: 'GET', url: `${BASE}/categories`, headers: { authorization: 'Bearer $CONFORM_API_KEY' } },
      ...(status === undefined ? { error: { code: 'TIMEOUT', message: `no response within ${ms} ms` } } : { response: { status } }),
    },
  ],
})
const slow = (...checks: ReturnType<typeof check>[]) => slowOperations(checks, BASE, 400).has('GET /categories')

describe('a server slower than --timeout on every request', () => {
  test('answers later than --timeout are no sign of an operation on time; one answer within it is', () => {
    expect(slow(check(400), check(900, 200), check(900, 201))).toBe(true)
    expect(slow(check(400), check(900, 200), check(350, 201))).toBe(false)
    // a limiter's 429 or 503 in front, at once, is no sign of the service behind on time
    expect(slow(check(400), check(5, 429), check(5, 503), check(900, 200))).toBe(true)
    // nor is a gateway's 401
    expect(slow(check(400), check(5, 401), check(5, 401))).toBe(true)
    // no timeout: nothing to leave unverified
    expect(slow(check(900, 200), check(900, 200))).toBe(false)
  })

  test('an answer is timed from its write, not from its wait for a slot: requests held unanswered ahead of it are no sign of a slow operation', () => {
    // written 850 ms after it was started (every slot held by requests the server never answered), answered 50 ms later
    const waited = (ms: number, waitedMs: number, status: number) => {
      const answered = check(ms, status)
      Object.assign(answered.exchanges[0]!, { startedAt: new Date(1_000_000).toISOString(), writtenAtMs: 1_000_000 + waitedMs })
      return answered
    }
    expect(slow(check(400), waited(900, 850, 201))).toBe(false)
    expect(slow(check(400), waited(900, 100, 201))).toBe(true) // 800 ms from its write: slow indeed
  })

  test('the request that expired first fails no rule: no verdict (exit 2), a longer --timeout asked for', async () => {
    const run = await conform(serve(await slowFront()), '--timeout', String(TIMEOUT_MS))
    expect(run.code, run.stdout).toBe(2)
    expect(run.results?.problems[0]?.kind).toBe('no-answer-in-time')
    expect((run.results?.rules ?? []).filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
    // the server did answer, after --timeout: the ones behind the first to expire
    expect(run.results?.journal?.some((e) => e.status !== undefined)).toBe(true)
  }, 90_000)

  test('--read-only behind a gateway that answers 401 itself: its refusals at once are no sign of the service on time, exit 2', async () => {
    const run = await conform(serve(await gatewayBeforeColdService()), '--timeout', String(TIMEOUT_MS), '--read-only')
    expect(run.code, run.stdout).toBe(2)
    expect(run.results?.problems[0]?.kind).toBe('no-answer-in-time')
    expect((run.results?.rules ?? []).filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
  }, 90_000)
})
