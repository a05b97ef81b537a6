/**
 * A key that stops working during the run (revoked, rotated, a token that expired): every request
 * with it is answered 401 from some point on, operations it was served on before included. No
 * verdict on the service: INCOMPLETE (exit 2), no rule failed, and the reports say from which
 * request on. A service that refuses the valid key on one operation from the start still fails
 * that rule (the mutation create-refuses-the-valid-key in the kill matrix; here, in-process). A key
 * refused on one URL alone (a cache in front that keeps the URL's 401) is served when asked about on
 * another operation: its refusals there are the service's failures. So is a key refused on POSTs alone
 * (body-parser's 403 to a body that is not UTF-8): asked about with a GET it was served on.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, expect, test } from 'vitest'
import type { Exchange } from '../../lib/http/exchange.ts'
import type { JournalEntry } from '../../lib/http/journal.ts'
import { KEY_REVOKED, keyRevoked } from '../../lib/result/key-revoked.ts'
import { startReferenceServer, type RunningServer, type StoredCategory } from '../../lib/server/reference-server.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { errorReply, startCase } from '../../lib/server/server-cases.ts'
import { failedRules, runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'

const servers: RunningServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((r) => r.cleanup())
  await Promise.all(servers.map((s) => s.close()))
})

/** A conforming server that revokes the key after its `after`th request: from then on the key is answered 401, and a create is not stored. */
async function revokesKeyAfter(after: number, apiKey: string): Promise<RunningServer> {
  let requests = 0
  const server = await startReferenceServer({
    apiKey,
    behaviour: {
      finish: (reply, request, store: StoredCategory[]) => {
        if (++requests <= after || request.authorization !== `Bearer ${apiKey}`) return reply
        if (request.operation === 'createCategory' && reply.status === 201) store.splice(store.indexOf(reply.body as StoredCategory), 1)
        return errorReply(401, 'unauthorized', 'The API key has been revoked.', { 'www-authenticate': 'Bearer error="invalid_token"' })
      },
    },
  })
  servers.push(server)
  return server
}

