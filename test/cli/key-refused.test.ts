/**
 * A key the server refuses (a rotated CI secret, the staging key against production): the run says
 * so first and ends without a verdict on the service (exit 2), instead of reading as a service
 * that broke six rules: the checks judged on its refusals are not verified. lib/result/key-refused.ts.
 */
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, expect, test } from 'vitest'
import type { Exchange } from '../../lib/http/exchange.ts'
import { keyRefused, writesRefused } from '../../lib/result/key-refused.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { POST_PROBES } from '../../suites/cases/write-order.ts'

const servers: RunningServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((r) => r.cleanup())
  await Promise.all(servers.map((s) => s.close()))
})

test('a key the server refuses: said first, whole, never shown; verdict INCOMPLETE, exit 2', async () => {
  const server = await startReferenceServer({ apiKey: `right-${randomBytes(12).toString('hex')}` })
  servers.push(server)
  const wrongKey = `wrong-${randomBytes(12).toString('hex')}`
  const run = await runConformInProcess(['--base-url', server.baseUrl], { env: { CONFORM_API_KEY: wrongKey } })
  runs.push(run)
  expect(run.code).toBe(2)
  const lines = run.stdout.split('\n')
  expect(lines[2]).toMatch(/^✗ the server refused the key: all \d+ requests sent with it were answered 401; check CONFORM_API_KEY \(wrong/)
  // the headline does not say "verified nothing" above "7 rules passed": the requests without a valid key were judged
  for (const file of ['report.html', 'summary.md']) {
    expect(run.files[file]).toContain('INCOMPLETE: the server refused the key, so only the requests without a valid one were judged; check CONFORM_API_KEY')
  }
  expect(run.results?.summary.rules.pass).toBeGreaterThan(0)
  expect(run.stdout).toContain('Verdict: INCOMPLETE (exit 2)')
  expect(run.results?.verdict).toBe('incomplete')
  expect(run.results?.problems[0]).toMatchObject({ kind: 'key-refused', message: expect.stringMatching(/^the server refused the key/) })
  // no rule reads as broken, or as verified, on answers that refused the key: those checks are not
  // verified; the checks that never sent it (the requests without a valid key) still count
  const checks = (run.results?.rules ?? []).flatMap((r) => r.checks)
  expect(checks.filter((c) => c.status === 'fail')).toEqual([])
  expect((run.results?.rules ?? []).filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
  const sentTheKey = checks.filter((c) => c.exchanges.some((e) => e.request.headers.authorization === 'Bearer $CONFORM_API_KEY'))
  expect(sentTheKey.length).toBeGreaterThan(20)
  expect(sentTheKey.filter((c) => c.status !== 'skip')).toEqual([])
  expect(sentTheKey.filter((c) => c.cause === 'key-refused').length).toBeGreaterThan(20)
  expect(checks.filter((c) => c.status === 'pass' && (c.exchanges.length === 0 || c.exchanges.every((e) => e.request.headers.authorization !== 'Bearer $CONFORM_API_KEY'))).length).toBeGreaterThan(20)
  expect(run.files['junit.xml']).toMatch(/<testsuites [^>]*failures="0"/)
  // nothing is probed again with a key that would only be refused again (--confirm): no POST past the plan's
  expect(run.results?.summary.writes).toBeLessThanOrEqual(POST_PROBES.filter((p) => !p.followUp).length)
  for (const text of [run.stdout, run.stderr, ...Object.values(run.files)]) expect(text).not.toContain(wrongKey)
})

const answered = (id: string, authorization: string, status: number): Exchange => ({
  id,
  startedAt: new Date(0).toISOString(),
  durationMs: 1,
  request: { method: 'GET', url: 'http://127.0.0.1:9/v1/categories', headers: { authorization } },
  response: { status, headers: {}, body: '', bodyBytes: 0, bodyTruncated: false },
})

test('only when every answer to the key is 401 or 403, and there are enough of them', () => {
  const withKey = (id: string, status: number) => answered(id, 'Bearer $CONFORM_API_KEY', status)
  expect(keyRefused([withKey('a', 401), withKey('b', 403), withKey('c', 401)])?.message).toMatch(/all 3 requests sent with it were answered 401 or 403/)
  // a right key whose header never reached the service: PHP behind Apache's FastCGI or CGI, without CGIPassAuth;
  // a service behind Squid 5 as a reverse proxy whose cache_peer line lacks login=PASSTHRU (measured: every request 401)
  expect(keyRefused([withKey('a', 401), withKey('b', 401), withKey('c', 401)])?.message).toMatch(/; check the key \(wrong, expired, another environment's\?\), and that the Authorization header reaches the service \(Apache .*CGIPassAuth On; Squid .*login=PASSTHRU\)$/)
  // behind CloudFront, which drops Authorization unless the cache policy keys on it
  const viaCloudFront = (id: string) => ({ ...withKey(id, 401), response: { ...withKey(id, 401).response!, headers: { 'x-amz-cf-id': 'kL3z_Yq9aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3aB4cD5e==', via: '1.1 3f2e.cloudfront.net (CloudFront)' } } })
  const cloudFront = keyRefused([viaCloudFront('a'), viaCloudFront('b'), viaCloudFront('c')])?.message
  expect(cloudFront).toMatch(/reaches the service \(CloudFront answered \(X-Amz-Cf-Id\): it forwards Authorization to its origin only when the cache policy puts it in the cache key/)
  expect(cloudFront).not.toMatch(/CGIPassAuth/)
  // the same exchange as the evidence of many checks counts once
  expect(keyRefused([withKey('a', 401), withKey('a', 401), withKey('b', 401)])).toBeUndefined()
  expect(keyRefused([withKey('a', 401), withKey('b', 200), withKey('c', 401), withKey('d', 401)])).toBeUndefined()
  // requests without the key are answered 401 by every conforming server
  expect(keyRefused([answered('a', 'Bearer wrong', 401), answered('b', 'Basic x', 401), answered('c', 'Bearer wrong', 401)])).toBeUndefined()
})

test('writes refused: every POST sent with the key refused, enough of them, and a request of another method served with it', () => {
  const sent = (id: string, method: string, status: number, authorization = 'Bearer $CONFORM_API_KEY'): Exchange => ({ ...answered(id, authorization, status), request: { ...answered(id, authorization, status).request, method } })
  const posts = [sent('p1', 'POST', 403), sent('p2', 'POST', 401), sent('p3', 'POST', 403)]
  expect(writesRefused([...posts, sent('g', 'GET', 200)])).toBe(true)
  // a key refused everywhere is keyRefused's, not this
  expect(writesRefused([...posts, sent('g', 'GET', 401)])).toBe(false)
  // one create taken, or too few refused, or POSTs without the key
  expect(writesRefused([...posts, sent('p4', 'POST', 201), sent('g', 'GET', 200)])).toBe(false)
  expect(writesRefused([...posts.slice(0, 2), sent('g', 'GET', 200)])).toBe(false)
  expect(writesRefused([sent('p1', 'POST', 401, 'Bearer wrong'), sent('p2', 'POST', 401, 'Bearer wrong'), sent('p3', 'POST', 401, 'Bearer wrong'), sent('g', 'GET', 200)])).toBe(false)
})

test('a key refused on every POST, served on GET (a key without write permission): create-returns-201 fails once, the refusals that met the key are not verified, and are not probed again', async () => {
  const mutation = MUTATIONS.find((m) => m.name === 'create-refuses-the-valid-key')!
  const key = `right-${randomBytes(12).toString('hex')}`
  const server = await startReferenceServer({ apiKey: key, behaviour: mutation.behaviour })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl], { env: { CONFORM_API_KEY: key } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(1)
  expect((run.results?.rules ?? []).filter((r) => r.status === 'fail').map((r) => r.id)).toEqual(['create-returns-201'])
  const statusChecks = (run.results?.rules ?? []).filter((r) => r.id.startsWith('create-rejects-')).flatMap((r) => r.checks).filter((c) => / → 400/.test(c.name))
  expect(statusChecks.length).toBeGreaterThan(20)
  expect(statusChecks.filter((c) => c.status !== 'skip' || c.cause !== 'key-refused')).toEqual([])
  expect(statusChecks[0]?.skipReason).toMatch(/^not verified: answered 401, as all \d+ creates sent with the key were answered 401: the service refused the key on POST/)
  // and the one finding says what to do
  const failed = (run.results?.rules ?? []).find((r) => r.id === 'create-returns-201')!.checks.filter((c) => c.status === 'fail')
  // one cause, whatever else each create's check allows (a refusal for length, a short form)
  expect(new Set(failed.map((c) => c.failure?.message)).size).toBe(1)
  expect(failed[0]?.failure?.message).toMatch(/^POST answered 401, expected 201: the key may read but not create \(all of \d+ creates sent with the key were answered 401, its other requests were served\).* or --read-only/)
  // one create's failure alone is probed again (--confirm 2: two POSTs), to tell a refusal that lasts
  // from one of a moment: not every refusal too (231 POSTs before), nor every create (44 more before)
  const creates = POST_PROBES.filter((p) => !p.followUp).length
  expect(run.results?.summary.writes).toBeLessThan(2 * creates)
  expect(run.results?.summary.writesAgain).toBe(2)
  expect(failed.every((c) => c.recurrence?.kind !== 'intermittent')).toBe(true)
  expect(run.stdout).toContain('recurred: deterministic: failed 3 of 3 probes')
})

test.each([[[]], [['--confirm', '1']]])('creates refused for a moment (every POST of the run 403, its GETs served), then taken: the one probed again is served, so the others are probed again too, each intermittent (%j)', async (confirm: string[]) => {
  const key = `right-${randomBytes(12).toString('hex')}`
  let refusedPrefix: string | undefined
  const stored: unknown[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      const reply = (status: number, value: unknown) => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value))
      const error = (status: number) => reply(status, { code: `e${status}`, message: 'refused', status })
      if (req.headers.authorization !== `Bearer ${key}`) return error(401)
      if (req.url !== '/v1/categories') return error(404)
      if (req.method === 'GET') return reply(200, stored)
      // the run's own prefix refused, and a body that shows none plainly; the confirmation's (a fresh run id each) taken
      const prefix = /cf-[a-z0-9]+-/.exec(body)?.[0]
      refusedPrefix ??= prefix
      if (prefix === undefined || prefix === refusedPrefix) return error(403)
      let sent: { name?: unknown; description?: unknown }
      try {
        sent = JSON.parse(body) as typeof sent
      } catch {
        return error(400)
      }
      if (sent === null || typeof sent !== 'object' || Array.isArray(sent) || typeof sent.name !== 'string' || !['string', 'undefined'].includes(typeof sent.description)) return error(400)
      const record = { id: stored.length + 1, name: sent.name, ...(sent.description !== undefined ? { description: sent.description } : {}) }
      stored.push(record)
      reply(201, record)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) } as RunningServer)
  const run = await runConformInProcess(['--base-url', `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, ...confirm], { env: { CONFORM_API_KEY: key } })
  runs.push(run)
  const failed = (run.results?.rules ?? []).find((r) => r.id === 'create-returns-201')!.checks.filter((c) => c.status === 'fail')
  expect(failed.length).toBeGreaterThan(10)
  // the first alone was probed again, and the others stayed unconfirmed: "not needed"; with --confirm 1 too, each
  // its one attempt after the first's was served (the first's was the only attempt of the run's confirmation)
  expect(failed.map((c) => c.recurrence?.kind)).toEqual(failed.map(() => 'intermittent'))
})
