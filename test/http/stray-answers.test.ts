/**
 * Stray answers (lib/http/interim-answers.ts, stray-answers.ts): bytes a server writes on a
 * kept-alive connection after an answer's end and before the next request. RFC 9112 §6.3: a
 * client "MUST NOT process, cache, or forward such extra data as a separate response". Read by the
 * next request on the connection (undici), they were taken for its answer. Here each request gets
 * its own answer, the journal names the stray bytes on the request they followed, the connection is
 * not used again; empty lines, a 1xx and a 408 (a server closing an idle connection) are no stray answer.
 */
import type { Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, test } from 'vitest'
import { AnswerHead } from '../../lib/http/answer-head.ts'
import { RunJournal } from '../../lib/http/journal.ts'
import { strayAnswersProblem } from '../../lib/result/stray-answers.ts'
import { rawServer, type HostileServer } from '../hostile/hostile-servers.ts'
import { closedAfterwards, withClient } from './client-harness.ts'

/** The answer's bytes and what came after its end, fed to a head in the pieces given. */
function fed(pieces: string[], method = 'GET'): { answer: string; surplus: string; ended: boolean } {
  const head = new AnswerHead()
  head.answerBegins(method)
  let answer = ''
  let surplus = ''
  for (const piece of pieces) {
    answer += head.feed(Buffer.from(piece, 'latin1')).toString('latin1')
    surplus += head.takeSurplus()?.toString('latin1') ?? ''
  }
  return { answer, surplus, ended: head.ended }
}

/** `text` cut in two at every place, and in three at a few. */
const cuts = (text: string): string[][] => [...Array.from({ length: text.length + 1 }, (_, i) => [text.slice(0, i), text.slice(i)]), [text.slice(0, 3), text.slice(3, 40), text.slice(40)]]

const EXTRA = 'HTTP/1.1 500 X\r\ncontent-length: 2\r\n\r\n{}'
/** Answers as they come, and as the parser gets them (`read`, where it differs: a 204's Content-Length taken out, bare LFs given their CR). */
const SHAPES = [
  { name: 'Content-Length', answer: 'HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello' },
  { name: 'chunked, with an extension and trailers', answer: 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5;a=b\r\nhello\r\n0\r\nx-sum: 1\r\n\r\n' },
  { name: 'chunked, no trailers, bare LF', answer: 'HTTP/1.1 200 OK\ntransfer-encoding: chunked\n\n5\nhello\n0\n\n', read: 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n' },
  { name: 'a 204 with a Content-Length', answer: 'HTTP/1.1 204 No Content\r\ncontent-length: 5\r\n\r\n', read: 'HTTP/1.1 204 No Content\r\n\r\n' },
]

describe("where an answer ends, and what comes after it (answer-head.ts)", () => {
  test.each(SHAPES)('$name: ends where it says, cut anywhere; the bytes after it are kept apart', ({ answer, read }) => {
    for (const pieces of cuts(answer + EXTRA)) expect(fed(pieces), JSON.stringify(pieces)).toEqual({ answer: read ?? answer, surplus: EXTRA, ended: true })
  })

  test('the answer to HEAD ends at its empty line, whatever its Content-Length', () => {
    expect(fed(['HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n' + EXTRA], 'HEAD')).toMatchObject({ ended: true, surplus: EXTRA })
  })

  test('a body ended by the close has no end before it: nothing is kept apart', () => {
    expect(fed(['HTTP/1.0 200 OK\r\n\r\nhello', EXTRA])).toEqual({ answer: 'HTTP/1.0 200 OK\r\n\r\nhello' + EXTRA, surplus: '', ended: false })
  })
})

const OK = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]'

/** A keep-alive server that answers each request head with OK, and then `after` (in the same write, or `apartMs` later), from the `from`th answer on a connection on. */
async function answering(after: string, apartMs?: number, from = 1): Promise<HostileServer> {
  return closedAfterwards(
    await rawServer((socket: Socket) => {
      // each write sent at once: held back (Nagle's algorithm) until the client's next request acknowledges the answer, a late stray is read as that request's answer
      socket.setNoDelay(true)
      let pending = ''
      let answered = 0
      socket.on('data', (chunk: Buffer) => {
        pending += chunk.toString('latin1')
        for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
          pending = pending.slice(end + 4)
          const extra = ++answered >= from ? after : ''
          if (apartMs === undefined) socket.write(OK + extra)
          else socket.write(OK), void sleep(apartMs).then(() => socket.destroyed || socket.write(extra))
        }
      })
    }),
  )
}

/** Three GETs one after the other, 30 ms apart: their statuses, and the journal's stray-answer lines (after each request, as many as `strays` says waited for, 2 s at most). */
async function threeGets(server: HostileServer, strays = [0, 0, 0], apiKey?: string) {
  const journal = new RunJournal()
  const seen = async (n: number) => {
    for (let waited = 0; waited < 2000 && journal.entries().filter((e) => e.stray?.after).length < n; waited += 10) await sleep(10)
  }
  const statuses = await withClient({ baseUrl: server.baseUrl, journal, concurrency: 1, ...(apiKey ? { apiKey } : {}) }, async (client) => {
    const statuses: (number | undefined)[] = []
    for (let i = 0; i < 3; i++) {
      statuses.push((await client.send({ method: 'GET', path: '/categories' })).exchange.response?.status)
      await sleep(30)
      await seen(strays[i] ?? 0) // a loaded machine may read a late stray after the next request went out: the case of the last test
    }
    return statuses
  })
  return { statuses, entries: journal.entries(), connections: server.connections() }
}

