/**
 * Answers whose head (status line and headers) is large. §8 shows no maximum size: a conforming
 * service may send a header of 40 KiB (a gateway in front lets 32 KiB through), past the 16 KiB
 * of head undici reads by default, which failed 17 rules with "no response" though every answer
 * was a 200 or 201 (found by hostile5). The client reads 64 KiB of head (lib/http/agent.ts); a head
 * past that was not read, and judges nothing: not verified (exit 2), as a body past
 * --max-response-bytes (lib/result/response-cap.ts), not a failure of the rule its check judged.
 * The same limit holds the trailer section of a chunked answer (fields after its last chunk), which
 * undici counts as it counts a head: endless trailers were told as "response head (status line and
 * headers) larger than 65536 bytes", a head that had come whole; now the words name the trailers.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type AddressInfo, type Socket } from 'node:net'
import { afterAll, describe, expect, test } from 'vitest'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { bigHeaderFront } from './heavy-servers.ts'

const KEY = `heads-${randomBytes(12).toString('hex')}`
const closers: (() => unknown)[] = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

async function runBehindHeader(bytes: number): Promise<ConformRun> {
  const server = await startReferenceServer({ apiKey: KEY })
  closers.push(() => server.close())
  const front = await bigHeaderFront(new URL(server.baseUrl).origin, bytes)
  closers.push(() => front.close())
  const run = await runConformInProcess(['--base-url', front.baseUrl, '--timeout', '10000'], { env: { CONFORM_API_KEY: KEY } })
  closers.push(() => run.cleanup())
  return run
}

describe('an answer with a large head', () => {
  test('a 40 KiB header in every answer of a conforming service: it passes', async () => {
    const run = await runBehindHeader(40 * 1024)
    expect(run.code, run.stdout).toBe(0)
  }, 120_000)

  test('a 100 KiB header, past what the client reads: not verified (exit 2), no rule failed, the first line says why', async () => {
    const run = await runBehindHeader(100 * 1024)
    expect(run.code, run.stdout).toBe(2)
    expect((run.results?.rules ?? []).filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
    expect(run.stdout).toMatch(/head \(status line and headers\) larger than 65536 bytes/)
    expect(run.stdout).not.toMatch(/raise --max-response-bytes/)
  }, 120_000)
})

/** Every request answered 200 `[]` chunked, then trailer fields of 1 KB each, written until the client closes the connection. */
async function endlessTrailers(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket.on('close', () => sockets.delete(socket)).on('error', () => {}))
    socket.once('data', () => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nTrailer: X-Trace\r\n\r\n2\r\n[]\r\n0\r\n')
      const field = `X-Trace: ${'a'.repeat(1000)}\r\n`
      const more = () => {
        while (!socket.destroyed) if (!socket.write(field)) return void socket.once('drain', more)
      }
      more()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((resolve) => (sockets.forEach((s) => s.destroy()), server.close(() => resolve()))),
  }
}

describe('a chunked answer with endless trailers', () => {
  test('not verified (exit 2), no rule failed, and the words name the trailer section, not the head', async () => {
    const server = await endlessTrailers()
    closers.push(() => server.close())
    const run = await runConformInProcess(['--base-url', server.baseUrl, '--timeout', '10000'], { env: { CONFORM_API_KEY: KEY } })
    closers.push(() => run.cleanup())
    expect(run.code, run.stdout).toBe(2)
    expect((run.results?.rules ?? []).filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
    expect(run.stdout.split('\n')[2]).toMatch(/^✗ \d+ checks met answers with a trailer section \(fields after its chunked body's last chunk\) larger than 65536 bytes, the most this client reads, not read, so not verified/)
    expect(run.stdout).not.toMatch(/head \(status line and headers\)/)
  }, 120_000)
})
