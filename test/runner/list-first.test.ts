/**
 * lib/runner/list-first.ts: before any POST, the run learns whether its base URL serves the list.
 * A base URL that serves nothing (every request 404: `/api/v1` where the service serves `/v1`) got
 * the whole write plan (about 90 POSTs) before the run said "nothing is served at this base URL";
 * now it gets no POST. A conforming service, one whose list 404s only with a trailing slash, one
 * whose list fails once with a 500, and one whose list is slow still get every POST. Real runs
 * against loopback servers (port 0), and the class on its own.
 */
import { randomBytes } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import { expect, test } from 'vitest'
import type { Exchange } from '../../lib/http/exchange.ts'
import type { JournalLine } from '../../lib/http/journal.ts'
import { KEY_AUTHORIZATION } from '../../lib/http/redact.ts'
import { HOLD_MS, ListFirst } from '../../lib/runner/list-first.ts'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { httpServer, jsonReply } from '../hostile/hostile-servers.ts'
import { runsWithKey, type ConformRun } from '../helpers/run-conform.ts'

const apiKey = `key-${randomBytes(12).toString('hex')}`
const { serve, conform } = runsWithKey(apiKey)

const postsSent = (run: ConformRun) => (run.results?.journal ?? []).filter((e) => e.method === 'POST' && e.onWire).length

/** A front to a reference server that answers some requests itself (`answer` returns true), and records when each came and was answered. */
async function frontOfReference(answer: (req: { method: string; url: string }, reply: (status: number) => void) => boolean | Promise<boolean>) {
  const upstream = serve(await startReferenceServer({ apiKey }))
  const { hostname, port } = new URL(upstream.baseUrl)
  const seen: { method: string; url: string; at: number; answeredAt?: number }[] = []
  const front = serve(
    await httpServer((req, res, request) => {
      const entry: (typeof seen)[number] = { method: request.method, url: request.url, at: performance.now() }
      seen.push(entry)
      res.on('finish', () => (entry.answeredAt = performance.now()))
      void (async () => {
        if (await answer(entry, (status) => jsonReply(res, status, { code: 'x', message: 'x', status }))) return
        // the body httpServer read whole, passed on as it came
        const forwarded = httpRequest({ host: hostname, port, method: req.method, path: req.url, headers: req.headers }, (a) => (res.writeHead(a.statusCode ?? 502, a.headers), a.pipe(res)))
        forwarded.on('error', () => res.destroy())
        forwarded.end(request.bytes)
      })()
    }),
  )
  return { front, seen }
}

test('every request answered 404 (a wrong path before /v1): one POST sent alone, no verdict (exit 2), the words say why', async () => {
  const nothing = serve(await httpServer((_req, res) => jsonReply(res, 404, { error: 'not found' })))
  const run = await conform({ baseUrl: `${nothing.origin}/api/v1` }, '--max-writes', '3')
  expect(run.code, run.stdout).toBe(2)
  // one POST, alone, tells a wrong path from a service that routes the create but not its list (review58)
  expect(postsSent(run)).toBe(1)
  expect(nothing.requests.filter((r) => r.method === 'POST')).toHaveLength(1)
  expect(run.stdout.split('\n')[2]).toMatch(/^✗ nothing is served at this base URL: \d+ requests were answered 404 Not Found, none otherwise \(one POST sent, alone: the run sent no more once its first list, asked with the key, was answered so: \d+ requests not sent\); a wrong path before \/v1/)
  expect(run.stdout).toContain('Verdict: INCOMPLETE')
  expect(run.stdout).toMatch(/^Sent: 1 POST sent, of at most 3 \(--max-writes 3\)/m)
  // the requests that went are few: the first list alone, then the GETs, one POST alone after the second 404, stopped at its 404
  expect(nothing.requests.length).toBeLessThan(50)
})

