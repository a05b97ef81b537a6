/**
 * 429 and 503 in the client, against real servers on loopback: waited out and sent again
 * (lib/http/retry-after.ts), a 503 while the server serves others past maxRetries, each attempt
 * journalled.
 */
import { describe, expect, test } from 'vitest'
import { journalTotals, RunJournal } from '../../lib/http/journal.ts'
import { POST_RESENDS_PER_WRITE, retryWaitMs, serverNow } from '../../lib/http/retry-after.ts'
import { serve, withClient } from './client-harness.ts'

// each test has its own server, and most of their time is waiting: they run side by side
describe.concurrent('429 and 503: wait, send again, journal every attempt', () => {
  test('a POST answered 429 is sent again after the wait; both attempts are journalled, the wait counted, one record ledgered', async () => {
    let answered = 0
    const server = await serve((_req, res) => {
      if (answered++ === 0) return void res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"code":"slow_down","message":"later","status":429}')
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":7,"name":"n"}')
    })
    const log = new RunJournal()
    const started = performance.now()
    const result = await withClient({ baseUrl: server.baseUrl, journal: log }, (c) => c.send({ method: 'POST', path: '/categories', body: '{"name":"n"}', probe: 'create-name-only' }))
    expect(performance.now() - started).toBeGreaterThanOrEqual(990)
    expect(result.exchange.response?.status).toBe(201)
    expect(result.exchange).toMatchObject({ attempt: 2, waitedMs: 1000 })
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'POST'])
    const journal = log.entries()
    expect(journal.map((e) => [e.status, e.attempt, e.mayHaveCreated])).toEqual([
      [429, 1, false],
      [201, 2, true],
    ])
    expect(journal[1].created).toEqual({ id: '7', name: 'n' })
    expect(journalTotals(journal)).toMatchObject({ requests: 2, writes: 2, waits: { count: 1, totalMs: 1000 } })
  })

  test('a Retry-After written as a date is read by the server\'s own clock (its Date header): a server 30 s ahead asking for 1 s is sent again after about 1 s, not 31', async () => {
    let answered = 0
    const server = await serve((_req, res) => {
      const serverNow = Date.now() + 30_000
      const date = new Date(serverNow).toUTCString()
      if (answered++ === 0) return void res.writeHead(429, { date, 'retry-after': new Date(serverNow + 1_000).toUTCString(), 'content-type': 'application/json' }).end('{"code":"slow_down","message":"later","status":429}')
      res.writeHead(200, { date, 'content-type': 'application/json' }).end('[]')
    })
    const started = performance.now()
    const result = await withClient({ baseUrl: server.baseUrl, deadlineAt: Date.now() + 20_000 }, (c) => c.send({ method: 'GET', path: '/categories' }))
    expect(result.exchange.response?.status).toBe(200)
    expect(result.exchange.attempt).toBe(2)
    // HTTP dates are whole seconds: 1 s, give or take the second the date was cut to
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(retryWaitMs(429, 'Thu, 01 Jan 2026 00:00:05 GMT', { attempt: 1, unserved: 0 }, { maxRetries: 3, untilDeadline: true }, serverNow('Thu, 01 Jan 2026 00:00:00 GMT', 0))).toBe(5_000)
    expect(serverNow(undefined, 42)).toBe(42)
    expect(serverNow('not a date', 42)).toBe(42)
  })

  test('a 503 from a server that serves nothing, with or without Retry-After: at most maxRetries resends; a Retry-After past the deadline is not waited for', async () => {
    const server = await serve((req, res) => {
      const after = req.url?.includes('far') ? '3600' : req.url?.includes('none') ? undefined : '0'
      res.writeHead(req.url?.includes('far') ? 429 : 503, { 'content-type': 'application/json', ...(after ? { 'retry-after': after } : {}) }).end('{}')
    })
    const send = (path: string) =>
      withClient({ baseUrl: server.baseUrl, maxRetries: 2, deadlineAt: Date.now() + 60_000 }, (c) => c.send({ method: 'GET', path }))
    expect((await send('/always')).exchange.attempt).toBe(3)
    const far = await send('/far')
    expect(far.exchange.attempt).toBeUndefined()
    expect(far.exchange.error?.code).toBe('DEADLINE')
    // a gateway with no healthy upstream answers 503 without Retry-After to everything; so does nginx
    // at 1 a second before it serves its first: resent after about 1 s and 2 s, then judged
    const started = performance.now()
    const none = await send('/none')
    expect(none.exchange.response?.status).toBe(503)
    expect(none.exchange.attempt).toBe(3)
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_490)
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/always', '/v1/always', '/v1/always', '/v1/far', '/v1/none', '/v1/none', '/v1/none'])
  })

  test('a 503 without Retry-After from a server that served before and now serves nothing: resent, then judged after maxRetries unserved tries', async () => {
    let served = 0
    const server = await serve((_req, res) => {
      if (served++ === 0) return void res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
      res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>503 Service Unavailable</h1>')
    })
    const results = await withClient({ baseUrl: server.baseUrl, maxRetries: 1, deadlineAt: Date.now() + 60_000 }, async (c) => [
      await c.send({ method: 'GET', path: '/categories' }),
      await c.send({ method: 'GET', path: '/categories' }),
    ])
    // served 4 s before it was sent counts as serving (SERVED_LOOKBACK_MS): resent about each second
    // until then (more tries than maxRetries allows a server that serves nothing), then once unserved
    expect(results.map((r) => r.exchange.response?.status)).toEqual([200, 503])
    expect(results[1].exchange.attempt).toBeGreaterThanOrEqual(3)
    expect(results[1].exchange.attempt).toBeLessThanOrEqual(12)
  })

  test("a gateway's limit that answers 503 without Retry-After (nginx limit_req): while it serves others, a request is sent again past maxRetries until it gets through", async () => {
    // 3 requests a second get through, the rest are answered 503 as nginx does, with its HTML page
    let window = { start: -Infinity, served: 0 }
    const server = await serve((_req, res) => {
      const now = performance.now()
      if (now - window.start >= 1000) window = { start: now, served: 0 }
      if (window.served >= 3) return void res.writeHead(503, { 'content-type': 'text/html' }).end('<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>')
      window.served++
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
    })
    const results = await withClient({ baseUrl: server.baseUrl, maxRetries: 1, deadlineAt: Date.now() + 30_000 }, (c) =>
      Promise.all(Array.from({ length: 12 }, () => c.send({ method: 'GET', path: '/categories' }))),
    )
    expect(results.map((r) => r.exchange.response?.status)).toEqual(Array(12).fill(200))
    // 12 / 3 = 4 windows at least: the last through were sent a third time or later, past maxRetries (1)
    expect(Math.max(...results.map((r) => r.exchange.attempt ?? 1))).toBeGreaterThanOrEqual(3)
  })

  test('a 429 is resent while the deadline allows, past maxRetries no sooner than 1 s apart (Retry-After: 0 is no loop); without a deadline, maxRetries times', async () => {
    const server = await serve((_req, res) => res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' }).end('{}'))
    const started = performance.now()
    const bounded = await withClient({ baseUrl: server.baseUrl, maxRetries: 2, deadlineAt: Date.now() + 2_500 }, (c) => c.send({ method: 'GET', path: '/categories' }))
    // three at once (Retry-After: 0), then one a second: at 1 s and 2 s; the one at 3 s is past the
    // deadline, so the last 429 is no verdict: a DEADLINE (not verified), the client's run outlasted
    expect(bounded.exchange.attempt).toBe(5)
    expect(bounded.exchange.response).toBeUndefined()
    expect(bounded.exchange.error).toEqual({ code: 'DEADLINE', message: "answered 429 and would be sent again after 1000 ms, past the run's deadline (--deadline)" })
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_990)
    const unbounded = await withClient({ baseUrl: server.baseUrl, maxRetries: 2 }, (c) => c.send({ method: 'GET', path: '/categories' }))
    expect(unbounded.exchange.attempt).toBe(3)
  })

  test('a rate limit of 4 requests a second: 20 requests sent at once all get through, in more rounds than 3 resends allow, each attempt journalled', async () => {
    // a window of one second from its first request (not the clock's seconds, whose boundary may
    // split one wave of resends in two windows)
    let window = { start: -Infinity, served: 0 }
    const server = await serve((_req, res) => {
      const now = performance.now()
      if (now - window.start >= 1000) window = { start: now, served: 0 }
      if (window.served >= 4) return void res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end('{}')
      window.served++
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
    })
    const log = new RunJournal()
    const results = await withClient({ baseUrl: server.baseUrl, journal: log, deadlineAt: Date.now() + 30_000 }, (c) =>
      Promise.all(Array.from({ length: 20 }, () => c.send({ method: 'GET', path: '/categories' }))),
    )
    expect(results.map((r) => r.exchange.response?.status)).toEqual(Array(20).fill(200))
    // 20 / 4 = 5 windows at least: the last requests through were sent a fifth time or later
    expect(Math.max(...results.map((r) => r.exchange.attempt ?? 1))).toBeGreaterThanOrEqual(5)
    expect(log.entries()).toHaveLength(server.requests.length)
  })
})

