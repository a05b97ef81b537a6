/**
 * A client that streams its body sends it in chunks (Transfer-Encoding: chunked, no Content-Length):
 * Node's fetch with a stream, Go's client for a body of unknown length. Every HTTP/1.1 server reads
 * such a body (RFC 9112 §7.1), or refuses it with 411 Length Required (RFC 9110 §15.5.12). Every
 * POST went with a Content-Length, so a server that reads a body only up to its Content-Length (a
 * WSGI app reading CONTENT_LENGTH bytes of wsgi.input), and answers a valid body sent in chunks as
 * a missing one, passed under every seed. create-zero-description now goes in two chunks.
 * A client must not send chunks to a server it does not know to handle HTTP/1.1 (RFC 9112 §6.1):
 * the refusal of one that answers in HTTP/1.0 is not judged.
 */
import { spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import { VARIANTS } from '../../lib/server/variants.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'chunked-create-key-0123456789abcdef'
const { serve, conform } = runsWithKey(KEY)

const checksOf = (run: Awaited<ReturnType<typeof conform>>, rule: string) => run.results!.rules.find((r) => r.id === rule)!.checks

describe('a valid create sent in chunks', () => {
  test('read as no body and answered 400: create-returns-201 fails on it, saying how it was sent', async () => {
    const run = await conform(serve(await startCase(MUTATIONS.find((m) => m.name === 'chunked-body-read-as-empty')!, { apiKey: KEY })))
    expect(run.code, run.stdout).toBe(1)
    const failed = checksOf(run, 'create-returns-201').filter((c) => c.status === 'fail')
    expect(failed.map((c) => c.name)).toEqual([expect.stringMatching(/^POST \/categories with a one-character description, "0", and a precomposed é in the name, sent in chunks \(Transfer-Encoding: chunked\) → 201, or 411/)])
    expect(failed[0]!.failure?.message).toMatch(/or how they were sent: the body went in chunks/)
    // the evidence, and so the curl line, say it went in chunks
    expect(failed[0]!.exchanges.at(-1)?.request.headers['transfer-encoding']).toBe('chunked')
  }, 60_000)

  test('read until the connection closes by one worker (wsgiref): the chunked create alone fails, not the requests that waited behind it', async () => {
    const run = await conform(serve(await startCase(MUTATIONS.find((m) => m.name === 'chunked-body-read-to-close')!, { apiKey: KEY })), '--timeout', '1500')
    expect(run.code, run.stdout).toBe(1)
    const failed = run.results!.rules.flatMap((r) => r.checks.filter((c) => c.status === 'fail').map((c) => c.exchanges[0]?.request.headers['transfer-encoding']))
    // the create-returns-201, create-returns-category, create-echoes-fields and json-content-type checks of the one chunked create
    expect(failed.length).toBeGreaterThan(0)
    expect(failed.every((te) => te === 'chunked'), run.stdout).toBe(true)
  }, 60_000)

  test('to a server that answers in HTTP/1.0 and reads a body without Content-Length until the close (wsgiref): it goes whole, and the run passes', async () => {
    const run = await conform(serve(await startCase(VARIANTS.find((v) => v.name === 'http-1-0-reading-chunks-to-the-close')!, { apiKey: KEY })), '--timeout', '1500')
    expect(run.code, run.stdout).toBe(0)
    const check = checksOf(run, 'create-returns-201').find((c) => c.name.includes('sent in chunks'))!
    expect(check.exchanges.at(-1)?.request.headers['transfer-encoding']).toBeUndefined()
  }, 60_000)

  test('refused with 411 Length Required, as mod_wsgi does by default: the run passes', async () => {
    const run = await conform(serve(await startCase(VARIANTS.find((v) => v.name === 'chunked-requests-refused-411')!, { apiKey: KEY })))
    expect(run.code, run.stdout).toBe(0)
    const check = checksOf(run, 'create-returns-201').find((c) => c.name.includes('sent in chunks'))!
    expect(check.status).toBe('pass')
    expect(check.exchanges.at(-1)?.response?.status).toBe(411)
  }, 60_000)
})

const python = spawnSync('python3', ['--version']).status === 0
const stops: (() => void)[] = []
afterAll(() => stops.forEach((stop) => stop()))

describe.skipIf(!python)('a valid create sent in chunks to a server that answers in HTTP/1.0', () => {
  test("Python's http.server with its default protocol_version, reading bodies by Content-Length: the body goes whole, with its Content-Length, and the run passes", async () => {
    const server = spawn('python3', [join(import.meta.dirname, '../http/single-threaded-server.py')], {
      env: { ...process.env, SERVER_KEY: KEY, PROTOCOL: 'HTTP/1.0', CONTENT_LENGTH_ONLY: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    stops.push(() => server.kill())
    const port = await new Promise<string>((resolve, reject) => {
      server.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()))
      server.once('exit', (code) => reject(new Error(`python3 exited ${code}`)))
    })
    const run = await conform({ baseUrl: `http://127.0.0.1:${port}/v1` })
    const check = checksOf(run, 'create-returns-201').find((c) => c.name.includes('sent in chunks'))!
    // RFC 9112 §6.1: no chunks to a server that answered in HTTP/1.0; the create goes whole and is judged
    expect(check.status, run.stdout).toBe('pass')
    expect(check.exchanges.at(-1)?.request.headers['transfer-encoding']).toBeUndefined()
    expect(check.exchanges.at(-1)?.response?.httpVersion).toBe('1.0')
    expect(run.code, run.stdout).toBe(0)
  }, 90_000)
})