test("a front that refuses without the key and 404s with it (userplay9's Fastify onRequest hook at /api/v1): one POST sent alone, exit 2", async () => {
  const front = serve(
    await httpServer((req, res) => {
      const status = req.headers.authorization === `Bearer ${apiKey}` ? 404 : 401
      jsonReply(res, status, { code: String(status), message: 'refused', status })
    }),
  )
  const run = await conform({ baseUrl: `${front.origin}/api/v1` })
  expect(run.code, run.stdout).toBe(2)
  expect(front.requests.filter((r) => r.method === 'POST')).toHaveLength(1)
  expect(run.stdout.split('\n')[2]).toMatch(/^✗ nothing is served at this base URL: \d+ requests were answered 404 Not Found, the list asked with the key among them, the others refused before routing \(401 ×\d+\), none served \(one POST sent, alone: /)
})

test('a service whose list 404s only with a trailing slash, run at a base URL ending in /: every POST goes, a pass', async () => {
  const { front } = await frontOfReference((req, reply) => (/\/categories\/$/.test(req.url) ? (reply(404), true) : false))
  const run = await conform({ baseUrl: `${front.baseUrl}/` })
  expect(run.code, run.stdout).toBe(0)
  expect(postsSent(run)).toBeGreaterThan(50)
})

test('a service whose first list fails with a 500: not "nothing served", every POST goes, the fault judged', async () => {
  let first = true
  const { front } = await frontOfReference((req, reply) => (req.method === 'GET' && /\/categories$/.test(req.url) && first ? ((first = false), reply(500), true) : false))
  const run = await conform(front)
  expect(run.stdout).not.toContain('nothing is served')
  expect(postsSent(run)).toBeGreaterThan(50)
  expect(run.code, run.stdout).toBe(1)
})

test('a service that routes the create but not its list, and one whose list is 404 while it is empty: a FAIL of the list rule (exit 1), not "nothing served" (review58)', async () => {
  const list = (req: { method: string; url: string }) => req.method === 'GET' && /\/categories(\?.*)?$/.test(req.url)
  const never = await frontOfReference((req, reply) => (list(req) ? (reply(404), true) : false))
  let created = false
  const empty = await frontOfReference((req, reply) => ((created ||= req.method === 'POST'), list(req) && !created ? (reply(404), true) : false))
  for (const { front } of [never, empty]) {
    const run = await conform(front)
    expect(run.code, run.stdout).toBe(1)
    expect(run.stdout).not.toContain('nothing is served')
    expect(run.stdout).toMatch(/✗ list-returns-200 /)
    expect(postsSent(run)).toBeGreaterThan(50)
  }
}, 60_000)

test('the first list 404, every other GET slower than HOLD_MS, the create served: the POST alone goes, then everything, a FAIL (it stopped, no problem shown)', async () => {
  let firstList = true
  const { front } = await frontOfReference((req, reply) => {
    if (req.method !== 'GET') return false
    if (firstList && /\/categories$/.test(req.url)) return (firstList = false), reply(404), true
    return new Promise<boolean>((resolve) => setTimeout(() => resolve(false), HOLD_MS + 500))
  })
  const run = await conform(front, '--timeout', '10000')
  expect(run.code, run.stdout).toBe(1)
  expect(run.stdout).not.toContain('nothing is served')
  expect(postsSent(run)).toBeGreaterThan(50)
}, 60_000)

test('a slow list: the POSTs wait for its answer (one round trip), or HOLD_MS at most, and the run passes', async () => {
  // the first list only (`times` lists), then as fast as the service
  const slow = (ms: number, times = Infinity) => (req: { method: string; url: string }) =>
    req.method === 'GET' && /\/categories$/.test(req.url) && times-- > 0 ? new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)) : false
  const { front, seen } = await frontOfReference(slow(300))
  const run = await conform(front)
  expect(run.code, run.stdout).toBe(0)
  const list = seen.find((r) => r.method === 'GET' && /\/categories$/.test(r.url))!
  const firstPost = seen.find((r) => r.method === 'POST')!
  expect(seen.indexOf(list)).toBe(0)
  expect(firstPost.at).toBeGreaterThanOrEqual(list.answeredAt!)
  // slower than the hold: the POSTs go after HOLD_MS, before its answer
  const slower = await frontOfReference(slow(HOLD_MS + 1_500, 1))
  const started = performance.now()
  const passed = await conform(slower.front, '--timeout', String(HOLD_MS + 5_000))
  expect(passed.code, passed.stdout).toBe(0)
  const post = slower.seen.find((r) => r.method === 'POST')!
  expect(post.at - started).toBeLessThan(HOLD_MS + 1_000)
}, 60_000)

