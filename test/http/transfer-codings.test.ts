/**
 * Transfer codings besides chunked (RFC 9112 §7: gzip, deflate, compress), which a server may apply
 * on top of any content coding: undici dechunks such a body and hands it on still coded, and the
 * suite took it for a body compressed without a Content-Encoding to say so. Now gzip and deflate
 * are read as they are under Content-Encoding (the same cap on decoded bytes); another is refused
 * in words that name it a transfer coding.
 */
import { deflateSync, gzipSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { rawServer } from '../hostile/hostile-servers.ts'
import { closedAfterwards, withClient } from './client-harness.ts'

const BODY = '[{"id":1,"name":"café"}]'
const chunked = (bytes: Buffer) => Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n0\r\n\r\n')])

/** The exchange of one GET to a server that answers it with `head` and `body`, then closes. */
async function answered(head: string, body: Buffer) {
  const server = closedAfterwards(await rawServer((socket, request) => void request.then(() => socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${head}\r\n`), body])))))
  return withClient({ baseUrl: server.baseUrl }, async (client) => client.send({ method: 'GET', path: '/categories' }))
}

describe('transfer codings besides chunked', () => {
  test.each([
    { name: 'gzip, chunked', head: 'transfer-encoding: gzip, chunked\r\n', body: chunked(gzipSync(BODY)) },
    { name: 'deflate, chunked', head: 'transfer-encoding: deflate, chunked\r\n', body: chunked(deflateSync(BODY)) },
    { name: 'gzip, ended by the close', head: 'transfer-encoding: gzip\r\n', body: gzipSync(BODY) },
    { name: 'chunked on two field lines (a proxy adds its own), the body chunked once', head: 'transfer-encoding: chunked\r\ntransfer-encoding: chunked\r\n', body: chunked(Buffer.from(BODY)) },
    { name: 'gzip over a Content-Encoding gzip', head: 'content-encoding: gzip\r\ntransfer-encoding: gzip, chunked\r\n', body: chunked(gzipSync(gzipSync(BODY))) },
  ])('$name: read', async ({ head, body }) => {
    const { exchange, text } = await answered(head, body)
    expect(exchange.error).toBeUndefined()
    expect(text).toBe(BODY)
  })

  test('compress, chunked: refused, named a transfer coding the client does not read', async () => {
    const { exchange } = await answered('transfer-encoding: compress, chunked\r\n', chunked(Buffer.from('x')))
    expect(exchange.error?.code).toBe('UNDECODABLE_BODY')
    expect(exchange.error?.message).toMatch(/^the body is sent with Transfer-Encoding compress, a transfer coding the client does not read/)
  })

  test('chunked, gzip (chunked under gzip, ended by the close, as RFC 9112 §6.1 allows): refused in words that say so', async () => {
    const { exchange } = await answered('transfer-encoding: chunked, gzip\r\n', gzipSync(chunked(Buffer.from(BODY))))
    expect(exchange.error?.message).toMatch(/^the body is sent with Transfer-Encoding chunked, gzip: chunked under another transfer coding \(an answer ended by the close\), which the client does not read/)
  })
})
