/**
 * The HTTP client in-process, against real servers on loopback: why it stopped (its own timeout
 * or the run's deadline, read off the abort's reason), one classifier for network errors, bodies
 * decoded from gzip, deflate and br with the cap on decoded bytes (a compression bomb stops at it),
 * a body's UTF-8 flaws reported, and the journal: what went out on a connection, what was
 * refused, what was created. 429 and 503: resends.test.ts.
 */
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { DEFAULTS } from '../../lib/config/config.ts'
import { journalTotals, parseJournalLines, RunJournal } from '../../lib/http/journal.ts'
import { preflight } from '../../lib/runner/preflight.ts'
import { closedPort, neverAnswers } from '../hostile/hostile-servers.ts'
import { closedAfterwards, serve, withClient } from './client-harness.ts'

describe('why the client stopped: one abort source, its reason read', () => {
  test('its own --timeout → TIMEOUT; the run deadline → DEADLINE; after the deadline nothing is sent', async () => {
    const server = closedAfterwards(await neverAnswers())
    const timedOut = await withClient({ baseUrl: server.baseUrl, timeoutMs: 200 }, (c) => c.send({ method: 'GET', path: '/categories' }))
    expect(timedOut.exchange.error).toEqual({ code: 'TIMEOUT', message: 'no response within 200 ms' })
    const cut = await withClient({ baseUrl: server.baseUrl, timeoutMs: 5_000, deadlineAt: Date.now() + 200 }, (c) => c.send({ method: 'GET', path: '/categories' }))
    expect(cut.exchange.error).toEqual({ code: 'DEADLINE', message: "no response before the run's deadline (--deadline)" })
    const before = server.requests.length
    const late = await withClient({ baseUrl: server.baseUrl, deadlineAt: Date.now() - 1 }, (c) => c.send({ method: 'GET', path: '/categories' }))
    expect(late.exchange.error?.code).toBe('DEADLINE')
    expect(late.exchange.sent).toBe(false)
    expect(server.requests.length).toBe(before)
  })

  test('a server that answers one request at a time: --timeout counts from when a request is written, not while it waits for one of the bounded connections', async () => {
    // 48 requests at once, 50 ms each, one after another: the last is answered 2.4 s after it was
    // sent, but no request waits on a connection longer than DEFAULTS.concurrency answers take
    // (0.8 s); the timeout, twice that for a busy machine, is still shorter than the queue
    let queue = Promise.resolve()
    let inServer = 0
    let mostInServer = 0
    const server = await serve((_req, res) => {
      mostInServer = Math.max(mostInServer, ++inServer)
      queue = queue.then(async () => {
        await new Promise((resolve) => setTimeout(resolve, 50))
        inServer--
        res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
      })
    })
    const started = performance.now()
    const results = await withClient({ baseUrl: server.baseUrl, timeoutMs: 2 * 50 * DEFAULTS.concurrency }, (c) =>
      Promise.all(Array.from({ length: 48 }, () => c.send({ method: 'GET', path: '/categories' }))),
    )
    expect(results.map((r) => r.exchange.error?.message ?? r.exchange.response?.status)).toEqual(Array(48).fill(200))
    expect(performance.now() - started).toBeGreaterThan(48 * 50)
    expect(mostInServer).toBeLessThanOrEqual(DEFAULTS.concurrency)
  })

  test('--concurrency N: at most N requests in flight; critical requests go first, also one queued when an answer it waited for came', async () => {
    let inServer = 0
    let mostInServer = 0
    const arrivals: string[] = []
    const server = await serve((req, res) => {
      mostInServer = Math.max(mostInServer, ++inServer)
      arrivals.push(String(req.url))
      setTimeout(() => {
        inServer--
        res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
      }, 30)
    })
    await withClient({ baseUrl: server.baseUrl, concurrency: 2 }, async (c) => {
      const get = (name: string, critical = false) => c.send({ method: 'GET', path: `/${name}`, critical })
      // started in one turn: the critical one first, though it was asked for last
      const others = Array.from({ length: 6 }, (_, i) => get(`other-${i}`))
      // the chain: a critical request sent when the first critical answer arrives goes before the
      // others still queued, though they asked earlier
      const chain = get('first-critical', true).then(() => get('second-critical', true))
      await Promise.all([...others, chain])
    })
    expect(mostInServer).toBeLessThanOrEqual(2)
    expect(arrivals).toHaveLength(8)
    expect(arrivals.slice(0, 2)).toContain('/v1/first-critical')
    expect(arrivals.slice(0, 4)).toContain('/v1/second-critical')
    expect(arrivals.indexOf('/v1/second-critical')).toBeLessThan(arrivals.indexOf('/v1/other-5'))
  })

  test('a refused connection is named alike by the client and the preflight (one classifier)', async () => {
    const port = await closedPort()
    const baseUrl = `http://127.0.0.1:${port}/v1`
    const result = await withClient({ baseUrl }, (c) => c.send({ method: 'GET', path: '/categories' }))
    expect(result.exchange.error?.code).toBe('CONNECTION_REFUSED')
    expect(result.exchange.sent).toBe(false)
    expect((await preflight(baseUrl, 1_000, {}))?.message).toMatch(/connection refused/)
  })

  test('the preflight honours a handshake made while the event loop was held past its timeout', async () => {
    // the runner's modules evaluate while the preflight waits; on a loaded machine (seen on Node 22)
    // that held the loop past --timeout 300 and a listening server was reported as unreachable
    const server = closedAfterwards(await neverAnswers())
    const holdLoop = (ms: number) => {
      const until = performance.now() + ms
      while (performance.now() < until) {}
    }
    const plain = preflight(server.baseUrl, 50, {})
    holdLoop(200)
    expect(await plain).toBeUndefined()
    // over https the TCP connection opened in time and no TLS handshake ever comes: named as such
    const tls = preflight(`https://127.0.0.1:${server.port}/v1`, 50, {})
    holdLoop(200)
    expect((await tls)?.message).toBe(`cannot reach 127.0.0.1:${server.port}: the TCP connection opened but no TLS handshake completed within 50 ms`)
  })
})