const lines: JournalLine[] = []
const journal = { record: (line: JournalLine) => void lines.push(line), beforeSend: () => undefined }
const BASE = 'http://127.0.0.1:9/api/v1'
const ended = (status: number | undefined, path = '/categories', keyed = true, method = 'GET') =>
  ({ id: 'x', request: { method, url: `${BASE}${path}`, headers: keyed ? { authorization: KEY_AUTHORIZATION } : {} }, sent: true, ...(status === undefined ? { error: { code: 'TIMEOUT', message: 't' } } : { response: { status, headers: {}, body: '' } }) }) as unknown as Exchange
const listGet = { method: 'GET' as const, path: '/categories', headers: { authorization: KEY_AUTHORIZATION } }
const post = { method: 'POST' as const, path: '/categories', headers: { authorization: KEY_AUTHORIZATION } }

test('the first list goes alone; its 200 lets everything go, its 500 too (a fault to judge, not "nothing served")', async () => {
  for (const status of [200, 500, 401, undefined]) {
    const first = new ListFirst()
    const heard = first.listening(journal)
    expect(first.held(listGet)).toBeUndefined()
    const held = [first.held(post), first.held({ ...listGet, headers: {} })]
    expect(held.every((h) => h instanceof Promise)).toBe(true)
    heard.exchangeEnded!(ended(status))
    await Promise.all(held)
    expect(first.held(post)).toBeUndefined()
    expect(first.stopped.aborted).toBe(false)
  }
})

test('the first list 404: GETs go, POSTs wait; a second 404 stops every request, a GET served lets them go', async () => {
  const stopping = new ListFirst()
  const heard = stopping.listening(journal)
  stopping.held(listGet)
  const write = stopping.held(post)
  heard.exchangeEnded!(ended(404))
  expect(stopping.held({ method: 'GET', path: '/pets/1' })).toBeUndefined()
  heard.exchangeEnded!(ended(401, '/categories', false))
  expect(stopping.stopped.aborted).toBe(false)
  const second = stopping.held(post)
  heard.exchangeEnded!(ended(404, '/pets/1'))
  // the first POST goes alone (review58): a service that routes the create but not its list is judged, not "nothing served"
  await write
  expect(stopping.stopped.aborted).toBe(false)
  heard.exchangeEnded!(ended(404, '/categories', true, 'POST'))
  await second
  expect(stopping.stopped.aborted).toBe(true)
  expect((stopping.stopped.reason as Error).message).toMatch(/^nothing is served at this base URL: the list, asked first with the key, was answered 404 Not Found, .*; one POST, sent alone, was answered so too$/)
  const creates = new ListFirst()
  const heardCreates = creates.listening(journal)
  creates.held(listGet)
  const probe = creates.held(post)
  const rest = creates.held(post)
  heardCreates.exchangeEnded!(ended(404))
  heardCreates.exchangeEnded!(ended(404, '/categories', false))
  await probe
  heardCreates.exchangeEnded!(ended(201, '/categories', true, 'POST'))
  await rest
  expect(creates.stopped.aborted).toBe(false)
  const served = new ListFirst()
  const other = served.listening(journal)
  served.held(listGet)
  const later = served.held(post)
  other.exchangeEnded!(ended(404))
  other.exchangeEnded!(ended(200, '/pets/1'))
  await later
  expect(served.stopped.aborted).toBe(false)
})

test('the POST that goes alone is one with the key: a front that refuses before routing answers one without it 401, which would let the plan go', async () => {
  const first = new ListFirst()
  const heard = first.listening(journal)
  first.held(listGet)
  let unkeyedWent = false
  void first.held({ ...post, headers: {} })!.then(() => (unkeyedWent = true))
  const keyed = first.held(post)
  heard.exchangeEnded!(ended(404))
  heard.exchangeEnded!(ended(404, '/categories', false))
  await keyed
  await new Promise((resolve) => setImmediate(resolve))
  expect(unkeyedWent).toBe(false)
  heard.exchangeEnded!(ended(404, '/categories', true, 'POST'))
  expect(first.stopped.aborted).toBe(true)
})

test('a run with no GET of the list with the key among its first requests (a --rule run of other checks) waits for none', async () => {
  const none = new ListFirst()
  none.listening(journal)
  const started = performance.now()
  await none.held(post)
  expect(performance.now() - started).toBeLessThan(500)
  expect(none.held(post)).toBeUndefined()
})
