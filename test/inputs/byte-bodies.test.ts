/**
 * A body that is not UTF-8 (the malformed-JSON corpus sends one) goes out byte for byte; the
 * evidence shows the bytes that are not text as \xHH, and the curl line sends the same bytes.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { DEFAULTS } from '../../lib/config/config.ts'
import { HttpClient } from '../../lib/http/client.ts'
import { toCurl } from '../../lib/http/curl.ts'

let server: Server
let received: Buffer | undefined
let baseUrl: string

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received = Buffer.concat(chunks)
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"code":"invalid_json","message":"no","status":400}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

test("bytes arrive as sent, the evidence shows them as \\xHH, the curl line's printf (octal escapes, which every shell's printf reads) gives curl the same bytes", async () => {
  const bytes = Buffer.concat([Buffer.from(`{"name": "it's \\ `), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('"}')])
  const client = new HttpClient({ baseUrl, apiKey: 'k'.repeat(20), timeoutMs: 5_000, maxResponseBytes: 1_000_000, concurrency: DEFAULTS.concurrency })
  const result = await client.send({ method: 'POST', path: '/categories', headers: { 'content-type': 'application/json' }, body: bytes })
  await client.close()
  expect(received?.equals(bytes)).toBe(true)
  expect(result.exchange.request.body).toBe(`{"name": "it's \\x5c \\xff\\xfe\\xc3("}`)
  expect(result.exchange.request.bodyBase64).toBe(bytes.toString('base64'))
  expect(toCurl(result.exchange.request)).toMatch(/^printf '\{"name": "it\\047s \\134 \\377\\376\\303\("\}' \| curl -i -X POST .* --data-binary @-$/)
})