test('the keep-alive race: a GET met by the close of a reused connection is sent again once, on a fresh one; a POST is not, unless the run can tell it was not applied (lost-answer.test.ts)', async () => {
  const requestsOn = new WeakMap<object, number>()
  const server = await serve((req, res) => {
    const n = (requestsOn.get(req.socket) ?? 0) + 1
    requestsOn.set(req.socket, n)
    // the server's idle timeout struck as the second request on a connection came
    if (n > 1) return void req.socket.destroy()
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
  })
  const [first, second, third, post] = await withClient({ baseUrl: server.baseUrl, concurrency: 1 }, async (c) => [
    await c.send({ method: 'GET', path: '/categories' }),
    await c.send({ method: 'GET', path: '/categories' }),
    await c.send({ method: 'GET', path: '/categories' }),
    await c.send({ method: 'POST', path: '/categories', body: '{"name":"n"}' }),
  ])
  expect(first.exchange.response?.status).toBe(200)
  expect(second.exchange).toMatchObject({ attempt: 2, response: { status: 200 } })
  // the resend went on a connection of its own, closed after it: the next GET opened another
  expect(third.exchange).toMatchObject({ response: { status: 200 } })
  expect(third.exchange.attempt).toBeUndefined()
  expect(post.exchange.error?.code).toBe('CONNECTION_RESET')
  expect(post.exchange.attempt).toBeUndefined()
  expect(server.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'GET', 'GET', 'POST'])
})

test('requests that name one connection go on one connection of their own, whatever the run\'s pool has open (a server that keeps header values per connection)', async () => {
  const sockets: object[] = []
  const server = await serve((req, res) => {
    if (!sockets.includes(req.socket)) sockets.push(req.socket)
    res.writeHead(200, { 'content-type': 'application/json' }).end(String(sockets.indexOf(req.socket)))
  })
  const on = await withClient({ baseUrl: server.baseUrl, concurrency: 4 }, async (c) => {
    // the pool's connections busy at once, then the named pair, then the pool again
    const pooled = await Promise.all(Array.from({ length: 4 }, () => c.send({ method: 'GET', path: '/categories' })))
    const first = await c.send({ method: 'GET', path: '/categories', connection: 'pair' })
    const second = await c.send({ method: 'GET', path: '/categories', connection: 'pair' })
    const other = await c.send({ method: 'GET', path: '/categories', connection: 'another' })
    return { pooled: pooled.map((r) => r.text), pair: [first.text, second.text], other: other.text }
  })
  expect(on.pair[0]).toBe(on.pair[1])
  expect(on.pooled).not.toContain(on.pair[0])
  expect([...on.pooled, ...on.pair]).not.toContain(on.other)
})

// --concurrency 1 spares a deployment that takes one connection: a connection of their own would be a second one, which it closes unanswered
test('with one connection at most, requests that name one go on the run\'s connection, one after another as every request', async () => {
  const sockets: object[] = []
  const server = await serve((req, res) => {
    if (!sockets.includes(req.socket)) sockets.push(req.socket)
    res.writeHead(200, { 'content-type': 'application/json' }).end(String(sockets.indexOf(req.socket)))
  })
  const on = await withClient({ baseUrl: server.baseUrl, concurrency: 1 }, async (c) => {
    const before = await c.send({ method: 'GET', path: '/categories' })
    const pair = [await c.send({ method: 'GET', path: '/categories', connection: 'pair' }), await c.send({ method: 'GET', path: '/categories', connection: 'pair' })]
    return [before, ...pair].map((r) => r.text)
  })
  expect(on).toEqual(['0', '0', '0'])
  expect(sockets).toHaveLength(1)
})

