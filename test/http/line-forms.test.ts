/**
 * What a status line's version and a line's end may be, as a robust HTTP/1.1 client reads them
 * (lib/http/answer-head.ts, chunk-lines.ts). RFC 9112 §2.3: a later HTTP/1 minor version is read as
 * 1.1 (undici refused `HTTP/1.2`), any other version is the server's fault, named (undici read
 * `HTTP/2.0 200` and `HTTP/0.9 200` as answers). §2.2: a recipient may take a bare LF for a line's
 * end, as curl, Go and browsers do (undici refused every such answer). §5.2: folded trailer lines
 * are unfolded as folded header lines are (undici cut the body off at them). A body said chunked
 * that is not in chunks is named so (undici said it broke off).
 */
import { describe, expect, test } from 'vitest'
import { ChunkLines } from '../../lib/http/chunk-lines.ts'
import { rawServer } from '../hostile/hostile-servers.ts'
import { closedAfterwards, withClient } from './client-harness.ts'

const BODY = '[{"id":1,"name":"x"}]'
const lengthHead = (start: string) => `${start}\r\ncontent-type: application/json\r\ncontent-length: ${BODY.length}\r\n\r\n${BODY}`
const chunkedAnswer = (eol: string, trailers: string) => `HTTP/1.1 200 OK${eol}content-type: application/json${eol}transfer-encoding: chunked${eol}${eol}${BODY.length.toString(16)}${eol}${BODY}${eol}0${eol}${trailers}${eol}`

/** What one GET gets from a server that writes `answer`, then closes. */
async function answered(answer: string) {
  const server = closedAfterwards(await rawServer((socket, request) => void request.then(() => socket.end(answer))))
  return withClient({ baseUrl: server.baseUrl }, async (client) => client.send({ method: 'GET', path: '/categories' }))
}

describe('the status line version', () => {
  test.each(['HTTP/1.1 200 OK', 'HTTP/1.0 200 OK', 'HTTP/1.2 200 OK', 'HTTP/1.9 200'])('%s: read', async (start) => {
    const { exchange, text } = await answered(lengthHead(start))
    expect(exchange.error).toBeUndefined()
    expect([exchange.response?.status, text]).toEqual([200, BODY])
  })

  test.each(['HTTP/2.0 200 OK', 'HTTP/2 200 OK', 'HTTP/3.0 200 OK', 'HTTP/0.9 200 OK'])('%s: the server\'s fault, named', async (start) => {
    const { exchange } = await answered(lengthHead(start))
    expect(exchange.response).toBeUndefined()
    expect(exchange.error?.code).toBe('PROTOCOL_ERROR')
    expect(exchange.error?.message).toContain(`the status line says ${start.split(' ')[0]}, a version no answer to an HTTP/1.1 request carries: HTTP/1.1 or HTTP/1.0 (RFC 9112 §2.3`)
  })
})

describe('bare LF line ends, folded trailer lines', () => {
  test.each([
    { name: 'a head with bare LF line ends', answer: lengthHead('HTTP/1.1 200 OK').replace(/\r\n/g, '\n') },
    { name: 'a chunked answer with bare LF line ends throughout, and a trailer', answer: chunkedAnswer('\n', 'x-sum: 1\n') },
    { name: 'folded trailer lines, by CRLF and by a bare LF', answer: chunkedAnswer('\r\n', 'x-sum: a\r\n b\n\tc\r\nx-other: 1\r\n') },
  ])('$name: read', async ({ answer }) => {
    const { exchange, text } = await answered(answer)
    expect(exchange.error).toBeUndefined()
    expect(text).toBe(BODY)
  })

  test('trailers cut anywhere: unfolded, given their CRs, the body ending after them', () => {
    const body = '3\r\nabc\r\n0\r\nx-a: 1\n  2\r\nx-b: 3\n\n'
    for (let i = 0; i <= body.length; i++) {
      const lines = new ChunkLines()
      const out = Buffer.concat([lines.feed(Buffer.from(body.slice(0, i))), lines.feed(Buffer.from(`${body.slice(i)}EXTRA`))]).toString('latin1')
      expect(out, String(i)).toBe('3\r\nabc\r\n0\r\nx-a: 1   2\r\nx-b: 3\r\n\r\n')
      expect([lines.ended, lines.surplus?.toString()]).toEqual([true, 'EXTRA'])
    }
  })
})

describe('a body said chunked that does not come in chunks (a Transfer-Encoding added by hand, or by a proxy)', () => {
  test.each([
    { name: 'JSON on one line', body: BODY },
    { name: 'JSON over several lines', body: `[\n  {"id": 1, "name": "x"}\n]` },
  ])('$name: the fault named, what came where a size was due quoted (undici: "the body broke off after 0 bytes")', async ({ body }) => {
    const { exchange } = await answered(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n${body}`)
    expect(exchange.response).toBeUndefined()
    expect(exchange.error?.message).toContain(`the body is said to come in chunks (Transfer-Encoding: chunked), and where the size of a chunk was due came ${JSON.stringify(body.split('\n')[0])}, no hexadecimal size (RFC 9112 §7.1)`)
  })
})
