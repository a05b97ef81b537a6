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
import type { JournalEntry } from '../../lib/http/journal.ts'
import { answeredNoneInTime } from '../../lib/result/no-answer-in-time.ts'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = `slow-${randomBytes(12).toString('hex')}`
const { serve, conform } = runsWithKey(KEY)
const TIMEOUT_MS = 1_000
/** Past --timeout, and well within the second more the requests behind the first to expire wait. */
const ANSWER_MS = 1_500

/** The reference server behind a front that forwards each request ANSWER_MS after it came. */
async function slowFront(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const upstream = serve(await startReferenceServer({ apiKey: KEY }))
  const target = new URL(upstream.baseUrl)
  const front = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () =>
      setTimeout(() => {
        const forwarded = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        })
        forwarded.on('error', () => res.destroy())
        forwarded.end(Buffer.concat(chunks))
      }, ANSWER_MS),
    )
  })
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  return { baseUrl: `http://127.0.0.1:${(front.address() as AddressInfo).port}/v1`, close: () => new Promise((resolve) => (front.closeAllConnections(), front.close(() => resolve()))) }
}

/** A gateway that refuses a request without the key at once and forwards the rest ANSWER_MS after they came (a cold service behind it). */
async function gatewayBeforeColdService(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const cold = serve(await slowFront())
  const target = new URL(cold.baseUrl)
  const gateway = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${KEY}`) {
      req.resume()
      return void res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' }).end('{"code":"unauthorized","message":"no valid key","status":401}')
    }
    const forwarded = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    forwarded.on('error', () => res.destroy())
    req.pipe(forwarded)
  })
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve))
  return { baseUrl: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/v1`, close: () => new Promise((resolve) => (gateway.closeAllConnections(), gateway.close(() => resolve()))) }
}

const entry = (ms: number | undefined, status?: number): JournalEntry =>
  ({ id: String(Math.random()), method: 'GET', url: 'http://x/v1/categories', at: '2026-01-01T00:00:00.000Z', endedAt: new Date(Date.parse('2026-01-01T00:00:00.000Z') + (ms ?? 400)).toISOString(), onWire: true, outcome: status === undefined ? 'failed' : 'answered', ...(status === undefined ? { error: 'TIMEOUT' } : { status }) }) as unknown as JournalEntry

describe('a server slower than --timeout on every request', () => {
  test('answers later than --timeout are no sign of a server on time; one answer within it is', () => {
    expect(answeredNoneInTime([entry(undefined), entry(900, 200), entry(900, 201)], [], 400)).toBe(true)
    expect(answeredNoneInTime([entry(undefined), entry(900, 200), entry(350, 201)], [], 400)).toBe(false)
    // a limiter's 429 or 503 in front, at once, is no sign of the service behind on time
    expect(answeredNoneInTime([entry(undefined), entry(5, 429), entry(5, 503), entry(900, 200), entry(900, 201)], [], 400)).toBe(true)
    // nor is a gateway's 401 to a request without the key
    expect(answeredNoneInTime([entry(undefined), entry(5, 401), entry(5, 401), entry(undefined), entry(undefined)], [], 400)).toBe(true)
    // too few to say
    expect(answeredNoneInTime([entry(undefined), entry(900, 200)], [], 400)).toBe(false)
    // no timeout: nothing to leave unverified
    expect(answeredNoneInTime([entry(900, 200), entry(900, 200), entry(900, 200)], [], 400)).toBe(false)
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
