/**
 * Interim answers (1xx) before the final one, which the client reads past (RFC 9110 §15.2;
 * lib/http/interim-answers.ts): 100 Continue nobody asked for (undici alone fails the connection
 * on it), 102 and 103, several at once, their bytes cut anywhere into TCP writes, on kept-alive
 * connections, over TLS and through a proxy's tunnel. The final answer is judged, and the
 * exchange's response notes the interim statuses. A 101 the client did not ask for stays a
 * transport error: the connection is not handed over.
 */
import type { Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { Client, ProxyAgent } from 'undici'
import { originDispatcher } from '../../lib/http/agent.ts'
import { connectReadingPastInterimAnswers } from '../../lib/http/interim-answers.ts'
import { connectProxy, opensslMissing, rawServer, selfSignedCert, tlsFront, type HostileServer, type SelfSignedCert } from '../hostile/hostile-servers.ts'
import { closedAfterwards, withClient } from './client-harness.ts'

const CREATED = '{"id":7,"name":"café"}'
const FINAL = `HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(CREATED)}\r\n\r\n${CREATED}`
const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n'

/**
 * A keep-alive server that reads each request whole (head and Content-Length body) and answers it
 * with `parts`, each its own write 3 ms after the one before (so most arrive as reads of their
 * own: how the bytes are cut is the point).
 */
async function answering(parts: (request: string) => string[]): Promise<HostileServer> {
  return closedAfterwards(
    await rawServer((socket: Socket) => {
      let pending = Buffer.alloc(0)
      let answering = Promise.resolve()
      socket.on('data', (chunk: Buffer) => {
        pending = Buffer.concat([pending, chunk])
        for (;;) {
          const headEnd = pending.indexOf('\r\n\r\n')
          if (headEnd < 0) return
          const head = pending.toString('latin1', 0, headEnd)
          const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0)
          if (pending.length < headEnd + 4 + length) return
          pending = pending.subarray(headEnd + 4 + length)
          answering = answering.then(async () => {
            for (const [i, part] of parts(head).entries()) {
              if (i > 0) await sleep(3)
              if (!socket.destroyed) socket.write(part)
            }
          })
        }
      })
    }),
  )
}

const post = { method: 'POST', path: '/categories', body: '{"name":"café"}', headers: { 'content-type': 'application/json' } } as const