test('a key revoked after the server\'s 40th request: INCOMPLETE (exit 2), no rule failed, and every report says from which request on', async () => {
  const apiKey = `key-${randomBytes(12).toString('hex')}`
  const server = await revokesKeyAfter(40, apiKey)
  const run = await runConformInProcess(['--base-url', server.baseUrl, '--seed', '1'], { env: { CONFORM_API_KEY: apiKey } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(2)
  expect(failedRules(run)).toEqual([])
  expect(run.results?.verdict).toBe('incomplete')
  expect(run.results?.problems[0]?.kind).toBe('key-revoked')
  const problem = run.results?.problems[0]?.message ?? ''
  expect(problem).toMatch(new RegExp(`^${KEY_REVOKED}: from request \\d+ on \\(requests numbered in the order their answers came\\), all \\d+ requests sent with it were answered 401, including (GET|POST) /v1/categories, which it had served with the same key`))
  // the server's 41st request, or about: requests are numbered in the order their answers came
  const from = Number(/from request (\d+) on/.exec(problem)?.[1])
  expect(from).toBeGreaterThan(35)
  expect(from).toBeLessThan(52)
  expect(run.stdout).toContain(`from request ${from} on`)
  expect(run.files['summary.md']).toContain(`from request ${from} on`)
  for (const text of [run.stdout, run.stderr, ...Object.values(run.files)]) expect(text).not.toContain(apiKey)
})

const withKey = (id: string, method: string, status: number, at: number): Exchange => ({
  id,
  startedAt: new Date(at).toISOString(),
  durationMs: 1,
  request: { method, url: 'http://127.0.0.1:9/v1/categories', headers: { authorization: 'Bearer $CONFORM_API_KEY' } },
  response: { status, headers: {}, body: '', bodyBytes: 0, bodyTruncated: false },
})
const journalOf = (exchanges: Exchange[]): JournalEntry[] =>
  exchanges.map((e) => ({ id: e.id, at: e.startedAt, method: e.request.method, url: e.request.url, onWire: true, outcome: 'answered', status: e.response?.status }))

test('only a refusal that ends the run and reaches an operation served before: one operation refused from the start is no revoked key', () => {
  const revoked = [withKey('a', 'GET', 200, 1), withKey('b', 'POST', 201, 2), withKey('c', 'POST', 401, 3), withKey('d', 'POST', 401, 4), withKey('e', 'GET', 401, 5)]
  expect(keyRevoked(revoked, journalOf(revoked))?.problem.message).toMatch(/from request 3 on \(requests numbered in the order their answers came\), all 3 requests sent with it were answered 401, including POST \/v1\/categories, which it had served with the same key \(request 2 of the run, 201\)/)
  // POST refused from the start, the list served to the end
  const oneOperation = [withKey('a', 'GET', 200, 1), withKey('b', 'POST', 401, 2), withKey('c', 'POST', 401, 3), withKey('d', 'POST', 401, 4), withKey('e', 'GET', 200, 5)]
  expect(keyRevoked(oneOperation, journalOf(oneOperation))).toBeUndefined()
  // refused from the start on every operation: the key was never accepted (key-refused.ts says so)
  const never = [withKey('a', 'GET', 401, 1), withKey('b', 'POST', 401, 2), withKey('c', 'GET', 401, 3)]
  expect(keyRevoked(never, journalOf(never))).toBeUndefined()
  // POSTs refused to the end, but no operation that was served before: not enough to blame the key
  const postsOnly = [withKey('a', 'GET', 200, 1), withKey('b', 'POST', 401, 2), withKey('c', 'POST', 401, 3), withKey('d', 'POST', 401, 4)]
  expect(keyRevoked(postsOnly, journalOf(postsOnly))).toBeUndefined()
})

test('requests without the key refused 403 from the same moment on, none before: a gateway that blocks the client (mod_evasive), said so with --rate-limit; a plain revocation is not', () => {
  const withoutKey = (id: string, status: number, at: number): Exchange => ({ ...withKey(id, 'GET', status, at), request: { method: 'GET', url: 'http://127.0.0.1:9/v1/categories', headers: {} } })
  // mod_evasive in front, measured: the key served, then every request of the address answered 403 for 10 s
  const blocked = [withKey('a', 'GET', 200, 1), withoutKey('x', 401, 2), withKey('b', 'POST', 201, 3), withKey('c', 'POST', 403, 4), withoutKey('y', 403, 5), withKey('d', 'GET', 403, 6), withKey('e', 'POST', 403, 7), withoutKey('z', 403, 8), withoutKey('w', 403, 9)]
  const message = keyRevoked(blocked, journalOf(blocked))?.problem.message ?? ''
  expect(message).toMatch(/answered 403, including (GET|POST) \/v1\/categories, which it had served with the same key \([^)]*\), and so were the last 3 sent without it or with another key: a gateway that blocks this client for a while \(mod_evasive, a WAF's rate-based rule: 403 where 429 is meant; --rate-limit under its limit/)
  // a key revoked: the requests without it are answered 401 as before, and the words say the key
  const revoked = [withKey('a', 'GET', 200, 1), withoutKey('x', 401, 2), withKey('b', 'POST', 201, 3), withKey('c', 'POST', 401, 4), withoutKey('y', 401, 5), withKey('d', 'GET', 401, 6), withKey('e', 'POST', 401, 7)]
  expect(keyRevoked(revoked, journalOf(revoked))?.problem.message).toMatch(/; the key was revoked, rotated or expired, or the service refuses a valid key under load \(a limiter that answers 401 where 429 is meant\)/)
  // measured too: every request without the key came after the block began
  const allInTheBlock = blocked.filter((e) => e.id !== 'x')
  expect(keyRevoked(allInTheBlock, journalOf(allInTheBlock))?.problem.message).toMatch(/and so were the last 3 sent without it/)
  // a service that answers 403 to a missing key from the start (and then loses the key): no block to speak of
  const always403 = [withKey('a', 'GET', 200, 1), withoutKey('x', 403, 2), withKey('b', 'POST', 201, 3), withKey('c', 'POST', 403, 4), withoutKey('y', 403, 5), withKey('d', 'GET', 403, 6), withKey('e', 'POST', 403, 7)]
  expect(keyRevoked(always403, journalOf(always403))?.problem.message).toMatch(/a limiter that answers 403 where 429 is meant/)
})

test('a lockout tripped by the refusals themselves (a brute-force guard: 403 to every request once enough were refused): the requests without the key are blocked first, and the words say a block', () => {
  const withoutKey = (id: string, status: number, at: number): Exchange => ({ ...withKey(id, 'GET', status, at), request: { method: 'GET', url: 'http://127.0.0.1:9/v1/store/orders', headers: {} } })
  // stackhunt9, measured behind a front that answers 403 to all for a while after 30 refusals: its words were a revoked key's
  const lockout = [withKey('a', 'GET', 200, 1), withoutKey('x', 401, 2), withKey('b', 'POST', 201, 3), withoutKey('y', 403, 4), withoutKey('z', 403, 5), withoutKey('w', 403, 6), withKey('c', 'POST', 403, 7), withKey('d', 'GET', 403, 8), withKey('e', 'GET', 403, 9)]
  const revoked = keyRevoked(lockout, journalOf(lockout))
  expect(revoked?.problem.message).toMatch(/answered 403, including (GET|POST) \/v1\/categories, which it had served with the same key \([^)]*\), and so were the last 3 sent without it or with another key: a gateway that blocks this client/)
  // the 403s without the key stay judged (§5.3 asks 401 of them), as mod_evasive's do
  expect([...(revoked?.refused ?? [])].sort()).toEqual(['c', 'd', 'e'])
  // the key served after the 403s without it began: those are the service's answers to them, and stay judged
  const servedSince = [withKey('a', 'GET', 200, 1), withoutKey('x', 401, 2), withoutKey('y', 403, 4), withKey('b', 'POST', 201, 4.5), withoutKey('z', 403, 5), withoutKey('w', 403, 6), withKey('c', 'POST', 403, 7), withKey('d', 'GET', 403, 8), withKey('e', 'GET', 403, 9)]
  const notBlocked = keyRevoked(servedSince, journalOf(servedSince))
  expect(notBlocked?.problem.message).toMatch(/a limiter that answers 403 where 429 is meant/)
  expect([...(notBlocked?.refused ?? [])].sort()).toEqual(['c', 'd', 'e'])
})

test('a key revoked where the service answers 403 to a wrong key always: no block of the client, whether the key is then answered 401 or 403 (review39)', () => {
  const keyless = (id: string, status: number, at: number): Exchange => ({ ...withKey(id, 'GET', status, at), request: { method: 'GET', url: 'http://127.0.0.1:9/v1/categories', headers: {} } })
  const wrongKey = (id: string, status: number, at: number): Exchange => ({ ...withKey(id, 'GET', status, at), request: { method: 'GET', url: 'http://127.0.0.1:9/v1/categories', headers: { authorization: 'Bearer wrong' } } })
  const revokedWords = /; the key was revoked, rotated or expired, or the service refuses a valid key under load/
  // the key answered 401 from a point on, the wrong keys 403 at the end of the run: were "every request was answered 403, with the key or without"
  const wrongKeysLast = [withKey('a', 'GET', 200, 1), keyless('x', 401, 2), withKey('b', 'POST', 201, 3), withKey('c', 'POST', 401, 4), withKey('d', 'GET', 401, 5), withKey('e', 'GET', 401, 6), wrongKey('y', 403, 7), wrongKey('z', 403, 8), wrongKey('w', 403, 9)]
  const last = keyRevoked(wrongKeysLast, journalOf(wrongKeysLast))
  expect(last?.problem.message).toMatch(revokedWords)
  expect(last?.skipReason).toMatch(/the key was refused from/)
  // the key revoked right after the wrong keys' 403s, answered 401 or 403: the wrong keys were never answered otherwise
  for (const status of [401, 403]) {
    const wrongKeysFirst = [withKey('a', 'GET', 200, 1), keyless('x', 401, 2), wrongKey('y', 403, 3), wrongKey('z', 403, 4), wrongKey('w', 403, 5), withKey('c', 'POST', status, 6), withKey('d', 'GET', status, 7), withKey('e', 'GET', status, 8)]
    const first = keyRevoked(wrongKeysFirst, journalOf(wrongKeysFirst))
    expect(first?.problem.message).toMatch(revokedWords)
    expect([...(first?.refused ?? [])].sort()).toEqual(['c', 'd', 'e'])
  }
})

test('a whole run behind a lockout that answers 403 to every request once 30 were refused 401, to the end of the run: the key\'s refusals not verified and worded as a block; the 403s without a key fail the auth rules alone', async () => {
  const apiKey = `key-${randomBytes(12).toString('hex')}`
  let refusals = 0
  const server = await startReferenceServer({
    apiKey,
    behaviour: {
      finish: (reply, request, store: StoredCategory[]) => {
        if (refusals < 30) {
          if (reply.status === 401) refusals++
          return reply
        }
        if (request.operation === 'createCategory' && reply.status === 201) store.splice(store.indexOf(reply.body as StoredCategory), 1)
        return errorReply(403, 'locked_out', 'Too many failed authentications; try again later.')
      },
    },
  })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl, '--seed', '1'], { env: { CONFORM_API_KEY: apiKey } })
  runs.push(run)
  expect(run.results?.problems[0]?.message, run.stdout).toMatch(/and so were the last \d+ sent without it or with another key: a gateway that blocks this client/)
  for (const rule of failedRules(run)) expect(['auth-missing-key-401', 'auth-invalid-key-401']).toContain(rule)
})