describe('bytes after an answer on a kept-alive connection, before the next request', () => {
  test.each([
    { name: 'a second answer in the same write', after: EXTRA },
    { name: 'a second answer 5 ms later', after: EXTRA, apartMs: 5 },
    { name: 'bytes that are no HTTP', after: 'garbage\r\n' },
  ])('$name: each request reads its own answer; the bytes are named on the request they followed, its connection not used again', async ({ after, apartMs }) => {
    const { statuses, entries, connections } = await threeGets(await answering(after, apartMs), [1, 2, 3])
    expect(statuses).toEqual([200, 200, 200])
    expect(entries.map((e) => e.stray)).toEqual(Array(3).fill({ after: after.replace(/\r/g, '\\r').replace(/\n/g, '\\n') }))
    expect(connections).toBe(3)
    const problem = strayAnswersProblem(entries)
    expect(problem?.kind).toBe('stray-answer')
    expect(problem?.message).toMatch(/^stray answers \(3 times\): .*RFC 9112 §6\.3.* First after the answer to GET \S+\/categories \(exchange [-0-9a-f]+\): "/)
  })

  test('a stray answer that echoes the key: hidden in the journal before its bytes are written out (a short key with a backslash has no runs the redactor would find in \\x5c)', async () => {
    const key = 'ab\\cd12345'
    const { entries } = await threeGets(await answering(`HTTP/1.1 401 X\r\ncontent-length: ${key.length + 9}\r\n\r\n{"key":"${key}"}`), [1, 1, 1], key)
    const strays = entries.flatMap((e) => (e.stray?.after ? [e.stray.after] : []))
    expect(strays.length).toBeGreaterThan(0)
    for (const after of strays) {
      expect(after).toContain('[REDACTED]')
      expect(after).not.toContain('cd12345')
    }
  })

  test.each([
    { name: 'empty lines', after: '\r\n\r\n' },
    { name: 'a 100 Continue and a 103 no request awaits (a user agent may ignore an unexpected 1xx, RFC 9110 §15.2)', after: 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\n' },
    { name: 'a 408 as the server closes the idle connection', after: 'HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n' },
  ])('$name: no stray answer', async ({ after }) => {
    const { statuses, entries } = await threeGets(await answering(after, 5))
    expect(statuses).toEqual([200, 200, 200])
    expect(entries.filter((e) => e.stray !== undefined)).toEqual([])
  })

  test('once a stray answer came, the answers read on a connection after its first are in doubt (a stray written late is read as the next answer), the first ones not', async () => {
    const { statuses, entries, connections } = await threeGets(await answering(EXTRA, 5, 2), [0, 1, 1])
    expect(statuses).toEqual([200, 200, 200])
    expect(connections).toBe(2)
    expect(entries.map((e) => e.stray)).toEqual([undefined, { after: expect.stringMatching(/^HTTP\/1\.1 500 X\\r\\n/), inDoubt: true }, undefined])
  })
})

describe('the problem says what the stray answers were, where their bytes tell', () => {
  const post = { id: 'p1', at: '', method: 'POST', url: 'http://127.0.0.1:1/v1/categories', body: '{"name":"cf-x"}', status: 401, onWire: true, outcome: 'answered' as const }
  const page = "HTTP/1.0 501 Unsupported method ('{\"name\":\"cf-x\"}GET')\r\nContent-Type: text/html;charset=utf-8\r\n\r\n<p>Message: Unsupported method ('{\"name\":\"cf-x\"}GET').</p>"
  const after = (bytes: string) => ({ id: 'g1', at: '', method: 'GET', url: 'http://127.0.0.1:1/v1/categories', onWire: true, outcome: 'answered' as const, stray: { after: bytes.replace(/\r/g, '\\r').replace(/\n/g, '\\n') } })

  test("an answer to the body of a POST the service answered unread (Python's http.server): that POST is named", () => {
    expect(strayAnswersProblem([post, after(page)])?.message).toMatch(/\(answers to the body of a request the service answered without reading it, and then read as a request of its own: first POST \/v1\/categories answered 401\)/)
  })

  test("after a body sent in chunks, answers to its chunks (Python's http.server reads no chunked body): that create is named, and chunked's RFC", () => {
    const chunked = { ...post, id: 'c1', probe: 'create-zero-description', status: 400, headers: { 'transfer-encoding': 'chunked' }, stray: { after: '<p>Message: Bad request syntax (&#x27;15&#x27;).</p>' } }
    expect(strayAnswersProblem([chunked])?.message).toMatch(
      /\(most likely answers to the chunks of a body sent with Transfer-Encoding: chunked, .* after POST \/v1\/categories \(create-zero-description\) answered 400; .*RFC 9112 §7\.1.*411 Length Required/,
    )
  })

  test('any other: an extra answer, or a body longer than its Content-Length said', () => {
    expect(strayAnswersProblem([post, after(EXTRA)])?.message).toMatch(/^stray answers \(once\): .* \(an extra answer, or a body longer than its Content-Length said\)/)
  })

  test('what a baseline entry records (observed) is the same whichever requests the strays followed: after a create sent in chunks and a GET, an extra answer, not answers to chunks', () => {
    const chunked = { ...post, id: 'c1', headers: { 'transfer-encoding': 'chunked' }, stray: { after: 'x' } }
    expect(strayAnswersProblem([chunked])?.observed).toBe('answers to the chunks of a chunked body')
    expect(strayAnswersProblem([post, after(page)])?.observed).toBe('answers to an unread body')
    // a server that writes a second answer after every fifth met the chunked create one run in five: it was named "answers to its chunks" then
    const both = strayAnswersProblem([chunked, after(EXTRA)])
    expect(both?.observed).toBe('an extra answer')
    expect(both?.message).toContain('(an extra answer, or a body longer than its Content-Length said)')
  })
})
