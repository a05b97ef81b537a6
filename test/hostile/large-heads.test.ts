/**
 * Answers whose head (status line and headers) is large. §8 shows no maximum size: a conforming
 * service may send a header of 40 KiB (a gateway in front lets 32 KiB through), past the 16 KiB
 * of head undici reads by default, which failed 17 rules with "no response" though every answer
 * was a 200 or 201 (found by hostile5). The client reads 64 KiB of head (lib/http/agent.ts); a head
 * past that was not read, and judges nothing: not verified (exit 2), as a body past
 * --max-response-bytes (lib/result/response-cap.ts), not a failure of the rule its check judged.
 */
import { randomBytes } from 'node:crypto'
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