test.concurrent('a 429 without Retry-After (RFC 6585 makes it optional) is sent again after about 1 s; a second one after about 2 s more (each between half and one and a half times)', async () => {
  let answered = 0
  const server = await serve((_req, res) => {
    if (answered++ < 2) return void res.writeHead(429, { 'content-type': 'application/json' }).end('{"message":"Too Many Requests"}')
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
  })
  const started = performance.now()
  const result = await withClient({ baseUrl: server.baseUrl }, (c) => c.send({ method: 'GET', path: '/categories' }))
  expect(performance.now() - started).toBeGreaterThanOrEqual(1_490)
  expect(result.exchange.response?.status).toBe(200)
  expect(result.exchange.attempt).toBe(3)
  expect(result.exchange.waitedMs).toBeGreaterThanOrEqual(1_000)
  expect(result.exchange.waitedMs).toBeLessThanOrEqual(3_000)
})

test('untimed waits are spread: between half and one and a half times 1 s, 2 s, then 4 s; a Retry-After is waited whole, a 503\'s and up to half as long again (at most 1 s more)', () => {
  const policy = { maxRetries: 3, untilDeadline: true }
  const tries = (attempt: number, unserved = attempt - 1) => ({ attempt, unserved })
  expect([1, 2, 3, 4].map((attempt) => retryWaitMs(429, undefined, tries(attempt), policy, 0, () => 0))).toEqual([500, 1_000, 2_000, 2_000])
  expect([1, 2, 3].map((attempt) => retryWaitMs(503, undefined, tries(attempt), policy, 0, () => 0.999))).toEqual([1_499, 2_998, 5_996])
  expect(retryWaitMs(503, '2', tries(1), policy, 0, () => 0)).toBe(2_000)
  expect(retryWaitMs(503, '2', tries(1), policy, 0, () => 0.999)).toBe(2_999)
  expect(retryWaitMs(503, '60', tries(1), policy, 0, () => 0.999)).toBe(60_999)
  expect(retryWaitMs(429, '2', tries(1), policy, 0, () => 0.999)).toBe(2_000)
  expect(retryWaitMs(503, undefined, tries(4), policy, 0, () => 0.5)).toBeUndefined()
})

