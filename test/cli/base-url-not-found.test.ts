/**
 * A base URL with a wrong path before /v1 (`/api/v1` where the service serves `/v1`): every request
 * the run sends is answered 404. The run said FAIL with eight rules broken and no word of the
 * address; the one fault every rule met is now said first, once, naming the base URL
 * (lib/result/fault-groups.ts, cause not-found), and not probed again: a second
 * probe would meet the same 404s (lib/runner/confirmation.ts). A server that answers some requests is not it.
 * So too a port where a web page answers every request (a front end's dev server, index.html for every
 * path): it was a FAIL headed "requests without a valid key were served (is authentication mounted…".
 * So too a port where a service that is not HTTP listens (a cache's, a database's): it was a FAIL of
 * every rule, each request "got no answer (PROTOCOL_ERROR)" (vitestplay3).
 */
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net'
import { afterAll, expect, test } from 'vitest'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { POST_PROBES } from '../../suites/cases/write-order.ts'
import { notHttp } from '../hostile/hostile-servers.ts'

const servers: RunningServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((r) => r.cleanup())
  await Promise.all(servers.map((s) => s.close()))
})

test('every request answered 404 (a wrong path before /v1): no verdict (exit 2), said first, naming the base URL', async () => {
  const apiKey = `key-${randomBytes(12).toString('hex')}`
  const server = await startReferenceServer({ apiKey })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl.replace(/\/v1$/, '/api/v1')], { env: { CONFORM_API_KEY: apiKey } })
  runs.push(run)
  // no verdict (exit 2), as for a host answered 421 (misdirected.ts): the address is wrong, or nothing is routed, not one rule
  expect(run.code, run.stdout).toBe(2)
  // said as the first list's 404 came, before any POST but one alone: the whole plan went first (169 requests, 87 POSTs), a write budget spent (lib/runner/list-first.ts)
  expect(run.stdout).toMatch(/nothing is served at this base URL: (\d+) requests were answered 404 Not Found, none otherwise \(one POST sent, alone: the run sent no more once its first list, asked with the key, was answered so: \d+ requests not sent\); a wrong path before \/v1/)
  // one POST, alone, answered 404 too: a service that routes the create but not its list is a FAIL instead (review58, test/runner/list-first.test.ts)
  expect((run.results?.journal ?? []).filter((e) => e.method === 'POST' && e.onWire)).toHaveLength(1)
  expect(run.stdout).toContain('Verdict: INCOMPLETE')
  // the rules not verified say what the run met: the list of every kind ("421 Misdirected Request to every request, a redirect…") was cut before the 404
  expect(run.stdout).toMatch(/^ {2}nothing is served at this base URL: its answers judge nothing: list-returns-200, /m)
  expect(run.results!.rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
  // not probed again (--confirm 2 by default): a second probe would meet the same 404s, and a run sent 164 POSTs more for them
  expect(run.results?.summary.writesAgain ?? 0).toBe(0)
  expect((run.results?.journal ?? []).filter((e) => e.method === 'POST' && e.onWire).length).toBeLessThanOrEqual(POST_PROBES.length)
  expect(run.files['summary.md']).toContain('nothing is served at this base URL')
  expect(run.files['report.html']).toContain('nothing is served at this base URL')
})

test('a wrong path behind a front that refuses first (the key, the body checked before routing): no verdict (exit 2), said first, not probed again', async () => {
  // Fastify's onRequest hook, Express middleware before the router, a gateway: 401 without the key, 400 to JSON it cannot parse, then 404 for a path it does not route
  const apiKey = `key-${randomBytes(12).toString('hex')}`
  const front = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
      const answer = (status: number, code: string) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ code, message: code, status }))
      if (req.headers.authorization !== `Bearer ${apiKey}`) return answer(401, 'unauthorized')
      if (chunks.length > 0 && /json/.test(req.headers['content-type'] ?? '')) {
        try { JSON.parse(Buffer.concat(chunks).toString('utf8')) } catch { return answer(400, 'bad_request') }
      }
      answer(404, 'not_found')
    })
  })
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  servers.push({ close: () => new Promise<void>((resolve) => front.close(() => resolve()).closeAllConnections()) } as RunningServer)
  const run = await runConformInProcess(['--base-url', `http://127.0.0.1:${(front.address() as AddressInfo).port}/api/v1`], { env: { CONFORM_API_KEY: apiKey } })
  runs.push(run)
  // it was a FAIL of 5 rules, 62 checks "answered 404", no word of the address, and 114 POSTs more to confirm them
  expect(run.code, run.stdout).toBe(2)
  // one POST alone goes once the list asked first with the key was answered 404, and GETs too (lib/runner/list-first.ts), then nothing
  expect(run.stdout.split('\n')[2]).toMatch(/^✗ nothing is served at this base URL: \d+ requests were answered 404 Not Found, the list asked with the key among them, the others refused before routing \(401 ×\d+\), none served \(one POST sent, alone: /)
  // one POST, alone, answered 404 too: a service that routes the create but not its list is a FAIL instead (review58, test/runner/list-first.test.ts)
  expect((run.results?.journal ?? []).filter((e) => e.method === 'POST' && e.onWire)).toHaveLength(1)
  expect(run.results!.rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
  expect((run.results?.journal ?? []).filter((e) => e.method === 'POST' && e.onWire).length).toBeLessThanOrEqual(POST_PROBES.length)
  expect(run.stdout).toContain('Verdict: INCOMPLETE')
  expect(run.files['summary.md']).toContain('every one with the key 404 Not Found, the others refused before routing')
})