describe('interim answers before the final one: read past, noted on the exchange', () => {
  const cases: { name: string; parts: string[]; interim: number[] }[] = [
    { name: '100 Continue in the same write as the final answer', parts: [CONTINUE + FINAL], interim: [100] },
    { name: '100 Continue written apart', parts: [CONTINUE, FINAL], interim: [100] },
    { name: "the 100's status line cut, and its empty line cut from its CR", parts: ['HTTP/1.1 10', '0 Continue\r\n\r', '\n' + FINAL], interim: [100] },
    { name: 'the 100 one byte a write', parts: [...CONTINUE.split(''), FINAL], interim: [100] },
    { name: 'a 100 with a header, lines ended by bare LF', parts: ['HTTP/1.1 100 Continue\nx-upstream: a\n\n' + FINAL], interim: [100] },
    {
      name: '102 Processing, then 103 Early Hints with a Link',
      parts: ['HTTP/1.1 102 Processing\r\n\r\n', 'HTTP/1.1 103 Early Hints\r\nlink: </v1/categories>; rel=preload\r\n\r\n', FINAL],
      interim: [102, 103],
    },
    // an empty line after the 100, which undici's parser skips before a status line: the statuses' header went before the status line
    { name: 'an empty line after the 100, also in a write of its own', parts: [CONTINUE + '\r\n' + FINAL], interim: [100] },
    { name: 'an empty line after the 100 in a write of its own', parts: [CONTINUE, '\r\n', FINAL], interim: [100] },
    { name: "several, and the final answer's status line cut after them", parts: [CONTINUE + CONTINUE + 'HTTP/1.1 103 Early Hints\r\n\r\nHTTP/1.1 2', FINAL.slice(10)], interim: [100, 100, 103] },
  ]
  test.concurrent.each(cases)('$name → the final 201 judged, twice on one kept-alive connection', async ({ parts, interim }) => {
    const server = await answering(() => parts)
    await withClient({ baseUrl: server.baseUrl }, async (client) => {
      for (let i = 0; i < 2; i++) {
        const result = await client.send(post)
        expect(result.exchange.error).toBeUndefined()
        expect(result.exchange.response?.status).toBe(201)
        expect(result.exchange.response?.interim).toEqual(interim)
        expect(result.text).toBe(CREATED)
        // the filter's own header never reaches the evidence
        expect(Object.keys(result.exchange.response?.headers ?? {})).toEqual(['content-type', 'content-length'])
      }
    })
    expect(server.connections()).toBe(1)
  })

  test('an answer without one has no interim; bytes of a body that read like a 100 are body, untouched', async () => {
    const text = CONTINUE + 'HTTP/1.1 103 Early Hints\r\n\r\n'
    const server = await answering((head) =>
      head.startsWith('GET')
        ? [`HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: ${text.length}\r\n\r\n`, text]
        : [CONTINUE + `HTTP/1.1 201 Created\r\ncontent-type: text/plain\r\ncontent-length: ${text.length}\r\n\r\n`, text],
    )
    await withClient({ baseUrl: server.baseUrl }, async (client) => {
      const plain = await client.send({ method: 'GET', path: '/categories' })
      expect(plain.exchange.response?.status).toBe(200)
      expect(plain.exchange.response).not.toHaveProperty('interim')
      expect(plain.text).toBe(text)
      const created = await client.send(post)
      expect(created.exchange.response?.status).toBe(201)
      expect(created.exchange.response?.interim).toEqual([100])
      expect(created.text).toBe(text)
    })
  })

  // undici does not say which version answered; a chunked body must not go to an HTTP/1.0 server (RFC 9112 §6.1)
  test('an HTTP/1.0 status line is noted as the response\'s httpVersion, also cut short and after a 100; an HTTP/1.1 one is not', async () => {
    const http10 = FINAL.replace('HTTP/1.1 201', 'HTTP/1.0 201')
    for (const parts of [[http10], ['HTTP/1.0 2', http10.slice(10)], [CONTINUE + http10]]) {
      const server = await answering(() => parts)
      const result = await withClient({ baseUrl: server.baseUrl }, (client) => client.send(post))
      expect(result.exchange.response?.status).toBe(201)
      expect(result.exchange.response?.httpVersion).toBe('1.0')
      expect(Object.keys(result.exchange.response?.headers ?? {})).toEqual(['content-type', 'content-length'])
      expect(result.text).toBe(CREATED)
    }
    const server = await answering(() => [FINAL])
    const result = await withClient({ baseUrl: server.baseUrl }, (client) => client.send(post))
    expect(result.exchange.response).not.toHaveProperty('httpVersion')
  })

  test('a 101 Switching Protocols nobody asked for is a malformed answer that says so: the connection is not handed over', async () => {
    const server = await answering(() => ['HTTP/1.1 101 Switching Protocols\r\nconnection: upgrade\r\nupgrade: websocket\r\n\r\n', 'hijacked bytes'])
    const result = await withClient({ baseUrl: server.baseUrl }, (client) => client.send(post))
    expect(result.exchange.response).toBeUndefined()
    // it was a CONNECTION_RESET ("bad upgrade"), which reads as a connection lost under its request
    expect(result.exchange.error?.code).toBe('PROTOCOL_ERROR')
    expect(result.exchange.error?.message).toContain('RFC 9110 §7.8')
  })

  // the client reads heads up to 64 KiB (lib/http/agent.ts maxHeaderSize): one past 16 KiB went to undici's parser, which fails on a 100
  test('a 100 whose head is past 16 KiB, cut across reads, is read past too, and the final head after it held and read', async () => {
    const big = `HTTP/1.1 100 Continue\r\nx-echo: ${'a'.repeat(20 * 1024)}\r\n\r\n`
    const server = await answering(() => [big.slice(0, 17 * 1024), big.slice(17 * 1024), FINAL.replace('\r\n\r\n', `\r\ncontent-length: ${Buffer.byteLength(CREATED)}\r\n\r\n`)])
    const result = await withClient({ baseUrl: server.baseUrl }, (client) => client.send(post))
    expect(result.exchange.error).toBeUndefined()
    expect(result.exchange.response?.status).toBe(201)
    expect(result.exchange.response?.interim).toEqual([100])
    expect(result.text).toBe(CREATED)
  })

  test('a 100 and then the connection closed: no answer, a transport error as before', async () => {
    const server = closedAfterwards(await rawServer((socket) => socket.once('data', () => socket.end(CONTINUE))))
    const result = await withClient({ baseUrl: server.baseUrl }, (client) => client.send(post))
    expect(result.exchange.response).toBeUndefined()
    expect(result.exchange.error?.code).toBe('CONNECTION_RESET')
  })
})

const noOpenssl = opensslMissing()

describe.skipIf(noOpenssl !== undefined)(`over TLS, direct and through a proxy's tunnel${noOpenssl ? ` (skipped: ${noOpenssl})` : ''}`, () => {
  let cert: SelfSignedCert
  let front: HostileServer
  let proxy: HostileServer
  beforeAll(async () => {
    cert = selfSignedCert()
    const upstream = await answering(() => [CONTINUE, FINAL])
    front = closedAfterwards(await tlsFront(cert, upstream.port))
    proxy = closedAfterwards(await connectProxy())
  })
  afterAll(() => cert?.cleanup())

  test('a TLS connection made by the filtering connector reads past the 100', async () => {
    const client = new Client(front.origin, { connect: connectReadingPastInterimAnswers({ ca: cert.cert }) })
    try {
      const response = await client.request({ method: 'POST', path: '/v1/categories', body: '{"name":"café"}', signal: AbortSignal.timeout(5_000) })
      expect(response.statusCode).toBe(201)
      expect(await response.body.text()).toBe(CREATED)
    } finally {
      await client.close()
    }
  })

  test("through a proxy's CONNECT tunnel, with the agent's factory (as HTTPS_PROXY makes it)", async () => {
    const agent = new ProxyAgent({ uri: proxy.origin, requestTls: { ca: cert.cert }, factory: originDispatcher })
    try {
      const response = await agent.request({ origin: front.origin, method: 'POST', path: '/v1/categories', body: '{"name":"café"}', signal: AbortSignal.timeout(5_000) })
      expect(response.statusCode).toBe(201)
      expect(await response.body.text()).toBe(CREATED)
      expect(proxy.requests.map((r) => r.method)).toEqual(['CONNECT'])
    } finally {
      await agent.close()
    }
  })
})
