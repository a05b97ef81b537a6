/**
 * One TLS secure context for a run's handshakes with its origin (lib/http/origin-tls.ts): given the
 * CA, certificate and key as options, every connection built its own, reading the ~140 CAs Node
 * trusts and the key again, about 50 ms of CPU a handshake (measured), and with a client certificate no session
 * is resumed. A full run through a mutual-TLS front took 1.7 to 2.1 s of CPU where a plain one took
 * 0.4, and test/hostile/mutual-tls*.test.ts timed out at 120 s under load 15-25 (hostile12).
 */
import tls from 'node:tls'
import { afterAll, expect, test } from 'vitest'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess } from '../helpers/run-conform.ts'
import { opensslMissing } from './hostile-servers.ts'
import { makePki, mtlsFront } from './mutual-tls.ts'

const KEY = 'mtls-context-key-5b2e81d0'
const closers: (() => unknown)[] = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})
const noOpenssl = opensslMissing()

test.skipIf(noOpenssl !== undefined)(`a run with a client certificate builds its secure context once, not once a handshake${noOpenssl ? ` (skipped: ${noOpenssl})` : ''}`, async () => {
  const pki = makePki()
  closers.push(() => pki.cleanup())
  const reference = await startReferenceServer({ apiKey: KEY })
  closers.push(() => reference.close())
  const front = await mtlsFront(pki, Number(new URL(reference.baseUrl).port), { demand: true })
  closers.push(() => front.close())
  // tls.connect builds one from its options (through node:tls's exports) unless given one: counted here; the front has its own
  const build = tls.createSecureContext
  let built = 0
  tls.createSecureContext = (options) => (built++, build(options))
  closers.push(() => void (tls.createSecureContext = build))
  const run = await runConformInProcess(['--base-url', front.baseUrl, '--ca-cert', pki.caFile, '--client-cert', pki.clientCertFile, '--client-key', pki.clientKeyFile, '--rule', 'list-returns-200', '--concurrency', '8'], { env: { CONFORM_API_KEY: KEY } })
  closers.push(() => run.cleanup())
  expect(run.code, run.stdout).toBe(0)
  expect(front.subjects.length).toBeGreaterThanOrEqual(4)
  // as many as the handshakes before (5 of 5); none now
  expect(built, `${front.subjects.length} handshakes`).toBeLessThan(front.subjects.length)
}, 120_000)
