/**
 * A service that answers a request on its head alone, before its body (an early 401: its key
 * checked first). HTTP allows it (RFC 9112 §9.3: the server then reads the body whole or closes the
 * connection), and such a service is judged on its answers as any other: it passes. One that keeps
 * the connection and leaves the body unread reads it as the start of the next request there, whose
 * answer (a 400, the connection closed) fell on whichever request came next, another on each probe:
 * the run said "answered differently on a second probe (one replica behind a load balancer?)". The
 * finding now names the POSTs answered on their head after which each failed answer came, and the
 * rule (RFC 9112 §9.3) (early13; lib/result/unread-bodies.ts afterUnreadBodyWords).
 */
import { randomBytes } from 'node:crypto'
import { afterAll, describe, expect, test } from 'vitest'
import { runConformInProcess } from '../helpers/run-conform.ts'
import { earlyAnswering, type EarlyAnswer } from './early-answers.ts'

const KEY = `early-${randomBytes(12).toString('hex')}`
const closers: (() => unknown)[] = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

async function runAgainst(mode: EarlyAnswer) {
  const server = await earlyAnswering(KEY, mode)
  closers.push(() => server.closeAll())
  const run = await runConformInProcess(['--base-url', server.baseUrl, '--deadline', '60000'], { env: { CONFORM_API_KEY: KEY } })
  closers.push(() => run.cleanup())
  return run
}

describe('a service that answers 401 on the head, before the body', () => {
  test.each(['reads-the-body', 'closes'] as const)('and then %s: judged on its answers, it passes', async (mode) => {
    const run = await runAgainst(mode)
    expect(run.code, run.stdout).toBe(0)
  }, 120_000)

  test('and leaves the body on the kept-alive connection: the finding names the POSTs whose bodies the failed answers met, no replica', async () => {
    const run = await runAgainst('leaves-the-body')
    expect(run.code, run.stdout).toBe(1)
    expect(run.stdout).not.toMatch(/one replica behind a load balancer\?/)
    expect(run.stdout).toMatch(/^✗ [\w ]+: \d+ checks? (?:was|were) answered wrongly on some probes only(?:, and \d+ more met the same failure on every probe)?: each failed answer was to the next request on its connection after a POST answered on its head alone \(POST \/v1\/categories (?:without a key|with a wrong key) answered 401/m)
  }, 120_000)
})
