/**
 * The connection race for POSTs (lib/http/lost-answer.ts): a POST written on a reused connection
 * that the server closes gets no answer. It is sent again only when the run shows it was not
 * applied (on a fresh connection); when the list shows its record, the record counts as created
 * and the journal says so; when the list cannot tell, it is not sent again. One intended create
 * never makes two records.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, onTestFinished, test } from 'vitest'
import type { HttpClient } from '../../lib/http/client.ts'
import { ANSWER_LOST_LIST_UNREADABLE, ANSWER_LOST_NOT_SENT_AGAIN, journalTotals, RunJournal } from '../../lib/http/journal.ts'
import { ANSWER_LOST_RECORD_FOUND, ANSWER_LOST_SENT_AGAIN, type WhetherApplied } from '../../lib/http/lost-answer.ts'
import { serve, withClient } from './client-harness.ts'
import { responseOf } from '../../lib/checks/response.ts'
import { NotApplicable } from '../../lib/checks/failure.ts'

/** A store behind a server that closes a connection under its second request; `storesFirst`: the POST is stored before the close (its answer lost); `with408`: it writes 408 and Connection: close as it closes (its idle notice). */
async function racingStore(storesFirst: boolean, with408 = false) {
  const records: { id: number; name: string }[] = []
  const requestsOn = new WeakMap<object, number>()
  const server = await serve((req, res, seen) => {
    const n = (requestsOn.get(req.socket) ?? 0) + 1
    requestsOn.set(req.socket, n)
    const create = () => {
      const record = { id: records.length + 1, name: (JSON.parse(seen.body) as { name: string }).name }
      records.push(record)
      return record
    }
    if (n > 1 && req.method === 'POST') {
      if (storesFirst) create()
      if (with408) return void req.socket.end('HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n')
      return void req.socket.destroy()
    }
    if (req.method === 'POST') return void res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(create()))
    if (req.url === '/v1/fault') return void res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error')
    // a 103 Early Hints first: the interim answer is no status of the request's (lib/http/interim-answers.ts takes it off)
    if (req.url?.startsWith('/v1/hinted')) res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' })
    if (req.url === '/v1/hinted-fault') return void res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error')
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(records))
  })
  return { server, records }
}

/** The list, read through the client, says whether a record named `name` is stored. */
const listShows =
  (client: () => HttpClient, name: string): WhetherApplied =>
  async () => {
    const list = await client().send({ method: 'GET', path: '/categories' })
    const found = (JSON.parse(list.text ?? '[]') as { id: number; name: string }[]).find((r) => r.name === name)
    return { list, ...(found ? { record: { id: String(found.id), name: found.name, value: found } } : {}) }
  }

/** A GET (to `firstPath`), then the POST on the same (reused) connection, which the server closes under it. */
async function postOnReusedConnection(baseUrl: string, whetherApplied: (client: () => HttpClient) => WhetherApplied | undefined, firstPath = '/categories') {
  const log = new RunJournal()
  const post = await withClient({ baseUrl, concurrency: 1, journal: log }, async (c) => {
    await c.send({ method: 'GET', path: firstPath })
    const check = whetherApplied(() => c)
    return c.send({ method: 'POST', path: '/categories', body: '{"name":"cf-one"}', ...(check ? { whetherApplied: check } : {}) })
  })
  return { post, journal: log.entries() }
}

