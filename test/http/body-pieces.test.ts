/**
 * A body sent in two pieces split inside a character (lib/http/body-pieces.ts): the server reads
 * two pieces, the first ending inside the character, under a Content-Length (not chunked), and the
 * evidence says where the split was. On loopback a body otherwise arrives in one read, so a service
 * that decodes each read on its own (`body += chunk`) passed every run.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http'
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net'
import { expect, onTestFinished, test } from 'vitest'
import { inPieces, insideFirstWideCharacter, PIECE_PAUSE_MS } from '../../lib/http/body-pieces.ts'
import { withClient } from './client-harness.ts'

test('the byte just past the lead byte of the first character wider than one byte, or none', () => {
  expect(insideFirstWideCharacter('{"name":"plain"}')).toBeUndefined()
  expect(insideFirstWideCharacter('{"name":"xÑ"}')).toBe(11)
  expect(insideFirstWideCharacter('🐇')).toBe(1)
  expect(insideFirstWideCharacter('ab\u0301')).toBe(3)
})

test('a POST with splitAt reaches the server as two reads, the first cut inside the character, with its Content-Length', async () => {
  const seen: { pieces: Buffer[]; headers: IncomingHttpHeaders }[] = []
  const server = createServer((req, res) => {
    const pieces: Buffer[] = []
    req.on('data', (piece: Buffer) => pieces.push(piece))
    req.on('end', () => {
      seen.push({ pieces, headers: req.headers })
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":1,"name":"x"}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const body = JSON.stringify({ name: 'cf-x-Ñandú 🐇' })
  const splitAt = insideFirstWideCharacter(body) as number
  const result = await withClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` }, (client) =>
    client.send({ method: 'POST', path: '/categories', headers: { 'content-type': 'application/json' }, body, splitAt }),
  )
  expect(result.exchange.response?.status).toBe(201)
  expect(result.exchange.request).toMatchObject({ body, splitAt })
  const [request] = seen
  expect(request?.pieces.map((p) => p.byteLength)).toEqual([splitAt, Buffer.byteLength(body) - splitAt])
  expect(request?.pieces[0]?.toString('utf8').endsWith('\ufffd')).toBe(true)
  expect(Buffer.concat(request?.pieces ?? []).toString('utf8')).toBe(body)
  expect(request?.headers).toMatchObject({ 'content-length': String(Buffer.byteLength(body)) })
  expect(request?.headers['transfer-encoding']).toBeUndefined()
})

// a run in the server's own process (the kill matrix, test/runner/checks-one-at-a-time.test.ts): an
// answer the client read in the same pass as the first piece went, then a pass busy past the pause.
// Before, that answer let the second piece go at the next timers, before the loop polled the
// server's connection: one read of both, and a service that decodes each read apart was not caught
test('an answer read in the pass the first piece went in, then a busy pass: the server still reads two pieces', async () => {
  const reads: number[] = []
  const server = createNetServer((socket) => socket.on('data', (data: Buffer) => reads.push(data.byteLength)))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const client = connect((server.address() as AddressInfo).port, '127.0.0.1')
  onTestFinished(() => (client.destroy(), new Promise<void>((resolve) => server.close(() => resolve()))))
  await new Promise<void>((resolve) => client.once('connect', resolve))
  const bytes = Buffer.from(JSON.stringify({ name: 'cf-x-Ñandú' }))
  const at = insideFirstWideCharacter(bytes.toString()) as number
  let answeredAt = Number.NEGATIVE_INFINITY
  await new Promise<void>((resolve) =>
    setImmediate(() => {
      const body = inPieces(bytes, at, (since) => answeredAt > since)
      body.once('data', () =>
        process.nextTick(() => {
          answeredAt = performance.now()
          const busyUntil = performance.now() + 3 * PIECE_PAUSE_MS
          while (performance.now() < busyUntil);
        }),
      )
      body.pipe(client, { end: false }).on('unpipe', resolve)
      body.on('end', resolve)
    }),
  )
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(reads).toEqual([at, bytes.byteLength - at])
})

// the server reads a connection late (a loop busy elsewhere: a create's first piece was read 20 to 170 ms after it
// went), and answers in the meantime a request written before the first piece: that answer says nothing of the
// piece's read. Before, it let the second piece go, and the late read held both (the mutation body-pieces-decoded-apart
// missed 3 runs in 6 with checks one at a time); now only an answer to a request written after the first piece does
test('an answer to a request written before the first piece, while the server has not read its connection yet: the second piece waits', async () => {
  const reads: number[] = []
  let connections = 0
  let getSeen: () => void = () => undefined
  const gotGet = new Promise<void>((resolve) => (getSeen = resolve))
  const server = createNetServer({ pauseOnConnect: true }, (socket) => {
    if (connections++ === 0) {
      // the GET: answered once the POST's connection has come, 30 ms later
      socket.once('data', () => getSeen())
      socket.resume()
      return void waitForPost.then(() => setTimeout(() => socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]'), 30))
    }
    postCame()
    let got = Buffer.alloc(0)
    socket.on('data', (data: Buffer) => {
      reads.push(data.byteLength)
      got = Buffer.concat([got, data])
      const head = got.indexOf('\r\n\r\n')
      const length = Number(/content-length: (\d+)/i.exec(got.toString('latin1'))?.[1])
      if (head >= 0 && got.byteLength - head - 4 >= length) socket.write('HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: 19\r\n\r\n{"id":1,"name":"x"}')
    })
    // read late: 150 ms after the connection came
    setTimeout(() => socket.resume(), 150)
  })
  let postCame: () => void = () => undefined
  const waitForPost = new Promise<void>((resolve) => (postCame = resolve))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => (server.close(() => resolve()), server.unref())))
  const body = JSON.stringify({ name: 'cf-x-Ñandú' })
  const splitAt = insideFirstWideCharacter(body) as number
  const results = await withClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` }, async (client) => {
    const get = client.send({ method: 'GET', path: '/categories' })
    await gotGet
    const post = client.send({ method: 'POST', path: '/categories', headers: { 'content-type': 'application/json' }, body, splitAt })
    return Promise.all([get, post])
  })
  expect(results.map((r) => r.exchange.response?.status)).toEqual([200, 201])
  // the head and the first piece in one read, the second piece in another
  expect(reads.length, JSON.stringify(reads)).toBe(2)
  expect(reads[1]).toBe(Buffer.byteLength(body) - splitAt)
})
