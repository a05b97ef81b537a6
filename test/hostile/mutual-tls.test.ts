/**
 * Mutual TLS: a service behind a gateway that asks for a client certificate (lib/config/client-tls.ts,
 * lib/runner/client-certificate.ts). Without one, the run cannot be made (exit 2, one line that says
 * so) rather than a FAIL of the service: under TLS 1.3 the refusal comes after the handshake, and
 * every request met a closed connection. With --client-cert (and --ca-cert for the gateway's CA) the
 * run is made and passes; a certificate the server refuses, a key that is not the certificate's, an
 * encrypted key without its passphrase are each one line before any request. The key and its
 * passphrase appear in no output. Skipped, with the reason, where openssl is missing.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { runConform, type ConformRun } from '../helpers/run-conform.ts'
import { connectProxy, opensslMissing, type HostileServer } from './hostile-servers.ts'
import { RUN_TIMEOUT_MS, expectNoStackTrace, expectRefused } from './expect-run.ts'
import { makePki, mtlsFront, nginxLikeFront, PASSPHRASE, type MtlsFront, type Pki } from './mutual-tls.ts'

const KEY = 'mtls-test-key-3f7a19c2'
const runs: ConformRun[] = []
const track = (run: ConformRun) => (runs.push(run), run)
afterAll(() => runs.forEach((run) => run.cleanup()))
const noOpenssl = opensslMissing()

/** Every text a run printed or wrote. */
const everything = (run: ConformRun) => [run.stdout, run.stderr, ...readdirSync(run.reportDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))].join('\n')

