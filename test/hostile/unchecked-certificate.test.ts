/**
 * NODE_TLS_REJECT_UNAUTHORIZED=0 (a CI job's, set for the whole process for another tool behind a
 * TLS-inspecting proxy) turns off Node's check of every certificate: the key went to whoever
 * answered for the host, with Node's one warning line. The run checks the certificate whatever it
 * says, unless --allow-insecure-http, the flag that already lets the key go where it can be read.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { originMaterial } from '../../lib/config/client-tls.ts'
import { originTls } from '../../lib/http/origin-tls.ts'
import { runConform, type ConformRun } from '../helpers/run-conform.ts'
import { httpServer, opensslMissing, selfSignedCert, tlsFront, type HostileServer, type SelfSignedCert } from './hostile-servers.ts'
import { RUN_TIMEOUT_MS, expectNoStackTrace } from './expect-run.ts'

const KEY = 'unchecked-certificate-key-4c2e9a'
const runs: ConformRun[] = []
afterAll(() => runs.forEach((run) => run.cleanup()))

test('the handshakes with the origin check its certificate, unless --allow-insecure-http leaves it to Node', () => {
  expect(originTls(originMaterial({ allowInsecureHttp: false }))).toEqual({ rejectUnauthorized: true })
  expect(originTls(originMaterial({ tls: { material: { ca: ['PEM'] } } as never, allowInsecureHttp: false })).rejectUnauthorized).toBe(true)
  expect(originTls(originMaterial({ allowInsecureHttp: true }))).toEqual({})
})

const noOpenssl = opensslMissing()

// one test after the other: the second sends the key to the service the first says none reached
describe.skipIf(noOpenssl !== undefined)(`NODE_TLS_REJECT_UNAUTHORIZED=0 and a self-signed certificate${noOpenssl ? ` (skipped: ${noOpenssl})` : ''}`, { timeout: RUN_TIMEOUT_MS }, () => {
  let cert: SelfSignedCert
  let service: HostileServer
  let front: HostileServer
  beforeAll(async () => {
    cert = selfSignedCert()
    // a service that answers every request, behind TLS whose certificate nobody trusts: a stranger answering for the host
    service = await httpServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'))
    front = await tlsFront(cert, service.port)
  })
  afterAll(async () => {
    await Promise.all([front?.close(), service?.close()])
    cert?.cleanup()
  })
  const keyed = () => service.requests.filter((r) => String(r.headers.authorization ?? '').includes(KEY))

  test('→ not followed: exit 2 naming the variable and --allow-insecure-http, and no request carries the key', async () => {
    const run = await runConform(['--base-url', front.baseUrl, '--rule', 'list-returns-200'], { env: { CONFORM_API_KEY: KEY, NODE_TLS_REJECT_UNAUTHORIZED: '0' } })
    runs.push(run)
    expect(run.code, run.stderr).toBe(2)
    expectNoStackTrace(run)
    expect(run.stderr).toMatch(new RegExp(`conform: TLS certificate of 127\\.0\\.0\\.1:${front.port} is not trusted \\(.+\\); add its CA with --ca-cert FILE .*; NODE_TLS_REJECT_UNAUTHORIZED=0 is not followed, as the key would go to whoever answers for the host: --allow-insecure-http to send it so anyway`))
    expect(keyed()).toEqual([])
  })

  test('with --allow-insecure-http → followed: the run is made', async () => {
    const run = await runConform(['--base-url', front.baseUrl, '--rule', 'list-returns-200', '--allow-insecure-http'], { env: { CONFORM_API_KEY: KEY, NODE_TLS_REJECT_UNAUTHORIZED: '0' } })
    runs.push(run)
    expectNoStackTrace(run)
    expect(run.code, run.stderr).toBe(0)
    expect(keyed().length).toBeGreaterThan(0)
  })
})