describe('Content-Encoding: decoded, the cap on decoded bytes', () => {
  const json = JSON.stringify([{ id: 1, name: 'Ñandú 🐇' }])
  const codings: [string, (b: Buffer) => Buffer][] = [
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    // without the zlib wrapper, as some servers send it (RFC 9110 §8.4.1.2's note; browsers read it)
    ['deflate', deflateRawSync],
    ['br', brotliCompressSync],
    ['gzip, br', (b) => brotliCompressSync(gzipSync(b))],
  ]
  test.each(codings)('%s → the JSON text, and the coding recorded', async (coding, encode) => {
    const server = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding }).end(encode(Buffer.from(json))))
    const result = await withClient({ baseUrl: server.baseUrl }, (c) => c.send({ method: 'GET', path: '/categories' }))
    expect(result.text).toBe(json)
    expect(result.exchange.response?.contentEncoding).toBe(coding)
    expect(result.exchange.response?.bodyBytes).toBe(Buffer.byteLength(json))
  })

  test('a coding the client cannot decode (zstd on a Node without it): UNDECODABLE_BODY, its body not left unread to hold the connection', async () => {
    const body = JSON.stringify(Array.from({ length: 5_000 }, (_, id) => ({ id, name: `category ${id}` })))
    const server = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'zstd' }).end(body))
    const started = Date.now()
    // a body left unread held its connection, and closing the client waited for it (a run's reports came after 112 s, and it never exited)
    const results = await withClient({ baseUrl: server.baseUrl, concurrency: 1, timeoutMs: 5_000 }, async (c) => [await c.send({ method: 'GET', path: '/categories' }), await c.send({ method: 'GET', path: '/categories' })])
    expect(results.map((r) => r.exchange.error?.code)).toEqual(['UNDECODABLE_BODY', 'UNDECODABLE_BODY'])
    expect(Date.now() - started).toBeLessThan(3_000)
  }, 30_000)

  test('a gzip bomb (64 MiB of zeros in 64 KiB) stops at --max-response-bytes of decoded bytes', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024))
    expect(bomb.byteLength).toBeLessThan(100 * 1024)
    const server = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(bomb))
    const before = process.memoryUsage().rss
    const result = await withClient({ baseUrl: server.baseUrl, maxResponseBytes: 1_000_000 }, (c) => c.send({ method: 'GET', path: '/categories' }))
    expect(result.exchange.error).toEqual({
      code: 'RESPONSE_TOO_LARGE',
      message: 'decoded response body (Content-Encoding gzip) larger than 1000000 bytes (the limit set by --max-response-bytes); decoding stopped there',
      // the status line came: a server fault's page past the cap is told apart (lib/result/response-cap.ts)
      status: 200,
    })
    expect(process.memoryUsage().rss - before).toBeLessThan(32 * 1024 * 1024)
  })

  test('the bytes of a body refused for its size no longer count against the bodies the run keeps', async () => {
    // 4 × 1,000 bytes kept at most: a refused body (over 1,000 bytes read) and then 4 of 900 would pass 4,000 if it still counted
    // the big one gzipped: small on the wire (undici's own limit lets it through), read and decoded until it passes the cap
    const server = await serve((req, res) => {
      if (req.url?.endsWith('/big')) return void res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(' '.repeat(5_000)))
      res.writeHead(200, { 'content-type': 'application/json' }).end(`"${'x'.repeat(898)}"`)
    })
    await withClient({ baseUrl: server.baseUrl, maxResponseBytes: 1_000 }, async (client) => {
      const big = await client.send({ method: 'GET', path: '/big' })
      expect(big.exchange.error?.code).toBe('RESPONSE_TOO_LARGE')
      for (let i = 0; i < 4; i++) {
        const small = await client.send({ method: 'GET', path: '/small' })
        expect(small.exchange.error, `body ${i + 1}`).toBeUndefined()
      }
      const fifth = await client.send({ method: 'GET', path: '/small' })
      expect(fifth.exchange.error?.message).toMatch(/^response bodies of this run passed 4000 bytes together/)
    })
  })

  test('a coding the client cannot decode, or a corrupt one → UNDECODABLE_BODY', async () => {
    const server = await serve((req, res) =>
      req.url?.endsWith('br')
        ? res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' }).end('[{"id": 1, "name": "x"}]')
        : res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': req.url?.endsWith('zstd') ? 'zstd' : 'gzip' }).end('not gzip at all'),
    )
    // JSON under a br label: Brotli's ERR__ERROR_FORMAT_SIMPLE_HUFFMAN_SAME was a body that broke off (INCOMPLETE_BODY)
    for (const path of ['/zstd', '/corrupt', '/br']) {
      const result = await withClient({ baseUrl: server.baseUrl }, (c) => c.send({ method: 'GET', path }))
      expect(result.exchange.error?.code, path).toBe('UNDECODABLE_BODY')
    }
  })
})

