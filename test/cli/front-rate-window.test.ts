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

test("a rate rule of the front that blocks requests 100 to 140 and then serves again: its block pages judge nothing, no rule fails (exit 2, said as the front's)", async () => {
  const key = `right-${randomBytes(12).toString('hex')}`
  const server = await startReferenceServer({ apiKey: key, behaviour: { finish: blockingForAWhile() } })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl], { env: { CONFORM_API_KEY: key } })
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
  expect(failed.map((c) => c.recurrence?.kind)).toEqual(['deterministic'])
  expect(failed[0]?.failure?.actual).toContain("Cloudflare's block page")
  expect(run.results?.problems[0]?.message).toMatch(/^Cloudflare blocked \d+ requests for a while/)
})