test('a key refused on the list alone once a cache in front kept its 401: asked about on another operation, served, so the refusals are failures of list-returns-200, not a revoked key', async () => {
  const apiKey = `key-${randomBytes(12).toString('hex')}`
  const server = await startCase(MUTATIONS.find((m) => m.name === 'url-cache-keeps-401')!, { apiKey })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl, '--seed', '1'], { env: { CONFORM_API_KEY: apiKey } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(1)
  expect(run.results?.problems.map((p) => p.kind)).not.toContain('key-revoked')
  expect(failedRules(run)).toEqual(['list-returns-200'])
  const failed = run.results!.rules.find((r) => r.id === 'list-returns-200')!.checks.filter((c) => c.status === 'fail')
  // the other operation, asked about with the key, stands beside the refusals as evidence
  for (const check of failed) expect(check.exchanges.some((e) => e.keyRecheck === true && new URL(e.request.url).pathname === '/v1/store/orders' && e.response?.status === 200)).toBe(true)
  for (const text of [run.stdout, run.stderr, ...Object.values(run.files)]) expect(text).not.toContain(apiKey)
})

test('a key refused on POSTs alone, with bodies that are not UTF-8 (body-parser\'s 403), which confirmation sends last: asked about with a GET it was served on, so the refusals are failures of create-rejects-invalid-json, not a revoked key', async () => {
  const apiKey = `key-${randomBytes(12).toString('hex')}`
  const server = await startCase(MUTATIONS.find((m) => m.name === 'not-utf8-answers-403')!, { apiKey })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl, '--seed', '1'], { env: { CONFORM_API_KEY: apiKey } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(1)
  expect(run.results?.problems.map((p) => p.kind)).not.toContain('key-revoked')
  expect(failedRules(run)).toEqual(['create-rejects-invalid-json'])
  const failed = run.results!.rules.find((r) => r.id === 'create-rejects-invalid-json')!.checks.filter((c) => c.status === 'fail')
  expect(failed.map((c) => c.failure?.message)).toEqual([expect.stringMatching(/^POST answered 403, expected 400: a 403 to a body sent with the valid key is what Express's body-parser answers/), expect.anything()])
  for (const check of failed) expect(check.exchanges.some((e) => e.keyRecheck === true && e.request.method === 'GET' && e.response?.status === 200)).toBe(true)
})
