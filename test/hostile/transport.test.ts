/**
 * Transport: no key in clear text over a network, TLS certificates verified (NODE_EXTRA_CA_CERTS
 * adds a CA), and HTTPS_PROXY / NO_PROXY honoured the way undici's EnvHttpProxyAgent reads them.
 * The TLS tests make a self-signed certificate with openssl, and are skipped, with the reason,
 * where openssl is missing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { runConform, type ConformRun } from '../helpers/run-conform.ts'
import { closedPort, connectProxy, opensslMissing, rawServer, recorder, selfSignedCert, tlsFront, type HostileServer, type SelfSignedCert } from './hostile-servers.ts'
import { RUN_TIMEOUT_MS, expectNoStackTrace, expectRefused } from './expect-run.ts'

const KEY = 'transport-test-key-5e0b3d71'
const runs: ConformRun[] = []
const track = (run: ConformRun) => (runs.push(run), run)
afterAll(() => runs.forEach((run) => run.cleanup()))

describe.concurrent('plain http://', () => {
  test('to a host that is not loopback → refused before anything is sent, exit 2', async () => {
    const run = track(await runConform(['--base-url', 'http://petstore.example/v1'], { env: { CONFORM_API_KEY: KEY } }))
    expectRefused(run, /refusing to send the API key in clear text to petstore\.example: use https:\/\/, or --allow-insecure-http/)
  })

  test('is never sent through a proxy: HTTP_PROXY would read the key in clear, even for loopback', async () => {
    const proxy = await recorder()
    const reference = await startReferenceServer({ apiKey: KEY })
    try {
      const run = track(await runConform(['--base-url', reference.baseUrl], { env: { CONFORM_API_KEY: KEY, HTTP_PROXY: proxy.origin, http_proxy: proxy.origin } }))
      expect(run.code, run.stdout + run.stderr).toBe(0)
      expect(proxy.requests).toEqual([])
      expect(proxy.connections()).toBe(0)
    } finally {
      await Promise.all([proxy.close(), reference.close()])
    }
  })

  test('to a host that is not loopback with --allow-insecure-http → let through to the connection', async () => {
    // .invalid never resolves (RFC 6761): the run gets past the refusal and stops at the host
    const run = track(
      await runConform(['--base-url', 'http://petstore.invalid/v1', '--allow-insecure-http', '--timeout', '3000'], { env: { CONFORM_API_KEY: KEY } }),
    )
    expectRefused(run, /^conform: cannot reach petstore\.invalid:80: (host petstore\.invalid not found|no connection within 3000 ms)/)
  })
})

const noOpenssl = opensslMissing()

describe.skipIf(noOpenssl !== undefined).concurrent(`TLS with a self-signed certificate${noOpenssl ? ` (skipped: ${noOpenssl})` : ''}`, { timeout: RUN_TIMEOUT_MS }, () => {
  let cert: SelfSignedCert
  let reference: RunningServer
  let front: HostileServer
  let proxy: HostileServer
  beforeAll(async () => {
    cert = selfSignedCert()
    reference = await startReferenceServer({ apiKey: KEY })
    // the reference server behind TLS: a conforming service, reached only over https
    front = await tlsFront(cert, Number(new URL(reference.baseUrl).port))
    proxy = await connectProxy()
  })
  afterAll(async () => {
    await Promise.all([front?.close(), proxy?.close(), reference?.close()])
    cert?.cleanup()
  })

  test('not trusted → exit 2, one line naming host, port and NODE_EXTRA_CA_CERTS; no request sent', async () => {
    const run = track(await runConform(['--base-url', front.baseUrl], { env: { CONFORM_API_KEY: KEY } }))
    expectRefused(run, new RegExp(`TLS certificate of 127\\.0\\.0\\.1:${front.port} is not trusted \\(.+\\); add its CA with --ca-cert FILE \\(or NODE_EXTRA_CA_CERTS`))
  })

  test('trusted, but issued for another name → exit 2 naming the host the certificate does not name, not a CA to add', async () => {
    const other = selfSignedCert('DNS:api.example')
    const otherFront = await tlsFront(other, Number(new URL(reference.baseUrl).port))
    try {
      const run = track(await runConform(['--base-url', otherFront.baseUrl, '--ca-cert', other.certFile], { env: { CONFORM_API_KEY: KEY } }))
      expectRefused(run, new RegExp(`TLS certificate of 127\\.0\\.0\\.1:${otherFront.port} does not name 127\\.0\\.0\\.1 \\(ERR_TLS_CERT_ALTNAME_INVALID\\): give the base URL by a host name the certificate names`))
    } finally {
      await otherFront.close()
      other.cleanup()
    }
  })

  test('trusted through NODE_EXTRA_CA_CERTS → the run is made, and passes', async () => {
    const run = track(await runConform(['--base-url', front.baseUrl], { env: { CONFORM_API_KEY: KEY, NODE_EXTRA_CA_CERTS: cert.certFile } }))
    expectNoStackTrace(run)
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.results!.baseUrl).toBe(front.baseUrl)
  })

  test('HTTPS_PROXY → every connection goes through the proxy as a CONNECT tunnel; the proxy never sees the key', async () => {
    const run = track(
      await runConform(['--base-url', front.baseUrl, '--rule', 'list-returns-200', '--rule', 'auth-missing-key-401'], {
        env: { CONFORM_API_KEY: KEY, NODE_EXTRA_CA_CERTS: cert.certFile, HTTPS_PROXY: proxy.origin },
      }),
    )
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(proxy.requests.length).toBeGreaterThan(0)
    for (const tunnel of proxy.requests) {
      expect(tunnel.method).toBe('CONNECT')
      expect(tunnel.url).toBe(`127.0.0.1:${front.port}`)
      expect(JSON.stringify(tunnel.headers)).not.toContain(KEY)
    }
  })

  test('HTTPS_PROXY, the certificate not trusted → exit 2 naming --ca-cert, judged inside the tunnel before any request', async () => {
    const run = track(await runConform(['--base-url', front.baseUrl], { env: { CONFORM_API_KEY: KEY, HTTPS_PROXY: proxy.origin } }))
    expectRefused(run, new RegExp(`TLS certificate of 127\\.0\\.0\\.1:${front.port} is not trusted \\(.+\\); add its CA with --ca-cert FILE`))
  })

  test('HTTPS_PROXY down, host listed in NO_PROXY → connects directly and passes', async () => {
    const deadProxy = `http://127.0.0.1:${await closedPort()}`
    const run = track(
      await runConform(['--base-url', front.baseUrl, '--rule', 'list-returns-200'], {
        env: { CONFORM_API_KEY: KEY, NODE_EXTRA_CA_CERTS: cert.certFile, HTTPS_PROXY: deadProxy, NO_PROXY: 'localhost,127.0.0.1' },
      }),
    )
    expect(run.code, run.stdout + run.stderr).toBe(0)
  })

  test('HTTPS_PROXY down, host not in NO_PROXY → exit 2 naming the proxy and the variable', async () => {
    const port = await closedPort()
    const run = track(
      await runConform(['--base-url', front.baseUrl], {
        env: { CONFORM_API_KEY: KEY, NODE_EXTRA_CA_CERTS: cert.certFile, HTTPS_PROXY: `http://user:proxy-secret@127.0.0.1:${port}` },
      }),
    )
    expectRefused(run, new RegExp(`cannot reach the proxy 127\\.0\\.0\\.1:${port} \\(HTTPS_PROXY\\): connection refused; fix HTTPS_PROXY, or list the host in NO_PROXY`))
    expect(run.stderr).not.toContain('proxy-secret')
  })
})

describe.concurrent('a proxy that refuses the tunnel (407: it wants credentials; 403: the host is not allowed)', { timeout: RUN_TIMEOUT_MS }, () => {
  // no answer of the service: every request of the run meets it alike, so the run is not made (exit 2), where each check failed and the service was blamed (exit 1)
  for (const [status, credentials, fix] of [
    ['407 Proxy Authentication Required', '', /give its credentials in HTTPS_PROXY \(http:\/\/user:password@host:port\)/],
    ['407 Proxy Authentication Required', 'user:proxy-secret@', /it refused the credentials HTTPS_PROXY gives/],
    ['403 Forbidden', '', /is 127\.0\.0\.1:\d+ allowed through it\?/],
  ] as const) {
    test(`${status}${credentials ? ', credentials given' : ''} → exit 2 before any request, naming the proxy, the status and what to change`, async () => {
      const proxy = await rawServer((socket) => socket.once('data', () => socket.end(`HTTP/1.1 ${status}\r\nProxy-Authenticate: Basic realm="corp"\r\nContent-Length: 0\r\n\r\n`)))
      const origin = await recorder()
      try {
        const run = track(await runConform(['--base-url', `https://127.0.0.1:${origin.port}/v1`], { env: { CONFORM_API_KEY: KEY, HTTPS_PROXY: `http://${credentials}127.0.0.1:${proxy.port}` } }))
        expectRefused(run, new RegExp(`the proxy 127\\.0\\.0\\.1:${proxy.port} \\(HTTPS_PROXY\\) answered ${status.slice(0, 3)} to CONNECT 127\\.0\\.0\\.1:${origin.port}, so no request can reach the server`))
        expect(run.stderr).toMatch(fix)
        expect(run.stderr).not.toContain('proxy-secret')
        expect(origin.connections()).toBe(0)
      } finally {
        await Promise.all([proxy.close(), origin.close()])
      }
    })
  }
})

describe.concurrent('a proxy URL whose credentials hold a bad percent escape', { timeout: RUN_TIMEOUT_MS }, () => {
  // percent-decoded for Proxy-Authorization: "conform: internal error: URI malformed" before
  for (const [credentials, part] of [
    ['us%zzer:proxy-secret@', 'user name'],
    ['user:proxy-secret%@', 'password'],
    ['user:proxy-secret%ff@', 'password'],
  ] as const) {
    test(`${credentials} → exit 2 before any connection, one line naming the ${part}, never the password`, async () => {
      const proxy = await recorder()
      try {
        const run = track(await runConform(['--base-url', 'https://127.0.0.1:9/v1'], { env: { CONFORM_API_KEY: KEY, HTTPS_PROXY: `http://${credentials}127.0.0.1:${proxy.port}` } }))
        expectRefused(run, new RegExp(`^conform: HTTPS_PROXY: the proxy's ${part} has a bad percent escape \\(a % not followed by two hex digits, or escapes of no UTF-8 text\\); write a % in it as %25$`, 'm'))
        expect(run.stdout + run.stderr).not.toContain('proxy-secret')
        expect(proxy.connections()).toBe(0)
      } finally {
        await proxy.close()
      }
    })
  }
})
