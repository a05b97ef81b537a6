/**
 * Finding the run's requests (issue 19): every request carries a W3C traceparent with the run's one
 * trace id and a span id of its own, and a User-Agent naming the tool, its version and the run id;
 * results.json has the trace id, and each exchange's evidence its traceparent.
 */
import { afterAll, expect, test } from 'vitest'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { toolVersion } from '../../lib/project-root.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { RUN_TIMEOUT_MS } from '../hostile/expect-run.ts'
import type { HostileServer } from '../hostile/hostile-servers.ts'
import { stallingFront } from '../hostile/stalling-servers.ts'

const KEY = 'trace-context-key-8c2f4a1e'
const servers: (RunningServer | HostileServer)[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
})

test('every request carries a valid traceparent, one trace id for the run, a span id each, and the run in its User-Agent', async () => {
  const upstream = await startReferenceServer({ apiKey: KEY })
  // a front that passes everything through and keeps each request's headers: the service's log
  const log = await stallingFront(upstream.baseUrl.replace(/\/v1$/, ''), () => false)
  servers.push(upstream, log)
  const run = await runConformInProcess(['--base-url', log.baseUrl], { env: { CONFORM_API_KEY: KEY } })
  runs.push(run)
  expect(run.code, run.stdout + run.stderr).toBe(0)
  const { traceId, runId } = run.results!
  expect(traceId).toMatch(/^(?!0{32})[0-9a-f]{32}$/)
  expect(log.requests.length).toBe(run.results!.summary.requests)
  const spans = new Set<string>()
  for (const request of log.requests) {
    const parts = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(request.headers.traceparent))
    expect(parts, `traceparent of ${request.method} ${request.url}`).not.toBeNull()
    expect(parts![1]).toBe(traceId)
    expect(parts![2]).not.toBe('0000000000000000')
    spans.add(parts![2]!)
    expect(request.headers['user-agent']).toBe(`petstore-conform/${toolVersion()} (run ${runId})`)
  }
  // a span of its own for every request (a resend is a request of its own too)
  expect(spans.size).toBe(log.requests.length)
  expect(run.stdout).toContain(`trace ${traceId}`)
  expect(run.files['summary.md']).toContain(traceId)
  expect(run.files['report.html']).toContain(traceId)
  // the evidence of every check shows the span of its exchange
  const exchange = run.results!.rules[0]!.checks[0]!.exchanges[0]!
  expect(exchange.request.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`))
}, RUN_TIMEOUT_MS)

test('--header adds a header to every request; a secret-named one is redacted in every output; Authorization cannot be set', async () => {
  const upstream = await startReferenceServer({ apiKey: KEY })
  const log = await stallingFront(upstream.baseUrl.replace(/\/v1$/, ''), () => false)
  servers.push(upstream, log)
  const secret = 'tenant-token-6d1f9b7e3a'
  const run = await runConformInProcess(['--base-url', log.baseUrl, '--header', 'X-Tenant: acme', '--header', `X-Gateway-Token: ${secret}`], { env: { CONFORM_API_KEY: KEY } })
  runs.push(run)
  expect(run.code, run.stdout + run.stderr).toBe(0)
  for (const request of log.requests) {
    expect(request.headers['x-tenant']).toBe('acme')
    expect(request.headers['x-gateway-token']).toBe(secret)
  }
  for (const text of [run.stdout, run.stderr, ...Object.values(run.files)]) expect(text).not.toContain(secret)
  expect(run.files['results.json']).toContain('"x-tenant": "acme"')

  // the variable: one header a line
  const fromEnv = await runConformInProcess(['--base-url', log.baseUrl, '--rule', 'base-url-ends-v1'], { env: { CONFORM_API_KEY: KEY, CONFORM_HEADERS: 'X-One: 1\nX-Two: 2' } })
  runs.push(fromEnv)
  expect(fromEnv.code, fromEnv.stderr).toBe(0)

  for (const [header, says] of [
    ['Authorization: Bearer other', /--header cannot set Authorization: the key goes in CONFORM_API_KEY/],
    ['traceparent: 00-x', /--header cannot set traceparent: the suite sets it per request/],
    ['no colon here', /--header takes "Name: value" with a header name of letters, digits and -, got "no" and its value without a colon between them$/m],
    // a secret header's value without the colon, or alone: never quoted (the line was, up to 40 characters)
    ['X-Gateway-Token sk_live_9f8e7d6c5b4a3921', /got "X-Gateway-Token" and its value without a colon between them$/m],
    ['Ocp-Apim-Subscription-Key=sk_live_9f8e7d6c5b4a3921', /got "Ocp-Apim-Subscription-Key" and its value without a colon between them$/m],
    ['sk_live_9f8e7d6c5b4a3921', /got a line without a colon \(its 24 characters not shown: it may be a secret value\)$/m],
    // a base64 value alone: its padding is no "Name=value" (the value before it was quoted as the header's name)
    ['c2tfbGl2ZV85ZjhlN2Q2YzViNGEzOTIxeA==', /got a line without a colon \(its 36 characters not shown: it may be a secret value\)$/m],
    ['Bad Name: x', /--header takes "Name: value" with a header name of letters, digits and -/],
  ] as const) {
    const refused = await runConformInProcess(['--base-url', log.baseUrl, '--header', header], { env: { CONFORM_API_KEY: KEY } })
    runs.push(refused)
    expect(refused.code, header).toBe(2)
    expect(refused.stderr).toMatch(says)
    for (const text of [refused.stdout, refused.stderr, ...Object.values(refused.files)]) expect(text).not.toContain('9f8e7d6c5b4a3921')
  }
}, RUN_TIMEOUT_MS)
