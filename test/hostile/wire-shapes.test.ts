/**
 * Answers whose HTTP framing is unusual but allowed, written byte for byte in front of the
 * reference server (wire-fronts.ts): interim answers before each final one (RFC 9110 §15.2),
 * chunk extensions and trailers (RFC 9112 §7.1), an HTTP/1.0 body that ends at the close (§6.3),
 * Connection: close on a connection the server leaves open, header values of bytes 0x80–0xFF
 * (obs-text, RFC 9110 §5.5), header lines folded onto the next (obs-fold), which a sender must
 * not write but a user agent must read as spaces (RFC 9112 §5.2), and lines ended by a bare LF,
 * which a recipient may read as CRLF (§2.2): undici refused every such answer,
 * and a conforming service behind a folding proxy failed 17 rules with "malformed HTTP response".
 * The document says nothing of framing: each run passes.
 */
import { randomBytes } from 'node:crypto'
import type { Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, describe, expect, test } from 'vitest'
import { AnswerHead } from '../../lib/http/answer-head.ts'
import { withClient } from '../http/client-harness.ts'
import { rawServer, type HostileServer } from './hostile-servers.ts'
import { headLines, plain, runBehindFront, type Answer, type Shape } from './wire-fronts.ts'

const KEY = `wire-${randomBytes(12).toString('hex')}`
const closers: (() => unknown)[] = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

/** The answer chunked, each chunk line with `extension`, and `trailers` after the last chunk. */
const chunked = (answer: Answer, extension: string, trailers: string): Buffer =>
  Buffer.concat([
    Buffer.from(`HTTP/1.1 ${answer.status} X\r\n${headLines(answer.headers)}transfer-encoding: chunked\r\n\r\n`, 'latin1'),
    ...(answer.body.length > 0 ? [Buffer.from(`${answer.body.length.toString(16)}${extension}\r\n`), answer.body, Buffer.from('\r\n')] : []),
    Buffer.from(`0${extension}\r\n${trailers}\r\n`, 'latin1'),
  ])

const SHAPES: { name: string; shape: Shape }[] = [
  {
    name: 'two 103 Early Hints, a 102 and a 100 nobody asked for before every answer',
    shape: (a) => ({ bytes: Buffer.concat([Buffer.from('HTTP/1.1 103 Early Hints\r\nlink: </a>; rel=preload\r\n\r\nHTTP/1.1 103 Early Hints\r\n\r\nHTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n'), plain(a)]) }),
  },
  { name: 'chunked, with chunk extensions and trailers', shape: (a) => ({ bytes: chunked(a, ';sig=abc;q="x y"', 'x-checksum: 1\r\nx-served-by: edge\r\n') }) },
  { name: 'HTTP/1.0 without Content-Length: each body ends at the close', shape: (a) => ({ bytes: Buffer.concat([Buffer.from(`HTTP/1.0 ${a.status} X\r\n${headLines(a.headers)}\r\n`, 'latin1'), a.body]), end: true }) },
  // hostile11: an HTTP/1.0 answer with a Content-Length keeps its connection when it says keep-alive (RFC 9112 §9.3), and undici reuses it
  { name: 'HTTP/1.0 with Content-Length and Connection: keep-alive, the connection kept', shape: (a) => ({ bytes: Buffer.concat([Buffer.from(`HTTP/1.0 ${a.status} X\r\n${headLines(a.headers)}connection: keep-alive\r\ncontent-length: ${a.body.byteLength}\r\n\r\n`, 'latin1'), a.body]) }) },
  // coding names are case-insensitive (RFC 9112 §7)
  { name: 'Transfer-Encoding: Chunked, in capitals', shape: (a) => ({ bytes: Buffer.from(chunked(a, '', '').toString('latin1').replace('transfer-encoding: chunked', 'Transfer-Encoding: Chunked'), 'latin1') }) },
  { name: 'Connection: close, the connection left open', shape: (a) => ({ bytes: plain(a, undefined, 'connection: close\r\n') }) },
  { name: 'a header value with bytes 0x80-0xFF, a reason phrase of "::error::"', shape: (a) => ({ bytes: plain(a, `${a.status} ::error::x`, 'x-note: caf\xe9 \xff\x80\r\n') }) },
  // bare LF line ends: a recipient may take them for CRLF (RFC 9112 §2.2), as curl, Go and browsers do
  { name: 'bare LF line ends throughout (head, chunk lines, trailers), a trailer line folded', shape: (a) => ({ bytes: Buffer.from(chunked(a, '', 'x-sum: a\r\n b\r\n').toString('latin1').replace(/\r\n/g, '\n'), 'latin1') }) },
  { name: 'header lines folded (obs-fold), by CRLF and by a bare LF', shape: (a) => ({ bytes: plain(a, undefined, 'x-fold: a\r\n  b\n\tc\r\nx-policy:\r\n default-src\r\n \'self\'\r\n') }) },
  // hostile12: each answer ends its connection, as a server with keep-alive off writes it
  { name: 'Connection: close, and the connection closed after every answer', shape: (a) => ({ bytes: plain(a, undefined, 'connection: close\r\n'), end: true }) },
  { name: 'HTTP/1.0 with Content-Length and no keep-alive, the connection closed', shape: (a) => ({ bytes: Buffer.concat([Buffer.from(`HTTP/1.0 ${a.status} X\r\n${headLines(a.headers)}content-length: ${a.body.byteLength}\r\n\r\n`, 'latin1'), a.body]), end: true }) },
  {
    name: 'a 103 and a 100, then chunked with extensions and trailers, and the connection closed',
    shape: (a) => ({ bytes: Buffer.concat([Buffer.from('HTTP/1.1 103 Early Hints\r\nlink: </x>; rel=preload\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n'), chunked(a, ';x=1', 'x-t: 1\r\n')]), end: true }),
  },
  // an old server's CRLF after each body (RFC 9112 §2.2's robustness): dropped, no stray answer
  { name: 'an empty line after every body', shape: (a) => ({ bytes: Buffer.concat([plain(a), Buffer.from('\r\n')]) }) },
  {
    name: 'header lines folded, the first 150 bytes of each answer one a write',
    shape: (a, socket) => {
      const bytes = plain(a, undefined, 'x-fold: a\r\n  b\n\tc\r\n')
      for (let i = 0; i < 150; i++) socket.write(bytes.subarray(i, i + 1))
      return { bytes: bytes.subarray(150) }
    },
  },
]