test('every request answered with a web page (a front end\'s dev server on the port given): no verdict (exit 2), said first', async () => {
  const page = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html>\n<html><head><title>App</title></head><body><div id="root"></div></body></html>'))
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve))
  servers.push({ close: () => new Promise<void>((resolve) => page.close(() => resolve()).closeAllConnections()) } as RunningServer)
  const run = await runConformInProcess(['--base-url', `http://127.0.0.1:${(page.address() as AddressInfo).port}/v1`], { env: { CONFORM_API_KEY: 'web-page-key-5d1f0a77' } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(2)
  expect(run.stdout.split('\n')[2]).toMatch(/^✗ a web page answers at this base URL, not the API: \d+ requests were answered with an HTML page \(200\), none otherwise; a web front end \(its dev server\?\), or another site, at this address: give the base URL of the categories API, ending in \/v1/)
  expect(run.stdout).not.toContain('authentication mounted')
  expect(run.results!.rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
  // not probed again: a second probe would meet the same page
  expect((run.results?.journal ?? []).filter((e) => e.method === 'POST' && e.onWire).length).toBeLessThanOrEqual(POST_PROBES.length)
  expect(run.stdout).toContain('Verdict: INCOMPLETE')
  expect(run.files['summary.md']).toContain('the server answered no request at the base URL (every one with a web page)')
})

test('a port where a service that is not HTTP listens (a cache\'s): no verdict (exit 2), said first', async () => {
  const other = createTcpServer((socket) => socket.on('data', () => socket.write('-ERR unknown command\r\n')).on('error', () => {}))
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
  servers.push({ close: () => new Promise<void>((resolve) => other.close(() => resolve())) } as RunningServer)
  const run = await runConformInProcess(['--base-url', `http://127.0.0.1:${(other.address() as AddressInfo).port}/v1`, '--rule', 'list-returns-200', '--rule', 'create-returns-201'], { env: { CONFORM_API_KEY: 'not-http-key-5d1f0a77' } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(2)
  expect(run.stdout.split('\n')[2]).toMatch(/^✗ nothing at this port speaks HTTP: \d+ requests were answered with bytes that are not an HTTP\/1\.1 answer, none otherwise \(the run sent no more: \d+ requests not sent\); another service's port/)
  expect(run.results!.rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
  expect(run.stdout).toMatch(/Sent: (\d+) POSTs? sent, [^;]*, \1 not answered;/)
  expect(run.files['summary.md']).toContain('the server answered no request at the base URL (every one with bytes that are not HTTP)')
})

test('a port where a service that is not HTTP listens, the run cut by --deadline while it held some requests: no verdict (exit 2), said first', async () => {
  // the first connections answered at once, the later ones held: the deadline, not the service, ended those (DEADLINE says nothing of it)
  let connections = 0
  const held: Socket[] = []
  const other = createTcpServer((socket) => {
    const answers = ++connections <= 6
    held.push(socket)
    socket.on('data', () => answers && socket.write('-ERR unknown command\r\n')).on('error', () => {})
  })
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
  servers.push({ close: () => new Promise<void>((resolve) => (held.forEach((s) => s.destroy()), other.close(() => resolve()))) } as RunningServer)
  const run = await runConformInProcess(['--base-url', `http://127.0.0.1:${(other.address() as AddressInfo).port}/v1`, '--deadline', '4000'], { env: { CONFORM_API_KEY: 'not-http-key-5d1f0a77' } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(2)
  expect(run.stdout.split('\n')[2]).toMatch(/^✗ nothing at this port speaks HTTP: /)
  expect(run.results!.rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
})

test('a port where SSH listens (its banner, then closed): no verdict (exit 2), said first', async () => {
  const ssh = await notHttp()
  servers.push(ssh as never as RunningServer)
  const run = await runConformInProcess(['--base-url', ssh.baseUrl, '--rule', 'list-returns-200'], { env: { CONFORM_API_KEY: 'not-http-key-5d1f0a77' } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(2)
  expect(run.stdout.split('\n')[2]).toMatch(/^✗ nothing at this port speaks HTTP: /)
})

test('an HTTP server whose every answer is framed wrong (Content-Length beside Transfer-Encoding): a FAIL naming the framing, not another service\'s port', async () => {
  // it speaks HTTP (a status line, headers): a proxy that adds Content-Length to a chunked answer; its port is the right one
  const framed = createServer((req, res) => {
    req.resume().on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2', 'transfer-encoding': 'chunked' })
      res.end('[]')
    })
  })
  await new Promise<void>((resolve) => framed.listen(0, '127.0.0.1', resolve))
  servers.push({ close: () => new Promise<void>((resolve) => framed.close(() => resolve())) } as RunningServer)
  const run = await runConformInProcess(['--base-url', `http://127.0.0.1:${(framed.address() as AddressInfo).port}/v1`, '--rule', 'list-returns-200', '--rule', 'create-returns-201'], { env: { CONFORM_API_KEY: 'framed-key-7c2e9b41' } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(1)
  expect(run.stdout).not.toContain('nothing at this port speaks HTTP')
  expect(run.stdout).not.toContain('nothing the port answered was HTTP')
  expect(run.stdout).toContain('Content-Length beside Transfer-Encoding')
})

test('a server that answers: no such finding', async () => {
  const apiKey = `key-${randomBytes(12).toString('hex')}`
  const server = await startReferenceServer({ apiKey })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl], { env: { CONFORM_API_KEY: apiKey } })
  runs.push(run)
  expect(run.code).toBe(0)
  expect(run.stdout).not.toContain('nothing is served at this base URL')
  expect(run.stdout).not.toContain('a web page answers')
})
