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