describe.skipIf(noOpenssl !== undefined).concurrent(`mutual TLS${noOpenssl ? ` (skipped: ${noOpenssl})` : ''}`, { timeout: RUN_TIMEOUT_MS }, () => {
  let pki: Pki
  let reference: RunningServer
  let demanding: MtlsFront
  let demanding12: MtlsFront
  let asking: MtlsFront
  let proxy: HostileServer
  const withCert = () => ['--ca-cert', pki.caFile, '--client-cert', pki.clientCertFile, '--client-key', pki.clientKeyFile]
  beforeAll(async () => {
    pki = makePki()
    reference = await startReferenceServer({ apiKey: KEY })
    const upstream = Number(new URL(reference.baseUrl).port)
    ;[demanding, demanding12, asking, proxy] = await Promise.all([
      mtlsFront(pki, upstream, { demand: true }),
      mtlsFront(pki, upstream, { demand: true, maxVersion: 'TLSv1.2' }),
      mtlsFront(pki, upstream, { demand: false }),
      connectProxy(),
    ])
  })
  afterAll(async () => {
    await Promise.all([demanding?.close(), demanding12?.close(), asking?.close(), proxy?.close(), reference?.close()])
    pki?.cleanup()
  })

  // the alert, or the close that follows it, whichever the socket reports first
  test('TLS 1.3, no client certificate → exit 2 before any request, one line saying the server asks for one (it was a FAIL, every request closed)', async () => {
    const run = track(await runConform(['--base-url', demanding.baseUrl, '--ca-cert', pki.caFile], { env: { CONFORM_API_KEY: KEY } }))
    expectRefused(run, new RegExp(`^conform: the server at 127\\.0\\.0\\.1:${demanding.port} (refused the TLS handshake \\(ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED\\)|closed the connection after the TLS handshake): it asks for a client certificate \\(mutual TLS\\); give it with --client-cert FILE and --client-key FILE`))
  })

  test('TLS 1.2, no client certificate → exit 2, the handshake failure most often that', async () => {
    const run = track(await runConform(['--base-url', demanding12.baseUrl, '--ca-cert', pki.caFile], { env: { CONFORM_API_KEY: KEY } }))
    // OpenSSL 3.0 (Node 20) names the alert SSLV3_ALERT_HANDSHAKE_FAILURE, 3.2 and later (Node 22, 24) SSL/TLS_ALERT_HANDSHAKE_FAILURE
    expectRefused(run, /refused the TLS handshake \(ERR_SSL_(SSLV3|SSL\/TLS)_ALERT_HANDSHAKE_FAILURE\): most often it asks for a client certificate/)
  })

  test('--client-cert, --client-key, --ca-cert → the run is made and passes; the first lines and results.json name the certificate, never its key', async () => {
    const run = track(await runConform(['--base-url', demanding.baseUrl, ...withCert()], { env: { CONFORM_API_KEY: KEY } }))
    expectNoStackTrace(run)
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^TLS: client certificate CN=conform-test-client, O=Acceptance \(issued by CN=conform-test-ca, valid to \d{4}-\d\d-\d\d, SHA-256 [0-9A-F:]{95}\) from .*client\.pem, presented only to the base URL's origin; the CA of .*ca\.pem trusted beside the system's$/m)
    expect(run.results!.options.tls?.clientCertificate).toMatchObject({ subject: 'CN=conform-test-client, O=Acceptance', issuer: 'CN=conform-test-ca', file: pki.clientCertFile, keyFile: pki.clientKeyFile })
    expect(demanding.subjects).toContain('conform-test-client')
    const keyBody = readFileSync(pki.clientKeyFile, 'utf8').split('\n')[1] as string
    expect(everything(run)).not.toContain(keyBody)
    expect(everything(run)).not.toContain('PRIVATE KEY')
  })

  test('TLS 1.2 too, the key in the certificate\'s file (curl\'s --cert): passes', async () => {
    const run = track(await runConform(['--base-url', demanding12.baseUrl, '--ca-cert', pki.caFile, '--client-cert', pki.bothFile, '--rule', 'list-returns-200'], { env: { CONFORM_API_KEY: KEY } }))
    expect(run.code, run.stdout + run.stderr).toBe(0)
  })

  test('an encrypted key: without its passphrase, or with another, exit 2 naming the variable; with it, passes, and the passphrase is printed nowhere', async () => {
    const args = ['--base-url', demanding.baseUrl, '--ca-cert', pki.caFile, '--client-cert', pki.clientCertFile, '--client-key', pki.encryptedKeyFile, '--rule', 'list-returns-200']
    expectRefused(track(await runConform(args, { env: { CONFORM_API_KEY: KEY } })), /^conform: the key in .*client-encrypted\.key is encrypted: give its passphrase in CONFORM_CLIENT_KEY_PASSPHRASE$/)
    const wrong = track(await runConform(args, { env: { CONFORM_API_KEY: KEY, CONFORM_CLIENT_KEY_PASSPHRASE: 'not-the-passphrase' } }))
    expectRefused(wrong, /cannot be decrypted with the passphrase in CONFORM_CLIENT_KEY_PASSPHRASE$/)
    expect(everything(wrong)).not.toContain('not-the-passphrase')
    const right = track(await runConform(args, { env: { CONFORM_API_KEY: KEY, CONFORM_CLIENT_KEY_PASSPHRASE: PASSPHRASE } }))
    expect(right.code, right.stdout + right.stderr).toBe(0)
    expect(everything(right)).not.toContain(PASSPHRASE)
  })

  test('a PKCS#12 file (.p12): with its passphrase, passes and is named by its certificate; without, exit 2 naming the variable; with --client-key, exit 2', async () => {
    const args = ['--base-url', demanding.baseUrl, '--ca-cert', pki.caFile, '--client-cert', pki.p12File, '--rule', 'list-returns-200']
    const run = track(await runConform(args, { env: { CONFORM_API_KEY: KEY, CONFORM_CLIENT_KEY_PASSPHRASE: PASSPHRASE } }))
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^TLS: client certificate CN=conform-test-client, O=Acceptance \(issued by CN=conform-test-ca, .*\) from the PKCS#12 file .*client\.p12, presented only/m)
    expectRefused(track(await runConform(args, { env: { CONFORM_API_KEY: KEY } })), /client\.p12 is neither PEM nor a PKCS#12 file that opens without a passphrase: give its passphrase in CONFORM_CLIENT_KEY_PASSPHRASE$/)
    expectRefused(track(await runConform([...args, '--client-key', pki.clientKeyFile], { env: { CONFORM_API_KEY: KEY, CONFORM_CLIENT_KEY_PASSPHRASE: PASSPHRASE } })), /is a PKCS#12 file, which holds its key: leave out --client-key$/)
  })

  test('a key that is not the certificate\'s, and a certificate of another CA → exit 2 before any request', async () => {
    const mismatched = track(await runConform(['--base-url', demanding.baseUrl, '--ca-cert', pki.caFile, '--client-cert', pki.clientCertFile, '--client-key', pki.strangerFile], { env: { CONFORM_API_KEY: KEY } }))
    expectRefused(mismatched, /is not the key of the certificate in --client-cert .*client\.pem \(CN=conform-test-client, O=Acceptance\)$/)
    for (const front of [demanding, demanding12]) {
      const stranger = track(await runConform(['--base-url', front.baseUrl, '--ca-cert', pki.caFile, '--client-cert', pki.strangerFile], { env: { CONFORM_API_KEY: KEY } }))
      expectRefused(stranger, new RegExp(`^conform: the server at 127\\.0\\.0\\.1:${front.port} .*: (most often )?it did not take the client certificate of --client-cert`))
    }
  })

  test('a server that asks for a certificate but does not demand one (ssl_verify_client optional): no certificate, the run is made and passes', async () => {
    const run = track(await runConform(['--base-url', asking.baseUrl, '--ca-cert', pki.caFile], { env: { CONFORM_API_KEY: KEY } }))
    expect(run.code, run.stdout + run.stderr).toBe(0)
  })

  test('--ca-cert beside NODE_EXTRA_CA_CERTS: both are trusted (on Node 20 too, where `ca` would replace the CAs that variable added)', async () => {
    const run = track(await runConform(['--base-url', asking.baseUrl, '--ca-cert', join(pki.dir, 'other-ca.pem'), '--rule', 'list-returns-200'], { env: { CONFORM_API_KEY: KEY, NODE_EXTRA_CA_CERTS: pki.caFile } }))
    expect(run.code, run.stdout + run.stderr).toBe(0)
  })

  test('through HTTPS_PROXY, no client certificate → exit 2 before any request: the preflight makes its handshake inside a CONNECT tunnel too', async () => {
    const before = proxy.requests.length
    const run = track(await runConform(['--base-url', demanding.baseUrl, '--ca-cert', pki.caFile], { env: { CONFORM_API_KEY: KEY, HTTPS_PROXY: proxy.origin } }))
    expectRefused(run, /it asks for a client certificate \(mutual TLS\); give it with --client-cert FILE and --client-key FILE/)
    expect(proxy.requests.slice(before).every((r) => r.method === 'CONNECT')).toBe(true)
  })

  test('through HTTPS_PROXY: the certificate goes to the origin inside the tunnel, and passes', async () => {
    const run = track(await runConform(['--base-url', demanding.baseUrl, ...withCert(), '--rule', 'list-returns-200'], { env: { CONFORM_API_KEY: KEY, HTTPS_PROXY: proxy.origin } }))
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(proxy.requests.length).toBeGreaterThan(0)
    expect(proxy.requests.every((r) => r.method === 'CONNECT')).toBe(true)
  })

  test('behind a gateway that answers 400 "No required SSL certificate was sent" (nginx): exit 2, the service judged on nothing, nothing confirmed; with the certificate, passes', async () => {
    const nginx = await nginxLikeFront(pki, Number(new URL(reference.baseUrl).port))
    try {
      const without = track(await runConform(['--base-url', nginx.baseUrl, '--ca-cert', pki.caFile], { env: { CONFORM_API_KEY: KEY } }))
      expect(without.code, without.stdout + without.stderr).toBe(2)
      expect(without.stdout).toMatch(/^✗ a gateway refused the run for its client certificate: \d+ requests were answered 400 with its words \("No required SSL certificate was sent"\), not the service's; it asks for a client certificate \(mutual TLS\); give it with --client-cert FILE and --client-key FILE$/m)
      expect(without.stdout).toContain('Verdict: INCOMPLETE (exit 2)')
      expect(without.results!.summary.checks.fail).toBe(0)
      expect(without.results!.summary.writesAgain ?? 0).toBe(0)
      const stranger = track(await runConform(['--base-url', nginx.baseUrl, '--ca-cert', pki.caFile, '--client-cert', pki.strangerFile], { env: { CONFORM_API_KEY: KEY } }))
      expect(stranger.code).toBe(2)
      expect(stranger.stdout).toMatch(/\("The SSL certificate error"\), not the service's; it did not take the client certificate of --client-cert/)
      const run = track(await runConform(['--base-url', nginx.baseUrl, ...withCert()], { env: { CONFORM_API_KEY: KEY } }))
      expect(run.code, run.stdout + run.stderr).toBe(0)
      expect(nginx.subjects).toContain('conform-test-client')
    } finally {
      await nginx.close()
    }
    // three runs, each its own RUN_TIMEOUT_MS: they timed out at 120 s together in npm test beside two busy loops (load 18 to 22)
  }, 3 * RUN_TIMEOUT_MS)

  test('a failure\'s reproduction carries curl\'s --cacert, --cert and --key', async () => {
    const broken = await startReferenceServer({ apiKey: KEY, behaviour: MUTATIONS.find((m) => m.name === 'list-wrapped-in-items')!.behaviour })
    const front = await mtlsFront(pki, Number(new URL(broken.baseUrl).port), { demand: true })
    try {
      const run = track(await runConform(['--base-url', front.baseUrl, ...withCert(), '--rule', 'list-returns-category-array'], { env: { CONFORM_API_KEY: KEY } }))
      expect(run.code, run.stdout + run.stderr).toBe(1)
      expect(run.stdout).toContain(`curl -i --cacert '${pki.caFile}' --cert '${pki.clientCertFile}' --key '${pki.clientKeyFile}' -X GET`)
    } finally {
      await Promise.all([front.close(), broken.close()])
    }
  })

  test('with a plain http:// base URL, or none (the embedded server) → exit 2', async () => {
    expectRefused(track(await runConform(['--base-url', reference.baseUrl, ...withCert()], { env: { CONFORM_API_KEY: KEY } })), /are for an https:\/\/ base URL, not http:\/\/$/)
    expectRefused(track(await runConform(withCert())), /are for an https:\/\/ base URL \(the embedded server speaks plain http\)$/)
  })

  test('a fleet: each entry its own certificate (paths from the targets file), an unset passphrase variable named with its entry', async () => {
    const targets = join(pki.dir, 'targets.yaml')
    const entry = (label: string, front: MtlsFront, extra: string) => `  - label: ${label}\n    baseUrl: ${front.baseUrl}\n    apiKeyEnv: MTLS_KEY\n    caCert: ca.pem\n${extra}`
    writeFileSync(targets, `deployments:\n${entry('demanding', demanding, '    clientCert: client.pem\n    clientKey: client-encrypted.key\n    clientKeyPassphraseEnv: MTLS_PASS\n')}${entry('asking', asking, '')}`)
    const run = track(await runConform(['--targets', targets, '--rule', 'list-returns-200'], { env: { MTLS_KEY: KEY, MTLS_PASS: PASSPHRASE } }))
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expectRefused(track(await runConform(['--targets', targets], { env: { MTLS_KEY: KEY } })), /targets\.yaml deployment 1 \(demanding\): the variable MTLS_PASS its clientKeyPassphraseEnv names is not set$/)
  })
})