describe('a POST whose answer the connection race lost', () => {
  test('stored: the list shows it, so it is not sent again; the record counts as created, and the journal says "answer lost, record found"', async () => {
    const { server, records } = await racingStore(true)
    const { post, journal } = await postOnReusedConnection(server.baseUrl, (c) => listShows(c, 'cf-one'))
    expect(records).toEqual([{ id: 1, name: 'cf-one' }])
    expect(post.exchange.error?.code).toBe('CONNECTION_RESET')
    expect(post.answerLost?.record).toMatchObject({ id: '1', name: 'cf-one' })
    expect(server.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'GET'])
    const lost = journal.find((e) => e.method === 'POST')
    expect(lost).toMatchObject({ answerLost: ANSWER_LOST_RECORD_FOUND, created: { id: '1', name: 'cf-one' }, mayHaveCreated: true })
    expect(journalTotals(journal)).toMatchObject({ writes: 1, resentWrites: 0, unansweredWrites: 0 })
  })

  test('not stored: the list does not show it, so it is sent once more, on a fresh connection, and one record is made', async () => {
    const { server, records } = await racingStore(false)
    const { post, journal } = await postOnReusedConnection(server.baseUrl, (c) => listShows(c, 'cf-one'))
    expect(post.exchange).toMatchObject({ attempt: 2, response: { status: 201 } })
    expect(records).toEqual([{ id: 1, name: 'cf-one' }])
    expect(server.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'GET', 'POST'])
    const posts = journal.filter((e) => e.method === 'POST')
    expect(posts.map((e) => [e.attempt, e.answerLost, e.freshConnection, e.status])).toEqual([
      [1, ANSWER_LOST_SENT_AGAIN, undefined, undefined],
      [2, undefined, true, 201],
    ])
    // the resend is no resend after a 429 or 503, and the lost attempt is accounted for
    expect(journalTotals(journal)).toMatchObject({ writes: 2, resentWrites: 0, unansweredWrites: 0 })
  })

  test('sent again on a fresh connection and answered 429 there: the next resend is a resend after a 429, on the run\'s own connections, and counted as one', async () => {
    const records: { id: number; name: string }[] = []
    const requestsOn = new WeakMap<object, number>()
    let posts = 0
    const server = await serve((req, res) => {
      const n = (requestsOn.get(req.socket) ?? 0) + 1
      requestsOn.set(req.socket, n)
      if (req.method === 'GET') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(records))
      posts++
      if (posts === 1 && n > 1) return void req.socket.destroy() // its answer lost, nothing stored
      if (posts === 2) return void res.writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' }).end('{"code":429}')
      records.push({ id: records.length + 1, name: 'cf-one' })
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(records.at(-1)))
    })
    const { post, journal } = await postOnReusedConnection(server.baseUrl, (c) => listShows(c, 'cf-one'))
    expect(post.exchange).toMatchObject({ attempt: 3, response: { status: 201 } })
    const sent = journal.filter((e) => e.method === 'POST')
    expect(sent.map((e) => [e.attempt, e.freshConnection, e.status])).toEqual([
      [1, undefined, undefined],
      [2, true, 429],
      [3, undefined, 201],
    ])
    expect(journalTotals(journal)).toMatchObject({ writes: 3, resentLostWrites: 1, resentWrites: 1, unansweredWrites: 0 })
  })

  test('the list cannot tell, after a 5xx on its connection: not sent again, and its checks not verified (it may have created a record); no way to ask: not sent again, and no answer is a failure of its checks', async () => {
    const { server } = await racingStore(false)
    // the GET before it on its connection answered 500 (uvicorn closes its connection after one, without Connection: close)
    const unknown = await postOnReusedConnection(server.baseUrl, () => async () => undefined, '/fault')
    expect(unknown.post.exchange.error?.code).toBe('CONNECTION_RESET')
    // a list answered 500 (a store that took a value it cannot give back) says nothing of the record: the close's loss, not judged (test/hostile/closed-after-fault.test.ts)
    expect(unknown.post.answerLost?.notSentAgain).toBe('list-unreadable')
    expect(unknown.journal.find((e) => e.method === 'POST')?.answerLost).toBe(ANSWER_LOST_LIST_UNREADABLE)
    const unasked = await postOnReusedConnection(server.baseUrl, () => undefined, '/fault')
    expect(unasked.post.exchange.attempt).toBeUndefined()
    expect(server.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'GET', 'POST'])
    expect(journalTotals(unknown.journal).unansweredWrites).toBe(1)
  })

  test('the list cannot tell, after a 200 on its connection: no fault closed it, so the lost answer stands (no answerLost), its checks judge it (review48)', async () => {
    const { server } = await racingStore(false)
    const unknown = await postOnReusedConnection(server.baseUrl, () => async () => undefined)
    expect(unknown.post.exchange.error?.code).toBe('CONNECTION_RESET')
    expect(unknown.post.answerLost).toBeUndefined()
    expect(unknown.journal.find((e) => e.method === 'POST')?.answerLost).toBeUndefined()
    expect(server.requests.map((r) => r.method)).toEqual(['GET', 'POST'])
  })

  test('after a 103 then a 5xx on its connection, the 5xx is its earlier answer; after a 103 then a 200, the 200 (the interim answer is no status of its own)', async () => {
    const { server } = await racingStore(false)
    // the 103 does come, before the answer (else this test proves nothing)
    const hinted = await withClient({ baseUrl: server.baseUrl }, (c) => c.send({ method: 'GET', path: '/hinted-fault' }))
    expect(hinted.exchange.response).toMatchObject({ status: 500, interim: [103] })
    const fault = await postOnReusedConnection(server.baseUrl, () => async () => undefined, '/hinted-fault')
    expect(fault.post.answerLost?.notSentAgain).toBe('list-unreadable')
    const served = await postOnReusedConnection(server.baseUrl, () => async () => undefined, '/hinted')
    expect(served.post.exchange.error?.code).toBe('CONNECTION_RESET')
    expect(served.post.answerLost).toBeUndefined()
  })

  test('the list cannot tell, after a 200 on its connection, and the server closed it with a 408: its idle notice, the race in words, so not sent again and not verified (no failure of its checks)', async () => {
    const { server } = await racingStore(false, true)
    const unknown = await postOnReusedConnection(server.baseUrl, () => async () => undefined)
    expect(unknown.post.exchange.error).toMatchObject({ code: 'CONNECTION_RESET', status: 408 })
    expect(unknown.post.answerLost?.notSentAgain).toBe('list-unreadable')
    expect(unknown.journal.find((e) => e.method === 'POST')?.answerLost).toBe(ANSWER_LOST_LIST_UNREADABLE)
    expect(server.requests.map((r) => r.method)).toEqual(['GET', 'POST'])
    // its checks say why: not verified, the 408's close, not a 5xx before it
    expect(() => responseOf(unknown.post)).toThrow(expect.objectContaining({ message: expect.stringMatching(/^not verified: .*closed the connection with a 408 as it was written/) }))
    expect(() => responseOf(unknown.post)).toThrow(NotApplicable)
  })
})