test('a 503 while the server serves others: its waits stay short, and past maxRetries tries no shorter than 1 s (Retry-After: 0 is no loop)', () => {
  const policy = { maxRetries: 3, untilDeadline: true }
  expect(retryWaitMs(503, undefined, { attempt: 9, unserved: 0 }, policy, 0, () => 0.5)).toBe(1_000)
  expect(retryWaitMs(503, '0', { attempt: 3, unserved: 0 }, policy)).toBe(0)
  expect(retryWaitMs(503, '0', { attempt: 4, unserved: 0 }, policy)).toBe(1_000)
  expect(retryWaitMs(503, '0', { attempt: 4, unserved: 3 }, policy)).toBeUndefined()
})

test.concurrent('POSTs are sent again after a 429 or 503 at most maxPostResends times in a run; past it, no verdict (not verified) and the client says why', async () => {
  const server = await serve((_req, res) => res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' }).end('{}'))
  const { results, outlasted } = await withClient({ baseUrl: server.baseUrl, maxPostResends: 2, deadlineAt: Date.now() + 60_000 }, async (c) => ({
    results: [await c.send({ method: 'POST', path: '/categories', body: '{}' }), await c.send({ method: 'POST', path: '/categories', body: '{}' })],
    outlasted: c.outlasted,
  }))
  // the first POST: two resends, then the budget is spent; the second: no resend at all
  expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(4)
  expect(results.map((r) => [r.exchange.attempt, r.exchange.response, r.exchange.error?.code])).toEqual([
    [3, undefined, 'DEADLINE'],
    [undefined, undefined, 'DEADLINE'],
  ])
  expect(results[1].exchange.error?.message).toBe(`answered 503 and was not sent again: the run's POSTs had been sent again 2 times (${POST_RESENDS_PER_WRITE} for each POST the run may send)`)
  expect(outlasted).toMatch(/^the server's 503 answers \(a rate limit or a pause\) outlasted the run's resends of POSTs/)
})

test.concurrent('a server that sheds load (one request at a time, 503 with Retry-After: 1 to the rest) gets its refused requests back after 1 s and up to half a second more, each its own: the same wait for all brought a burst back together, to meet one request in progress again', async () => {
  let busy = false
  const server = await serve((_req, res) => {
    if (busy) return void res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"code":"overloaded","message":"later","status":503}')
    busy = true
    setTimeout(() => {
      busy = false
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
    }, 100)
  })
  const results = await withClient({ baseUrl: server.baseUrl, deadlineAt: Date.now() + 60_000 }, (c) => Promise.all(Array.from({ length: 12 }, () => c.send({ method: 'GET', path: '/categories' }))))
  expect(results.map((r) => r.exchange.response?.status)).toEqual(Array(12).fill(200))
  const waits = results.flatMap((r) => (r.exchange.waitedMs === undefined ? [] : [r.exchange.waitedMs]))
  expect(waits.length).toBeGreaterThanOrEqual(6)
  expect(Math.min(...waits)).toBeGreaterThanOrEqual(1_000)
  expect(Math.max(...waits)).toBeLessThanOrEqual(1_500)
  // drawn apart: 6 waits all within 100 ms of each other, drawn from 500 ms, is a chance under 1 in 10,000
  expect(Math.max(...waits) - Math.min(...waits)).toBeGreaterThan(100)
})
