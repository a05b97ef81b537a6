/**
 * --confirm N (lib/runner/confirmation.ts): a failed check is probed again before the verdict, and
 * results.json says how often it failed. A fault on one request in fifteen is intermittent, a fault
 * on every request deterministic; a failure no second probe could reach (--max-writes used up,
 * --confirm 0) is unconfirmed. The exit code does not change, and a passing run sends nothing more.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, test } from 'vitest'
import type { RunResult } from '../../lib/result/run-result.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { conformingBehaviour, startReferenceServer, type RunningServer, type StoredCategory } from '../../lib/server/reference-server.ts'
import { errorReply, startCase } from '../../lib/server/server-cases.ts'
import { columnLimits } from '../../lib/server/variants/inputs.ts'
import { VALID_CREATES } from '../../suites/cases/valid-creates.ts'
import { runsWithKey } from '../helpers/run-conform.ts'
import { forwardTo } from '../hostile/hostile-servers.ts'

const apiKey = `key-${randomBytes(12).toString('hex')}`
const { serve, conform } = runsWithKey(apiKey)
const started = async (server: Promise<RunningServer>) => serve(await server)
const failedChecks = (results: RunResult | undefined) => (results?.rules ?? []).flatMap((r) => r.checks.filter((c) => c.status === 'fail').map((c) => ({ rule: r.id, ...c })))

/** One replica of fifteen fails: every 15th request the server answers is a 500 (a create then not stored). */
const fiveHundredOneInFifteen = () => {
  let requests = 0
  return startReferenceServer({
    apiKey,
    behaviour: {
      finish: (reply, request, store: StoredCategory[]) => {
        if (++requests % 15 !== 0) return reply
        if (request.operation === 'createCategory' && reply.status === 201) store.splice(store.indexOf(reply.body as StoredCategory), 1)
        return errorReply(500, 'internal', 'upstream replica failed')
      },
    },
  })
}

test('500 to one request in fifteen: exit 1, and every failed check is intermittent (a second probe was answered)', async () => {
  const run = await conform(await started(fiveHundredOneInFifteen()))
  expect(run.code, run.stdout).toBe(1)
  const failed = failedChecks(run.results)
  expect(failed.length).toBeGreaterThan(0)
  // a check whose two probes again both land on the failing fifteenth is deterministic by chance
  // (1 in 225 a check; CI met one among the run's failed checks once): at most one such, and
  // only one whose every attempt was that 500; every other failed check passed a probe again
  const byChance = failed.filter((c) => c.recurrence?.kind === 'deterministic')
  expect(byChance.length, byChance.map((c) => `${c.rule}: ${c.name}`).join('; ')).toBeLessThanOrEqual(1)
  for (const c of byChance) expect(c.exchanges.filter((e) => e.response?.status === 500).length).toBeGreaterThanOrEqual(c.recurrence!.attempts)
  for (const c of failed.filter((c) => !byChance.includes(c))) {
    expect(c.recurrence?.kind, `${c.rule}: ${c.name}`).toBe('intermittent')
    expect(c.recurrence!.failures).toBeLessThan(c.recurrence!.attempts)
  }
})