describe('a run whose writes the user bounded (--max-writes: boundedWrites)', () => {
  test('each POST goes on a connection of its own, so a server that closes kept-alive connections under a request loses none', async () => {
    const { server, records } = await racingStore(true)
    const log = new RunJournal()
    const post = await withClient({ baseUrl: server.baseUrl, concurrency: 1, journal: log, boundedWrites: true }, async (c) => {
      await c.send({ method: 'GET', path: '/categories' })
      return c.send({ method: 'POST', path: '/categories', body: '{"name":"cf-one"}', whetherApplied: listShows(() => c, 'cf-one') })
    })
    expect(post.exchange.response?.status).toBe(201)
    expect(post.exchange.attempt).toBeUndefined()
    expect(records).toEqual([{ id: 1, name: 'cf-one' }])
    expect(journalTotals(log.entries())).toMatchObject({ writes: 1, resentLostWrites: 0, unansweredWrites: 0 })
  })

  test('a POST the server stored and left unanswered, which a lagging list does not show yet, is not sent again: one record, counted as a POST that may have made one', async () => {
    // stores every POST and drops its connection; the list shows nothing of the last second (a read replica)
    const records: { id: number; name: string; at: number }[] = []
    const server = await serve((req, res, seen) => {
      if (req.method === 'POST') {
        records.push({ id: records.length + 1, name: (JSON.parse(seen.body) as { name: string }).name, at: Date.now() })
        return void req.socket.destroy()
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(records.filter((r) => Date.now() - r.at > 1_000)))
    })
    const log = new RunJournal()
    const post = await withClient({ baseUrl: server.baseUrl, concurrency: 4, journal: log, boundedWrites: true }, (c) =>
      c.send({ method: 'POST', path: '/categories', body: '{"name":"cf-one"}', whetherApplied: listShows(() => c, 'cf-one') }),
    )
    expect(post.exchange.error?.code).toBe('CONNECTION_RESET')
    expect(post.answerLost).toMatchObject({ notSentAgain: 'max-writes' })
    expect(records.map((r) => r.name)).toEqual(['cf-one'])
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'GET'])
    const entries = log.entries()
    expect(entries.find((e) => e.method === 'POST')).toMatchObject({ answerLost: ANSWER_LOST_NOT_SENT_AGAIN, mayHaveCreated: true })
    expect(journalTotals(entries)).toMatchObject({ writes: 1, resentLostWrites: 0, unansweredWrites: 1 })
  })
})

describe("a server that keeps at most a few connections open to a client (Node's server.maxConnections)", () => {
  /** Closes every connection past `limit` open at once as soon as it is accepted; stores each POST's name. */
  async function limitedStore(limit: number) {
    const names: string[] = []
    const server = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk: Buffer) => (body += chunk.toString()))
      req.on('end', () => {
        if (req.method === 'POST') {
          const name = (JSON.parse(body) as { name: string }).name
          names.push(name)
          return void res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: names.length, name }))
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(names.map((name, i) => ({ id: i + 1, name }))))
      })
    })
    server.maxConnections = limit
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    onTestFinished(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))))
    return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, names }
  }

  test('every request is answered, a POST lost at the door is sent again only once the list shows it was not stored, and fewer go at once', async () => {
    const { baseUrl, names } = await limitedStore(3)
    const log = new RunJournal()
    const results = await withClient({ baseUrl, concurrency: 12, journal: log }, async (c) =>
      Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          i % 2 === 0
            ? c.send({ method: 'GET', path: '/categories' })
            : c.send({ method: 'POST', path: '/categories', body: JSON.stringify({ name: `cf-${i}` }), whetherApplied: listShows(() => c, `cf-${i}`) }),
        ),
      ),
    )
    expect(results.map((r) => r.exchange.response?.status ?? r.exchange.error?.code)).toEqual(Array.from({ length: 24 }, (_, i) => (i % 2 === 0 ? 200 : 201)))
    // one record for each intended create
    expect([...names].sort()).toEqual(Array.from({ length: 12 }, (_, i) => `cf-${2 * i + 1}`).sort())
    const entries = log.entries()
    const fewer = entries.flatMap((e) => (e.fewerConnections === undefined ? [] : [e.fewerConnections]))
    expect(fewer.length).toBeGreaterThan(0)
    // fewer than the 12 it began with (how far down depends on when the server frees a place)
    expect(Math.min(...fewer)).toBeLessThan(12)
    const totals = journalTotals(entries)
    expect(totals.resentWrites).toBe(0)
    expect(totals.resentLostWrites).toBe(totals.writes - 12)
  })
})