// hostile12: answers framed wrong, one in four: each a malformed answer (PROTOCOL_ERROR) naming its fault, and the run ends
const ILLEGAL: { name: string; shape: Shape; words: RegExp }[] = [
  {
    name: 'chunked with a size that is not hexadecimal',
    shape: (a) => ({ bytes: a.nth % 4 === 0 ? Buffer.concat([Buffer.from(`HTTP/1.1 ${a.status} X\r\n${headLines(a.headers)}transfer-encoding: chunked\r\n\r\nzz\r\n`, 'latin1'), a.body, Buffer.from('\r\n0\r\n\r\n')]) : plain(a) }),
    words: /^PROTOCOL_ERROR: malformed HTTP response \(the body is said to come in chunks \(Transfer-Encoding: chunked\), and where the size of a chunk was due came "zz", no hexadecimal size \(RFC 9112 §7\.1\)\)$/,
  },
  {
    name: 'two Content-Lengths that differ',
    shape: (a) => ({ bytes: a.nth % 4 === 0 ? plain(a, undefined, `content-length: ${a.body.length + 1}\r\n`) : plain(a) }),
    words: /^PROTOCOL_ERROR: malformed HTTP response \(Content-Length given with different values \(\d+, \d+\): where the body ends is ambiguous \(RFC 9112 §6\.3\)\)$/,
  },
]

describe('answers framed wrong, one in four', () => {
  test.each(ILLEGAL)('$name: every failure a malformed answer that names it, the run ended well before its --deadline', async ({ shape, words }) => {
    const started = Date.now()
    const { run } = await runBehindFront(KEY, shape, closers, ['--deadline', '60000'])
    expect(run.code, run.stdout).toBe(1)
    const failed = (run.results?.rules ?? []).flatMap((rule) => rule.checks.filter((check) => check.status === 'fail'))
    expect(failed.length).toBeGreaterThan(0)
    for (const check of failed) expect(check.failure?.actual, run.stdout).toMatch(words)
    expect(run.stdout).toMatch(/^✗ [\w ]+: \d+ of \d+ requests got no answer \(PROTOCOL_ERROR\)/m)
    expect(Date.now() - started).toBeLessThan(60_000)
  }, 120_000)
})

describe('answers framed as HTTP allows, from a conforming service', () => {
  test.each(SHAPES)('$name: the run passes', async ({ shape }) => {
    const { run } = await runBehindFront(KEY, shape, closers)
    expect(run.code, run.stdout).toBe(0)
    expect(run.stdout).not.toMatch(/^\s*::/m)
  }, 120_000)
})

/** A keep-alive server that answers each request head with `answer`, one byte a write, 1 ms apart. */
async function byteByByte(answer: string): Promise<HostileServer> {
  const server = await rawServer((socket: Socket) => {
    let pending = ''
    let answering = Promise.resolve()
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1')
      for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
        pending = pending.slice(end + 4)
        answering = answering.then(async () => {
          for (const byte of Buffer.from(answer, 'latin1')) {
            if (socket.destroyed) return
            socket.write(Buffer.of(byte))
            await sleep(1)
          }
        })
      }
    })
  })
  closers.push(() => server.close())
  return server
}

