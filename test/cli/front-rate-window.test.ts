/**
 * A front's rate rule that blocks for a while and then lets requests through again (Cloudflare's block
 * page for requests 100 to 140 of the run): rate limits are not shown (§8), so its block pages judge
 * nothing, and a conforming service behind it does not fail (it failed both auth rules and the create
 * rules, the block window judged as the service's own refusal). A block page that comes back every time
 * the same request is sent (a managed rule against markup in a body) is still the verdict (exit 1):
 * test/cli/front-answered.test.ts. lib/result/front-answered.ts.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, expect, test } from 'vitest'
import type { Exchange } from '../../lib/http/exchange.ts'
import { frontAnswered, type ConfirmedCheck } from '../../lib/result/front-answered.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startReferenceServer, type Behaviour, type Reply, type RunningServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'

const servers: RunningServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((r) => r.cleanup())
  await Promise.all(servers.map((s) => s.close()))
})

/** Cloudflare's block page, as a rate limiting rule with the Block action answers. */
const BLOCK: Reply = {
  status: 403,
  headers: { 'content-type': 'text/html; charset=UTF-8', server: 'cloudflare', 'cf-ray': '8e1f2a3b4c5d6e7f-FRA' },
  body: '<!DOCTYPE html><html lang="en-US"><head><title>Attention Required! | Cloudflare</title></head><body><h1>Sorry, you have been blocked</h1></body></html>',
}

/** Requests 100 to 140 answered with the block page (a create's record taken back: the service never saw it), the others as `finish` says. */
const blockingForAWhile = (finish: Behaviour['finish'] = (reply) => reply): Behaviour['finish'] => {
  let seen = 0
  return (reply, request, store) => {
    if (++seen < 100 || seen > 140) return finish(reply, request, store)
    if (request.method === 'POST' && reply.status === 201) store.pop()
    return BLOCK
  }
}

// told by the confirmation (a check that failed on a block page served when probed again), and without one (--confirm 0)
// by a request without a body blocked and served elsewhere in the run (a list read with the key)
test.each([[[]], [['--confirm', '0']]])("a rate rule of the front that blocks requests 100 to 140 and then serves again: its block pages judge nothing, no rule fails (exit 2, said as the front's) %j", async (confirm: string[]) => {
  const key = `right-${randomBytes(12).toString('hex')}`
  const server = await startReferenceServer({ apiKey: key, behaviour: { finish: blockingForAWhile() } })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl, ...confirm], { env: { CONFORM_API_KEY: key } })
  runs.push(run)
  const failed = (run.results?.rules ?? []).flatMap((r) => r.checks).filter((c) => c.status === 'fail')
  expect(failed.map((c) => `${c.name}: ${c.failure?.actual}`)).toEqual([])
  expect(run.code, run.stdout).toBe(2)
  expect(run.results?.problems[0]?.message).toMatch(/^Cloudflare blocked \d+ requests for a while/)
  expect(run.stdout).not.toContain('stopped accepting the key')
})

test("behind that rate rule, a managed rule that blocks a create's markup every time is still the verdict: FAIL, confirmed (exit 1)", async () => {
  const key = `right-${randomBytes(12).toString('hex')}`
  const markup = MUTATIONS.find((m) => m.name === 'markup-blocked')!
  const server = await startReferenceServer({ apiKey: key, behaviour: { finish: blockingForAWhile(markup.behaviour.finish) } })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl], { env: { CONFORM_API_KEY: key } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(1)
  const failed = (run.results?.rules ?? []).flatMap((r) => r.checks).filter((c) => c.status === 'fail')
  // the two creates whose names hold markup: create-json-escapes and create-padded-name
  expect(failed.map((c) => c.recurrence?.kind)).toEqual(['deterministic', 'deterministic'])
  expect(failed[0]?.failure?.actual).toContain("Cloudflare's block page")
  expect(run.results?.problems[0]?.message).toMatch(/^Cloudflare blocked \d+ requests for a while/)
})

const exchange = (id: string, method: string, body: string | undefined, page: boolean): Exchange => ({
  id,
  startedAt: new Date(0).toISOString(),
  durationMs: 1,
  request: { method, url: 'http://127.0.0.1:9/v1/categories', headers: { authorization: '$CONFORM_API_KEY', traceparent: `00-${id}` }, ...(body !== undefined ? { body } : {}) },
  response: page
    ? { status: 403, headers: BLOCK.headers as Record<string, string>, body: BLOCK.body as string, bodyBytes: 1, bodyTruncated: false }
    : { status: method === 'POST' ? 201 : 200, headers: {}, body: '[]', bodyBytes: 2, bodyTruncated: false },
})

test('a window is told by a block page served when probed again, or by a request without a body blocked once and served elsewhere; a body blocked every time is not one', () => {
  const judged = (checks: ConfirmedCheck[]) => frontAnswered(checks.flatMap((c) => c.exchanges), false, false, [], checks)
  const markup = (n: number): ConfirmedCheck => ({ exchanges: [exchange(`m${n}`, 'POST', '{"name":"<b>x</b>"}', true), exchange(`m${n}again`, 'POST', '{"name":"<b>x</b>"}', true)], recurrence: { kind: 'deterministic' } })
  const served = exchange('s', 'GET', undefined, false)
  // a managed rule against markup: no window, before or after the confirmation, whatever else was served
  expect(judged([markup(1), markup(2), markup(3), { exchanges: [served] }])).toBeUndefined()
  expect(frontAnswered([...[markup(1), markup(2)].flatMap((c) => c.exchanges), served], false)).toBeUndefined()
  // a check that failed on a block page and passed when probed again
  const again: ConfirmedCheck = { exchanges: [exchange('a', 'GET', undefined, true), exchange('a2', 'GET', '', false)], recurrence: { kind: 'intermittent' } }
  const window = judged([markup(1), markup(2), again])
  expect(window?.problem.message).toMatch(/^Cloudflare blocked 5 requests for a while \(403 with its block page\)/)
  // the markup's pages, blocked every time, are still judged; the window's are the front's
  expect(window?.answered(markup(1).exchanges[0]!)).toBe(false)
  expect(window?.answered(again.exchanges[0]!)).toBe(true)
  // without a confirmation: the list read with the key blocked once and served elsewhere (its trace context its own)
  const listBlocked = (id: string): ConfirmedCheck => ({ exchanges: [exchange(id, 'GET', undefined, true)], recurrence: { kind: 'unconfirmed' } })
  expect(judged([listBlocked('l1'), listBlocked('l2'), listBlocked('l3'), { exchanges: [served] }])?.problem.message).toMatch(/^Cloudflare blocked 3 requests for a while/)
  expect(judged([listBlocked('l1'), listBlocked('l2'), listBlocked('l3'), { exchanges: [exchange('o', 'POST', '{"name":"y"}', false)] }])).toBeUndefined()
  // a create blocked once, another create served: a body rule may block one body and not another
  const createBlocked = (id: string): ConfirmedCheck => ({ exchanges: [exchange(id, 'POST', '{"name":"x"}', true)], recurrence: { kind: 'unconfirmed' } })
  expect(judged([createBlocked('c1'), createBlocked('c2'), createBlocked('c3'), { exchanges: [exchange('c4', 'POST', '{"name":"x"}', false)] }])).toBeUndefined()
})