// the create that sends the id of the run's first record (valid-creates.ts create-sends-existing-id):
// its second probe sends that record's id again, and does not create the record once more (a write no
// failure was found on, which confirmation may not send): before, it was left unconfirmed ("not needed")
test("a 500 on the create that sends an earlier record's id, once: probed again with the run's record, and intermittent", async () => {
  let faulted = 0
  let described = 0
  const server = await started(startReferenceServer({
    apiKey,
    behaviour: {
      finish: (reply, request, store: StoredCategory[]) => {
        if (request.operation === 'createCategory' && /-Desc/.test(request.rawBody ?? '')) described++
        if (request.operation !== 'createCategory' || !/-own-id"/.test(request.rawBody ?? '') || faulted++ > 0) return reply
        if (reply.status === 201) store.splice(store.indexOf(reply.body as StoredCategory), 1)
        return errorReply(500, 'internal', 'upstream replica failed')
      },
    },
  }))
  const run = await conform(server)
  expect(run.code, run.stdout).toBe(1)
  const failed = failedChecks(run.results)
  expect(failed.length).toBeGreaterThan(0)
  for (const c of failed) expect(c.recurrence, `${c.rule}: ${c.name}`).toEqual({ attempts: 2, failures: 1, kind: 'intermittent' })
  // the run's first record was created once: its id sent again, not a record made for it
  expect(described).toBe(1)
})

// a TypeORM save that updates the record a create names was "unconfirmed: the run needed no request of
// it again" on every run (userplay8): each attempt sends the run's record's id again
test('a fault on the create that sends another record\'s id: deterministic, 3 of 3', async () => {
  const run = await conform(await started(startCase(MUTATIONS.find((m) => m.name === 'existing-id-saves-as-update')!, { apiKey })), '--confirm', '2')
  expect(run.code).toBe(1)
  const failed = failedChecks(run.results)
  expect(failed.map((c) => c.rule)).toContain('create-returns-category')
  for (const c of failed) expect(c.recurrence, `${c.rule}: ${c.name}`).toEqual({ attempts: 3, failures: 3, kind: 'deterministic' })
})

// with --repeat, each further round creates the first record again (its create-then-list round trip):
// the confirmation still sends the id of the run's own first record, not a later round's
test("--repeat 2 and a 500 on the create that sends an earlier record's id, once: the re-probe sends the run's first record's id", async () => {
  let faulted = 0
  const described: string[] = []
  const sentIds: string[] = []
  const server = await started(startReferenceServer({
    apiKey,
    behaviour: {
      finish: (reply, request, store: StoredCategory[]) => {
        if (request.operation === 'createCategory' && /-Desc/.test(request.rawBody ?? '') && reply.status === 201) described.push(String((reply.body as StoredCategory).id))
        if (request.operation !== 'createCategory' || !/-own-id"/.test(request.rawBody ?? '')) return reply
        sentIds.push(/^\{"id":(\d+)/.exec(request.rawBody ?? '')?.[1] ?? '')
        if (faulted++ > 0) return reply
        if (reply.status === 201) store.splice(store.indexOf(reply.body as StoredCategory), 1)
        return errorReply(500, 'internal', 'upstream replica failed')
      },
    },
  }))
  const run = await conform(server, '--repeat', '2')
  expect(run.code, run.stdout).toBe(1)
  expect(described.length).toBe(2)
  expect(sentIds).toEqual([described[0], described[0]])
})

const SHORT_FORMS = VALID_CREATES.filter((c) => c.shortForm).length
// a short form (valid-creates.ts shortForm) goes out once its long create and plain ASCII of the
// same sizes were refused for length: its second probe sends the short form again, not those two
// refused creates first (writes no failure was found on): before, it was left unconfirmed ("not needed")
test('a 500 on a short form, once, behind columns that refuse long values: probed again alone, and intermittent', async () => {
  let faulted = 0
  let refusedControls = 0
  const server = await started(startReferenceServer({
    apiKey,
    behaviour: {
      ...columnLimits(16, 32),
      finish: (reply, request, store: StoredCategory[]) => {
        if (request.operation === 'createCategory' && /-size/.test(request.rawBody ?? '')) refusedControls++
        // the escapes create's short form: its name holds quotes, a percent sign and brackets
        if (request.operation !== 'createCategory' || !/%\(\{/.test(request.rawBody ?? '') || faulted++ > 0) return reply
        if (reply.status === 201) store.splice(store.indexOf(reply.body as StoredCategory), 1)
        return errorReply(500, 'internal', 'upstream replica failed')
      },
    },
  }))
  const run = await conform(server)
  expect(run.code, run.stdout).toBe(1)
  const failed = failedChecks(run.results)
  expect(failed.map((c) => c.name).join('; ')).toMatch(/short enough/)
  for (const c of failed) expect(c.recurrence, `${c.rule}: ${c.name}`).toEqual({ attempts: 2, failures: 1, kind: 'intermittent' })
  // the re-probe sent the short form alone: each long create's plain ASCII control went once, in the run
  expect(refusedControls).toBe(SHORT_FORMS)
})

// review45: the long escapes create answered 500 in the run, then a 400 in its second probe, which only
// its plain ASCII control tells a length limit or not; that control, a write no failure was found on,
// was "not needed", and the failure stayed unconfirmed. It goes now, as one of the create's --confirm
// writes: the failed POST's confirmation still sends at most N more
describe('a 500 on a long create, once, then 400: its second probe sends the plain ASCII control as one of its writes', () => {
  /** Names past 64 characters refused with 400 (`asciiTaken`: those holding characters outside ASCII only); the long escapes create's first answer a 500. */
  const longEscapesFaultOnce = (asciiTaken: boolean) => {
    let faulted = 0
    const posts = { escapes: 0, controls: 0 }
    const limit = columnLimits(64, 100_000)
    const server = startReferenceServer({
      apiKey,
      behaviour: {
        validate: (body) => {
          const name = (body as { name?: unknown } | null)?.name
          return asciiTaken && typeof name === 'string' && /^[\x20-\x7e]*$/.test(name) ? conformingBehaviour.validate(body) : limit!.validate!(body)
        },
        finish: (reply, request, store: StoredCategory[]) => {
          if (request.operation !== 'createCategory') return reply
          if (/-size/.test(request.rawBody ?? '')) posts.controls++
          if (!/O'Brien/.test(request.rawBody ?? '')) return reply
          posts.escapes++
          if (faulted++ > 0) return reply
          if (reply.status === 201) store.splice(store.indexOf(reply.body as StoredCategory), 1)
          return errorReply(500, 'internal', 'upstream replica failed')
        },
      },
    })
    return { server, posts }
  }
  const escapesCheck = (results: RunResult | undefined) => {
    const failed = failedChecks(results)
    expect(failed.map((c) => `${c.rule}: ${c.failure?.code}`)).toEqual(['create-returns-201: SERVER_ERROR'])
    return failed[0]!
  }

  test('the control refused too (a length limit): intermittent, the create and its control sent once more each', async () => {
    const { server, posts } = longEscapesFaultOnce(false)
    const run = await conform(await started(server))
    expect(run.code, run.stdout).toBe(1)
    expect(escapesCheck(run.results).recurrence).toEqual({ attempts: 2, failures: 1, kind: 'intermittent' })
    // the run's control did not go (its create was answered 500): the confirmation's one did, and two POSTs in all for the failed one (--confirm 2)
    expect(posts).toEqual({ escapes: 2, controls: 2 }) // the run's one went for the padded name (258 characters), the escapes' in its confirmation
    expect(run.results!.summary.writesAgain).toBe(2)
  })

  test('the control taken (the characters refused): deterministic, judged in one attempt, whose two POSTs are the --confirm 2 the failed create may send', async () => {
    const { server, posts } = longEscapesFaultOnce(true)
    const run = await conform(await started(server))
    expect(run.code, run.stdout).toBe(1)
    expect(escapesCheck(run.results).recurrence).toEqual({ attempts: 2, failures: 2, kind: 'deterministic' })
    expect(posts.escapes).toBe(2)
    expect(run.results!.summary.writesAgain).toBe(2)
  })

  test('--confirm 1: the one write goes to the create, its control is kept back, and the failure is unconfirmed for the budget, said so', async () => {
    const { server } = longEscapesFaultOnce(false)
    const run = await conform(await started(server), '--confirm', '1')
    expect(run.code, run.stdout).toBe(1)
    expect(escapesCheck(run.results).recurrence).toEqual({ attempts: 1, failures: 1, kind: 'unconfirmed', cause: 'write-budget' })
    expect(run.results!.summary.writesAgain).toBe(1)
    const keptBack = run.results!.journal!.filter((e) => e.method === 'POST' && !e.onWire && /judged by a create of plain ASCII of its sizes/.test(JSON.stringify(e)))
    expect(keptBack.length).toBe(1)
  })
})

test('a fault on every request: every failed check deterministic, N + 1 attempts, each failed', async () => {
  const run = await conform(await started(startCase(MUTATIONS.find((m) => m.name === 'create-answers-200')!, { apiKey })), '--confirm', '2')
  expect(run.code).toBe(1)
  const failed = failedChecks(run.results)
  expect(failed.length).toBeGreaterThan(0)
  for (const c of failed) expect(c.recurrence).toEqual({ attempts: 3, failures: 3, kind: 'deterministic' })
})

test('without --max-writes the bound is the plan\'s POSTs and --confirm more for each failed one: the Sent line says which were which, and names no --max-writes', async () => {
  const server = await started(startCase(MUTATIONS.find((m) => m.name === 'create-answers-200')!, { apiKey }))
  const run = await conform(server)
  expect(run.code).toBe(1)
  const summary = run.results!.summary
  const plan = run.results!.options.maxWrites
  const posted = server.requests.filter((r) => r.method === 'POST').length
  expect(summary.writes).toBe(posted)
  expect(summary.writesAgain).toBeGreaterThan(0)
  // the promise of the first line: at most the plan, and 2 more for each failed POST
  expect(posted - summary.writesAgain!).toBeLessThanOrEqual(plan)
  expect(posted).toBeLessThanOrEqual(plan * 3)
  expect(run.stdout).toMatch(new RegExp(`^Writes: at most ${plan} POSTs, and at most 2 more for each failed POST to confirm it \\(--confirm 2\\), and at most ${plan} sent again after an answer lost that the list showed not stored: ${plan * 4} in all`, 'm'))
  const sent = `Sent: ${posted} POSTs sent, of at most ${plan} of the plan and 2 more for each failed POST to confirm it (--confirm 2): ${posted - summary.writesAgain!} of the plan, ${summary.writesAgain} sent again to confirm failures, answered `
  expect(run.stdout).toContain(sent)
  expect(run.stdout).not.toMatch(/--max-writes/)
  expect(run.results!.options.maxWritesGiven).toBeUndefined()
  // the confirmation's records carry prefixes of their own, and the Records line names them
  expect(run.stdout).toMatch(/^Records created: \d+ \(names(?:, and the descriptions of [^)]*? and \(after an "="\) the name of digits,)? start with cf-\w+- \(the run's checks: \d+ records?\), cf-\w+- \(confirmation attempt 1 \(--confirm\): \d+ records?\), cf-\w+- \(confirmation attempt 2 \(--confirm\): \d+ records?\); listed in the reports\)$/m)
})

test('--max-writes used up: the creates are unconfirmed and say so; --confirm 0: every failure unconfirmed, and the same requests as a run that confirms nothing', async () => {
  const server = await started(startCase(MUTATIONS.find((m) => m.name === 'create-answers-200')!, { apiKey }))
  const bounded = await conform(server, '--max-writes', '4')
  expect(bounded.code).toBe(1)
  const creates = failedChecks(bounded.results).filter((c) => c.rule === 'create-returns-201')
  expect(creates.length).toBeGreaterThan(0)
  for (const c of creates) expect(c.recurrence).toEqual({ attempts: 1, failures: 1, kind: 'unconfirmed', cause: 'write-budget' })
  expect(bounded.results?.summary.writes).toBe(4)
  expect(bounded.results?.journal?.some((e) => e.outcome === 'refused' && e.reason === 'write-budget' && /--max-writes 4 left no write/.test(e.detail ?? ''))).toBe(true)
  const off = await conform(server, '--confirm', '0')
  for (const c of failedChecks(off.results)) expect(c.recurrence?.kind).toBe('unconfirmed')
})

test('a passing run sends no request more than with --confirm 0', async () => {
  const server = await started(startReferenceServer({ apiKey }))
  const confirming = await conform(server)
  const off = await conform(server, '--confirm', '0')
  expect(confirming.code).toBe(0)
  expect(confirming.results?.summary.requests).toBe(off.results?.summary.requests)
  expect(failedChecks(confirming.results)).toEqual([])
})

/**
 * One replica of four slow: a load balancer in front of the reference server that holds the
 * second GET /pets/… it forwards for 10 s. Under --timeout 5000 that request has no answer, and
 * its operation sends no more (the stall rule) until the confirmation, which releases it: the
 * second probe is answered in time. The operation's other requests must be answered within
 * --timeout, or the run is no verdict
 * (lib/result/no-answer-in-time.ts): --timeout 500 against a hold of 1.5 s failed in npm test at
 * load 22, where the quickest of them took 2.4 s, and --timeout 3000 against 6 s at load 39 (3.3 s);
 * the second probe, sent with the confirmation's others, must be answered within it too.
 */
const slowReplicaBalancer = async (upstream: RunningServer): Promise<{ baseUrl: string; close(): Promise<void> }> => {
  const target = new URL(upstream.baseUrl)
  let pets = 0
  const balancer: Server = createServer((req, res) => {
    const slow = req.url?.includes('/pets/') === true && ++pets === 2
    setTimeout(() => {
      forwardTo(target, req, res)
    }, slow ? 10_000 : 0)
  })
  await new Promise<void>((resolve) => balancer.listen(0, '127.0.0.1', resolve))
  const { port } = balancer.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => (balancer.closeAllConnections(), balancer.close(() => resolve()))),
  }
}

test('a replica slower than --timeout on one request: its failures are probed again (the stall released for the confirmation), and intermittent', async () => {
  // they were left unconfirmed (the stall kept their second probes back): a transient pause reported as a failure never confirmed
  const upstream = await started(startReferenceServer({ apiKey }))
  const run = await conform(serve(await slowReplicaBalancer(upstream)), '--timeout', '5000')
  expect(run.code, run.stdout).toBe(1)
  const failed = failedChecks(run.results)
  expect(failed.length).toBeGreaterThan(0)
  for (const c of failed) {
    expect(c.failure?.code, c.name).toBe('NO_RESPONSE')
    // a check judged on another's request needs no probe of its own
    if (c.recurrence?.kind !== 'intermittent') expect(c.recurrence, c.name).toMatchObject({ kind: 'unconfirmed', cause: 'not-needed' })
  }
  expect(failed.some((c) => c.recurrence?.kind === 'intermittent')).toBe(true)
  expect(run.stdout).toMatch(/^✗ intermittent: 1 of \d+ requests got no answer \(TIMEOUT\)/m)
  expect(run.stdout).not.toContain('its operation had left a request unanswered past --timeout')
})

const TIMEOUT = 1_500

/**
 * A list that hangs from its third request on: the list operation stalls, and with --confirm 0 nothing
 * is probed again, so nothing of it is released: the ledger's last list read is not sent to wait out
 * --timeout on the hung list (it was, found by review11).
 */
test('--confirm 0: a stalled operation stays stalled, no request of it sent after the stall', async () => {
  const upstream = await started(startReferenceServer({ apiKey }))
  const target = new URL(upstream.baseUrl)
  let lists = 0
  let hungSince: number | undefined
  const lateLists: string[] = []
  const balancer: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.endsWith('/categories') === true && ++lists >= 3) {
      hungSince ??= Date.now()
      // past the stall (--timeout after the first hung request), with a second's margin for a loaded machine
      if (Date.now() - hungSince > TIMEOUT + 1_000) lateLists.push(req.url)
      return // never answered
    }
    forwardTo(target, req, res)
  })
  await new Promise<void>((resolve) => balancer.listen(0, '127.0.0.1', resolve))
  const { port } = balancer.address() as AddressInfo
  serve({ baseUrl: `http://127.0.0.1:${port}/v1`, close: () => new Promise<void>((resolve) => (balancer.closeAllConnections(), balancer.close(() => resolve()))) })
  const run = await conform({ baseUrl: `http://127.0.0.1:${port}/v1` }, '--confirm', '0', '--timeout', String(TIMEOUT))
  expect(run.code, run.stdout).not.toBe(0)
  expect(lateLists).toEqual([])
}, 60_000)