describe('folded header lines, their bytes cut anywhere', () => {
  const BODY = '[{"id":1,"name":"a\\r\\n b"}]\r\n b'
  const cases = [
    { name: 'CRLF and a space', fold: 'x-fold: a\r\n b\r\n' },
    { name: 'bare LF and a tab, twice', fold: 'x-fold: a\n\tb\n\tc\r\n' },
    { name: 'the last header folded, then the empty line', fold: 'x-fold: a\r\n  b\r\n' },
  ]
  test.each(cases)('$name: the value read with spaces, the body untouched, twice on one connection', async ({ fold }) => {
    const server = await byteByByte(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${fold}content-length: ${Buffer.byteLength(BODY)}\r\n\r\n${BODY}`)
    await withClient({ baseUrl: server.baseUrl }, async (client) => {
      for (let i = 0; i < 2; i++) {
        const { exchange, text } = await client.send({ method: 'GET', path: '/categories' })
        expect(exchange.error).toBeUndefined()
        expect(exchange.response?.headers['x-fold']).toMatch(/^a[ \t]+b([ \t]+c)?$/)
        expect(exchange.response?.headers['content-type']).toBe('application/json')
        expect(text).toBe(BODY)
      }
    })
    expect(server.connections()).toBe(1)
  }, 30_000)

  test('the key echoed across a fold, or over two lines of one name, is hidden: its pieces, each too short to hide, read as one', async () => {
    const key = 'Ab3%Zq+/x=9('
    const server = await byteByByte(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-token: Bearer ${key.slice(0, 6)}\r\n ${key.slice(6)}\r\nx-split: ${key.slice(0, 6)}\r\nx-split: ${key.slice(6)}\r\nx-plain: a  b\r\ncontent-length: 2\r\n\r\n[]`)
    await withClient({ baseUrl: server.baseUrl, apiKey: key }, async (client) => {
      const { exchange } = await client.send({ method: 'GET', path: '/categories' })
      expect(exchange.response?.headers['x-token']).toBe('Bearer [REDACTED]')
      // and over two lines of one name, which the evidence joins with ", "
      expect(exchange.response?.headers['x-split']).toBe('[REDACTED]')
      // blanks that join no secret are left as they came
      expect(exchange.response?.headers['x-plain']).toBe('a  b')
    })
  }, 30_000)

  test('a space after the status line is no fold: still refused', async () => {
    const server = await byteByByte('HTTP/1.1 200 OK\r\n x: a\r\ncontent-length: 2\r\n\r\n[]')
    await withClient({ baseUrl: server.baseUrl }, async (client) => {
      const { exchange } = await client.send({ method: 'GET', path: '/categories' })
      expect(exchange.error?.code).toBe('PROTOCOL_ERROR')
    })
  }, 30_000)
})

describe('a status code outside 100-599 (RFC 9110 §15: invalid)', () => {
  test.each(['000', '099'])('%s: a malformed answer (PROTOCOL_ERROR) that says so on one line, not the source of an assertion inside undici', async (status) => {
    const server = await byteByByte(`HTTP/1.1 ${status} Weird\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]`)
    await withClient({ baseUrl: server.baseUrl }, async (client) => {
      const { exchange } = await client.send({ method: 'GET', path: '/categories' })
      expect(exchange.error?.code).toBe('PROTOCOL_ERROR')
      expect(exchange.error?.message).toMatch(/^malformed HTTP response \(a status code below 100: HTTP defines 100 to 599 \(RFC 9110 §15\)\)$/)
    })
  }, 30_000)

  test.each(['600', '999'])('%s: an answer, judged by its status (the checks name it a protocol fault, test/checks/response-checks.test.ts)', async (status) => {
    const server = await byteByByte(`HTTP/1.1 ${status} Weird\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]`)
    await withClient({ baseUrl: server.baseUrl }, async (client) => {
      const { exchange } = await client.send({ method: 'GET', path: '/categories' })
      expect(exchange.error).toBeUndefined()
      expect(exchange.response?.status).toBe(Number(status))
    })
  }, 30_000)
})

