/**
 * lib/http/undici-parts.ts loads undici's files one by one instead of its index. These prove that
 * the parts are the very classes undici's index exports, and that its request() sends and receives
 * what undici's own request() does, so that an update of undici that moves or changes a file fails
 * here rather than in a user's run.
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import * as parts from '../../lib/http/undici-parts.ts'

let baseUrl = ''
const seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[] = []
const server = createServer((req, res) => {
  let body = ''
  req.setEncoding('utf8')
  req.on('data', (chunk: string) => (body += chunk))
  req.on('end', () => {
    seen.push({ method: req.method, url: req.url, headers: req.headers, body })
    res.writeHead(201, { 'content-type': 'application/json', 'x-echo': req.url ?? '' })
    res.end(JSON.stringify({ got: body }))
  })
})
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

test("the parts are undici's own classes and errors", async () => {
  const undici = await import('undici')
  expect(parts.Agent).toBe(undici.Agent)
  expect(parts.EnvHttpProxyAgent).toBe(undici.EnvHttpProxyAgent)
  expect(parts.errors).toBe(undici.errors)
  expect(typeof new parts.Agent().request).toBe('function')
})

test("request() sends and receives what undici's request() does", async () => {
  const undici = await import('undici')
  const dispatcher = new parts.Agent()
  const options = { method: 'POST' as const, headers: { 'content-type': 'application/json', 'x-probe': 'p' }, body: '{"name":"n"}', dispatcher }
  const url = `${baseUrl}/v1/categories?x=1&y=%20`
  const answers = []
  for (const send of [parts.request, undici.request]) {
    const response = await send(url, options)
    answers.push({ status: response.statusCode, headers: { type: response.headers['content-type'], echo: response.headers['x-echo'] }, body: await response.body.text() })
  }
  await dispatcher.close()
  expect(answers[0]).toEqual(answers[1])
  expect(answers[0]).toEqual({ status: 201, headers: { type: 'application/json', echo: '/v1/categories?x=1&y=%20' }, body: '{"got":"{\\"name\\":\\"n\\"}"}' })
  const strip = ({ headers, ...rest }: (typeof seen)[number]) => ({ ...rest, headers: { ...headers, host: undefined } })
  expect(seen).toHaveLength(2)
  expect(strip(seen[0])).toEqual(strip(seen[1]))
  expect(seen[0]).toMatchObject({ method: 'POST', url: '/v1/categories?x=1&y=%20', body: '{"name":"n"}', headers: { 'x-probe': 'p' } })
})