describe('UTF-8: what TextDecoder would hide', () => {
  test.each([
    ['a byte order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[]')]), { byteOrderMark: true }, '[]'],
    ['Latin-1 bytes', Buffer.from('["Ñandú"]', 'latin1'), { invalidUtf8: true }, '["\ufffdand\ufffd"]'],
    ['plain UTF-8', Buffer.from('["Ñandú"]'), {}, '["Ñandú"]'],
  ] as const)('%s', async (_label, bytes, flags, text) => {
    const server = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(bytes))
    const result = await withClient({ baseUrl: server.baseUrl }, (c) => c.send({ method: 'GET', path: '/categories' }))
    expect(result.text).toBe(text)
    expect({ byteOrderMark: result.byteOrderMark, invalidUtf8: result.invalidUtf8 }).toEqual({ byteOrderMark: undefined, invalidUtf8: undefined, ...flags })
  })
})

describe('the journal', () => {
  test('a request refused by the suite is journalled with why, and not counted as sent', async () => {
    const server = await serve((_req, res) => res.writeHead(200).end('[]'))
    const log = new RunJournal()
    await withClient({ baseUrl: server.baseUrl, journal: log }, async (c) => {
      c.refuse({ method: 'POST', path: '/categories', body: '{}', probe: 'empty-object' }, 'write-budget', 'over the write budget')
      await c.send({ method: 'GET', path: '/categories' })
    })
    const journal = log.entries()
    expect(journal.map((e) => [e.method, e.outcome, e.onWire, e.reason])).toEqual([
      ['POST', 'refused', false, 'write-budget'],
      ['GET', 'answered', true, undefined],
    ])
    expect(journalTotals(journal)).toMatchObject({ requests: 1, writes: 0, refused: { 'write-budget': 1 } })
  })

  test('read back from a journal.ndjson a killed run left: a request whose end never came still counts, a cut line is skipped', () => {
    const line = (fields: object) => JSON.stringify({ method: 'POST', url: 'http://127.0.0.1:1/v1/categories', at: '2026-01-01T00:00:00.000Z', ...fields })
    const ndjson = [
      // a POST that went out, and the process was killed before the answer
      line({ id: 'a', phase: 'dispatched' }),
      line({ id: 'a', phase: 'on-wire' }),
      // a POST answered 201, and one handed over but never written to a connection
      line({ id: 'c', phase: 'dispatched' }),
      line({ id: 'c', phase: 'on-wire' }),
      line({ id: 'c', phase: 'ended', status: 201, created: { id: '9', name: 'x' } }),
      line({ id: 'd', phase: 'dispatched' }),
      line({ id: 'd', phase: 'ended', error: 'DEADLINE' }),
      // the last line, cut by the kill
      '{"id":"b","pha',
    ].join('\n')
    const log = new RunJournal()
    for (const l of parseJournalLines(ndjson)) log.record(l)
    const journal = log.entries()
    expect(journal.map((e) => [e.id, e.onWire, e.outcome, e.mayHaveCreated])).toEqual([
      ['a', true, 'no-end-recorded', true],
      ['c', true, 'answered', true],
      ['d', false, 'failed', undefined],
    ])
    expect(journalTotals(journal)).toMatchObject({ requests: 2, writes: 2, unansweredWrites: 1 })
  })

  test('a POST answered 600 may have created a record, and is not counted among the server faults: no HTTP status says what it did (RFC 9110 §15)', () => {
    const line = (fields: object) => JSON.stringify({ method: 'POST', url: 'http://127.0.0.1:1/v1/categories', at: '2026-01-01T00:00:00.000Z', ...fields })
    const log = new RunJournal()
    const ndjson = ['a', 'b'].flatMap((id, i) => [line({ id, phase: 'dispatched' }), line({ id, phase: 'on-wire' }), line({ id, phase: 'ended', status: [600, 500][i] })])
    for (const l of parseJournalLines(ndjson.join('\n'))) log.record(l)
    const journal = log.entries()
    expect(journal.map((e) => [e.id, e.mayHaveCreated])).toEqual([
      ['a', true],
      ['b', true],
    ])
    expect(journalTotals(journal)).toMatchObject({ writes: 2, faultAnsweredWrites: 1, unansweredWrites: 0 })
  })
})