describe('framing a client must read, and framing that is the server\'s fault, one byte a write', () => {
  const JSON_HEAD = 'content-type: application/json\r\n'
  test.each([
    { name: 'chunk extensions with spaces around ; and = (BWS, RFC 9112 §7.1.1)', answer: `HTTP/1.1 200 OK\r\n${JSON_HEAD}transfer-encoding: chunked\r\n\r\n1 ;a=1\r\n[\r\n1\t; b = "x ; y"\r\n]\r\n0 ; end\r\n\r\n`, status: 200, text: '[]' },
    { name: 'Content-Length on two lines and as a list, one value (RFC 9110 §8.6)', answer: `HTTP/1.1 200 OK\r\n${JSON_HEAD}content-length: 2\r\nContent-Length: 2, 2\r\n\r\n[]`, status: 200, text: '[]' },
    { name: 'a 204 with a Content-Length, and no body (RFC 9112 §6.3: it ends at its empty line)', answer: 'HTTP/1.1 204 No Content\r\ncontent-length: 7\r\n\r\n', status: 204, text: '' },
  ])('$name: read, twice on one connection', async ({ answer, status, text }) => {
    const server = await byteByByte(answer)
    await withClient({ baseUrl: server.baseUrl, timeoutMs: 10_000 }, async (client) => {
      for (let i = 0; i < 2; i++) {
        const result = await client.send({ method: 'GET', path: '/categories' })
        expect(result.exchange.error).toBeUndefined()
        expect([result.exchange.response?.status, result.text]).toEqual([status, text])
      }
    })
    expect(server.connections()).toBe(1)
  }, 30_000)

  test.each([
    { name: 'Content-Length with two values', answer: `HTTP/1.1 200 OK\r\n${JSON_HEAD}content-length: 2\r\ncontent-length: 3\r\n\r\n[]`, words: 'Content-Length given with different values (2, 3): where the body ends is ambiguous (RFC 9112 §6.3)' },
    { name: 'Content-Length beside chunked', answer: `HTTP/1.1 200 OK\r\n${JSON_HEAD}content-length: 2\r\ntransfer-encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\n\r\n`, words: 'Content-Length beside Transfer-Encoding: where the body ends is ambiguous (RFC 9112 §6.3; a sender must not send both, §6.2)' },
    { name: 'a control character in a header after a Content-Length (undici: "Response body length does not match")', answer: `HTTP/1.1 200 OK\r\n${JSON_HEAD}content-length: 2\r\nx-note: a\x01b\r\n\r\n[]`, words: 'the header x-note holds the control character 0x01, which makes a field value invalid (RFC 9110 §5.5)' },
    { name: 'a 101 to a request that asked no upgrade', answer: 'HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\n', words: "a 101 Switching Protocols, though the request asked for no protocol (RFC 9110 §7.8: a server must not switch to one the request's Upgrade did not name)" },
    { name: 'a 101 without Upgrade', answer: `HTTP/1.1 101 Switching Protocols\r\n\r\nHTTP/1.1 200 OK\r\n${JSON_HEAD}content-length: 2\r\n\r\n[]`, words: "a 101 Switching Protocols, though the request asked for no protocol (RFC 9110 §7.8: a server must not switch to one the request's Upgrade did not name)" },
  ])('$name: a malformed answer (PROTOCOL_ERROR) that names the fault', async ({ answer, words }) => {
    const server = await byteByByte(answer)
    await withClient({ baseUrl: server.baseUrl, timeoutMs: 10_000 }, async (client) => {
      const { exchange } = await client.send({ method: 'GET', path: '/categories' })
      expect(exchange.error).toMatchObject({ code: 'PROTOCOL_ERROR', message: `malformed HTTP response (${words})` })
    })
  }, 30_000)
})

describe('AnswerHead, an answer cut in two and in three at every place', () => {
  const HEAD = 'HTTP/1.1 200 OK\r\nx-a: 1\r\n 2\r\nx-b: 3\n\t4\r\n\r\n'
  const BODY = 'x\r\n y\n\tz\r\n\r\n'
  const UNFOLDED = 'HTTP/1.1 200 OK\r\nx-a: 1   2\r\nx-b: 3 \t4\r\n\r\n' + BODY
  const fed = (pieces: string[]) => {
    const unfolder = new AnswerHead()
    unfolder.answerBegins()
    const out = pieces.map((piece) => unfolder.feed(Buffer.from(piece, 'latin1')).toString('latin1')).join('')
    return out + (unfolder.flush()?.toString('latin1') ?? '')
  }
  test('the same bytes, the CR and LF of each fold spaces, the body untouched', () => {
    const answer = HEAD + BODY
    for (let i = 0; i <= answer.length; i++) {
      expect(fed([answer.slice(0, i), answer.slice(i)]), `cut at ${i}`).toBe(UNFOLDED)
      for (let j = i; j <= answer.length; j++) expect(fed([answer.slice(0, i), answer.slice(i, j), answer.slice(j)]), `cut at ${i}, ${j}`).toBe(UNFOLDED)
    }
  })
  test('a space after the status line is no fold: nothing handed on, the fault named', () => {
    const head = new AnswerHead()
    head.answerBegins()
    expect(head.feed(Buffer.from('HTTP/1.1 200 OK\r\n x: a\r\n\r\n')).length).toBe(0)
    expect(head.fault?.message).toBe('a header line that begins with 0x20 (a space) right after the status line: a fold with no field value to continue (RFC 9112 §5.2)')
  })
})
