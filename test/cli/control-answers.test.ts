/**
 * The plain-ASCII control of a long create refused 400 (suites/categories/accepted-sizes.ts
 * expectControlTells), answered once with a status that is no verdict on the name (review51 of
 * verdicts12): a limiter's 429 or a pause's 503 is waited out and sent again, a 408 closing a
 * kept-alive connection is the keep-alive race, so the run passes; a gateway's 502 once is a
 * failure of create-returns-201, as any valid create answered 502 is, and its second probe makes
 * it intermittent, never deterministic. The short form it then does not send says why, not that
 * plain ASCII "was accepted".
 */
import { randomBytes } from 'node:crypto'
import { expect, test } from 'vitest'
import type { RunResult } from '../../lib/result/run-result.ts'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { errorReply } from '../../lib/server/server-cases.ts'
import { columnLimits } from '../../lib/server/variants/inputs.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const apiKey = `key-${randomBytes(12).toString('hex')}`
const { serve, conform } = runsWithKey(apiKey)
const started = async (server: Promise<RunningServer>) => serve(await server)
const failedChecks = (results: RunResult | undefined) => (results?.rules ?? []).flatMap((r) => r.checks.filter((c) => c.status === 'fail').map((c) => ({ rule: r.id, ...c })))

/** Names past 64 characters refused 400; the first plain-ASCII control (its name holds `-size`) answered `status` instead. */
const controlAnsweredOnce = (status: number, headers: Record<string, string>) => {
  let controls = 0
  const limit = columnLimits(64, 100_000)!
  return startReferenceServer({
    apiKey,
    behaviour: {
      validate: limit.validate!,
      finish: (reply, request) => {
        if (request.operation !== 'createCategory' || !/-size/.test(request.rawBody ?? '') || controls++ > 0) return reply
        return errorReply(status, 'front', 'answered by the front', headers)
      },
    },
  })
}

for (const [status, headers] of [[429, { 'retry-after': '1' }], [503, { 'retry-after': '1' }], [408, { connection: 'close' }]] as const) {
  test(`a control answered ${status} (${JSON.stringify(headers)}) once: waited out or sent again, no failure`, async () => {
    const run = await conform(await started(controlAnsweredOnce(status, headers)))
    expect(run.code, run.stdout).toBe(0)
    expect(failedChecks(run.results)).toEqual([])
  })
}

test("a control answered a gateway's 502 once: create-returns-201 fails, intermittent; the short form not sent says the control's 502, not that it was accepted", async () => {
  const run = await conform(await started(controlAnsweredOnce(502, {})))
  expect(run.code, run.stdout).toBe(1)
  const failed = failedChecks(run.results)
  expect(failed.map((c) => [c.rule, c.failure?.code, c.recurrence?.kind])).toEqual([['create-returns-201', 'SERVER_ERROR', 'intermittent']])
  const shortForms = (run.results?.rules ?? []).flatMap((r) => r.checks).filter((c) => c.status === 'skip' && /short enough/.test(c.name) && /double and single quotes/.test(c.name))
  // one skip for each rule the short form serves, each saying so
  expect(shortForms.length).toBeGreaterThan(0)
  expect([...new Set(shortForms.map((c) => c.skipReason))]).toEqual(['not needed: plain ASCII of the same sizes was answered 502, which does not show the long values refused for length'])
})

test('a control answered 200 with its record (review51): create-returns-201 fails saying 200 instead of 201, and that those sizes were taken, not that the refusal "is not shown to be a length limit"', async () => {
  // long names not plain ASCII refused 400 (their characters, not their lengths); the plain-ASCII controls taken, answered 200
  const server = startReferenceServer({
    apiKey,
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || reply.status !== 201) return reply
        const name = (request.body as { name?: unknown }).name
        if (typeof name === 'string' && name.length > 64 && /[^\x20-\x7e]/.test(name)) return (store.pop(), errorReply(400, 'invalid', 'name holds characters it may not'))
        return /-size/.test(request.rawBody ?? '') ? { ...reply, status: 200 } : reply
      },
    },
  })
  const run = await conform(await started(server))
  expect(run.code, run.stdout).toBe(1)
  const controls = failedChecks(run.results).filter((c) => c.rule === 'create-returns-201' && /to plain ASCII of the sizes/.test(c.failure?.message ?? ''))
  expect(controls.length).toBeGreaterThan(0)
  for (const c of controls) {
    expect(c.failure?.message).toMatch(/^POST answered 200 to plain ASCII of the sizes of values answered 400, expected 201: a create taken is answered 201 \(§4\.2 rule 2\) \(.*\); and these sizes taken, the 400 to the values was not for their lengths$/)
    expect(c.failure?.message).not.toMatch(/not shown to be a length limit/)
  }
})
