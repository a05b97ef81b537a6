/**
 * The runner of a conformance run (lib/runner/check-runner.ts), on suites built here: each way a
 * check can end becomes the right result, a run cut short shows its unfinished checks as not
 * verified with the evidence they had, and runs in one process, at once, share nothing.
 */
import { describe, expect, test } from 'vitest'
import { fail, NotApplicable } from '../../lib/checks/failure.ts'
import type { HttpResult } from '../../lib/http/client.ts'
import type { Exchange } from '../../lib/http/exchange.ts'
import { startChecks } from '../../lib/runner/check-runner.ts'
import { check, collectChecks, Gate, once, suite } from '../../lib/suite-kit/check.ts'
import { newRunScope, thisRun, type RunContext } from '../../lib/suite-kit/run-context.ts'

function contextOf(runId: string): RunContext {
  return {
    baseUrl: 'http://127.0.0.1:9/v1',
    apiKey: 'test-key-not-secret',
    runId,
    timeoutMs: 1_000,
    maxResponseBytes: 1_000,
    readOnly: true,
    rules: [],
    seed: 1,
    listLagMs: 0,
    concurrency: 4,
    traceId: '0'.repeat(32),
    identity: { version: '0', runId },
    extraHeaders: [],
  }
}

function resultOf(id: string, status = 200): HttpResult {
  const exchange: Exchange = {
    id,
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
    request: { method: 'GET', url: `http://127.0.0.1:9/v1/${id}`, headers: {} },
    response: { status, headers: {}, body: '[]', bodyBytes: 2, bodyTruncated: false },
  }
  return { exchange, text: '[]' }
}

describe('each way a check ends', () => {
  test('pass, fail with its code and evidence, not applicable, an advisory note, and an error of the suite itself', async () => {
    const probe = once(async () => resultOf('probe'))
    const suites = [
      suite('ends', () => {
        check('list-returns-200', 'passes', async (t) => void (await t.use(probe)))
        check('list-returns-200', 'fails', async (t) => {
          const result = await t.use(probe)
          fail({ code: 'UNEXPECTED_STATUS', message: 'answered 200, expected 201', expected: '201', actual: '200' }, result.exchange, resultOf('more').exchange)
        })
        check('list-returns-200', 'does not apply', async () => {
          throw new NotApplicable('not verified: nothing to judge')
        })
        check('advisory-identity-encoding', 'notes', async (t) => t.note('a note'))
        check('list-returns-200', 'notes on a must rule', async (t) => t.note('not allowed'))
        check('list-returns-200', 'throws', async () => {
          throw new TypeError('a fault of the suite')
        })
      }),
    ]
    const running = startChecks(suites, newRunScope(contextOf('r1')), [])
    await running.done
    const byName = Object.fromEntries(running.outcomes().map((o) => [o.result.name, o]))
    expect(byName.passes.result).toMatchObject({ status: 'pass', notes: [], reproduce: [] })
    expect(byName.passes.result.exchanges.map((e) => e.id)).toEqual(['probe'])
    expect(byName.fails.result).toMatchObject({ status: 'fail', failure: { code: 'UNEXPECTED_STATUS', expected: '201', actual: '200' } })
    // the probe once, however often it was also named as evidence
    expect(byName.fails.result.exchanges.map((e) => e.id)).toEqual(['probe', 'more'])
    expect(byName.fails.result.reproduce).toHaveLength(2)
    expect(byName['does not apply'].result).toMatchObject({ status: 'skip', cause: 'not-applicable', skipReason: 'not verified: nothing to judge' })
    expect(byName.notes).toMatchObject({ ruleId: 'advisory-identity-encoding', result: { status: 'warn', notes: ['a note'] } })
    expect(byName['notes on a must rule'].result).toMatchObject({ status: 'fail', failure: { code: 'CHECK_ERROR' } })
    expect(byName.throws.result).toMatchObject({ status: 'fail', failure: { code: 'CHECK_ERROR', message: 'a fault of the suite' } })
  })

  test('--rule: only the checks of the selected rules run, and a probe no selected check needs is never made', async () => {
    let made = 0
    const probe = once(async () => (made++, resultOf('probe')))
    const suites = [
      suite('selection', () => {
        check('advisory-identity-encoding', 'needs the probe', async (t) => void (await t.use(probe)))
        check('list-returns-200', 'needs nothing', async () => undefined)
      }),
    ]
    const running = startChecks(suites, newRunScope(contextOf('r1')), ['list-returns-200'])
    await running.done
    expect(running.outcomes().map((o) => o.result.name)).toEqual(['needs nothing'])
    expect(made).toBe(0)
  })
})

test('a run cut short: an unfinished check is not verified, with the evidence it had gathered', async () => {
  const never = new Promise<HttpResult>(() => undefined)
  const suites = [
    suite('cut', () => {
      check('list-returns-200', 'waits for ever', async (t) => {
        t.evidence(resultOf('first'))
        await never
      })
      check('list-returns-200', 'finished', async () => undefined)
    }),
  ]
  const running = startChecks(suites, newRunScope(contextOf('r1')), [])
  await new Promise((resolve) => setTimeout(resolve, 10))
  const [unfinished, finished] = running.outcomes()
  expect(unfinished.result).toMatchObject({ status: 'skip', cause: 'unfinished', skipReason: expect.stringContaining('had not finished when the run was cut short') })
  expect(unfinished.result.exchanges.map((e) => e.id)).toEqual(['first'])
  expect(finished.result.status).toBe('pass')
})

test("past the run's deadline, a check resumed by an answer starts no work: use(), evidence() and stillRunning() end it unfinished, evidence kept", async () => {
  let now = 0
  const run = { signal: new AbortController().signal, msLeft: () => 1_000 - now }
  const answered = once(async () => {
    // the answer comes once the deadline has passed, before its timer has fired (the timer waits for what runs)
    await new Promise((resolve) => setTimeout(resolve, 5))
    now = 1_000
    return resultOf('late')
  })
  const worked: string[] = []
  const suites = [
    suite('late', () => {
      check('list-returns-200', 'uses it', async (t) => void (await t.use(answered), worked.push('use')))
      check('list-returns-200', 'names it as evidence', async (t) => void (t.evidence(await answered()), worked.push('evidence')))
      check('list-returns-200', 'asks', async (t) => void (await answered(), t.stillRunning(), worked.push('asks')))
      check('list-returns-200', 'ended before it', async (t) => t.stillRunning())
    }),
  ]
  const running = startChecks(suites, newRunScope({ ...contextOf('r1'), run }), [])
  await running.done
  expect(worked).toEqual([])
  const [used, evidence, asks, before] = running.outcomes().map((o) => o.result)
  for (const result of [used, evidence, asks]) expect(result).toMatchObject({ status: 'skip', cause: 'unfinished', skipReason: expect.stringContaining('had not finished when the run was cut short') })
  expect(used.exchanges.map((e) => e.id)).toEqual(['late'])
  expect(evidence.exchanges.map((e) => e.id)).toEqual(['late'])
  expect(before.status).toBe('pass')
})

test('an interrupt is no deadline: the checks it cut judge what they have, and only stillRunning() ends them', async () => {
  const interrupted = new AbortController()
  interrupted.abort()
  const run = { signal: interrupted.signal, msLeft: () => 60_000 }
  const probe = once(async () => resultOf('cut'))
  const suites = [
    suite('interrupted', () => {
      check('list-returns-200', 'uses it', async (t) => void (await t.use(probe)))
      check('list-returns-200', 'asks', async (t) => t.stillRunning())
    }),
  ]
  const running = startChecks(suites, newRunScope({ ...contextOf('r1'), run }), [])
  await running.done
  const [used, asks] = running.outcomes().map((o) => o.result)
  expect(used.status).toBe('pass')
  expect(asks).toMatchObject({ status: 'skip', cause: 'unfinished' })
})

test('two runs at once in one process: each check sees its own run, and a probe declared in a suite runs once per run', async () => {
  const made: string[] = []
  const suites = [
    suite('scoped', () => {
      // taken where the suite is declared, kept by what it declares: one probe per run
      const run = thisRun()
      const probe = once(async () => {
        await new Promise((resolve) => setTimeout(resolve, 5))
        made.push(run.context.runId)
        return resultOf(run.context.runId)
      })
      for (let i = 0; i < 3; i++) {
        check('list-returns-200', `sees its run ${i}`, async (t) => {
          const result = await t.use(probe)
          if (result.exchange.id !== run.context.runId) fail({ code: 'CHECK_ERROR', message: 'another run', expected: run.context.runId, actual: result.exchange.id })
        })
      }
    }),
  ]
  const a = startChecks(suites, newRunScope(contextOf('run-a')), [])
  const b = startChecks(suites, newRunScope(contextOf('run-b')), [])
  await Promise.all([a.done, b.done])
  for (const run of [a, b]) expect(run.outcomes().map((o) => o.result.status)).toEqual(['pass', 'pass', 'pass'])
  expect(made.sort()).toEqual(['run-a', 'run-b'])
})

test('after an await no run is current: a check that looks its run up there gets an error, never the run of another check under way', async () => {
  const suites = [
    suite('late', () => {
      check('list-returns-200', 'looks the run up after an await', async () => {
        await new Promise((resolve) => setTimeout(resolve, 5))
        thisRun()
      })
      check('list-returns-200', 'looks the run up before any await', async () => {
        const run = thisRun()
        await new Promise((resolve) => setTimeout(resolve, 5))
        if (run.context.runId !== 'run-late') fail({ code: 'CHECK_ERROR', message: 'another run', expected: 'run-late', actual: run.context.runId })
      })
    }),
  ]
  const late = startChecks(suites, newRunScope(contextOf('run-late')), [])
  const other = startChecks(suites, newRunScope(contextOf('run-other')), [])
  await Promise.all([late.done, other.done])
  const [after, before] = late.outcomes().map((o) => o.result)
  expect(after.status).toBe('fail')
  expect(after.failure).toMatchObject({ code: 'CHECK_ERROR', message: expect.stringContaining('no run is current here') })
  expect(before.status).toBe('pass')
})

test('a check declared outside a suite, or outside a run, says so', () => {
  expect(() => check('list-returns-200', 'stray', async () => undefined)).toThrow(/outside a suite/)
  expect(() => check('no-such-rule', 'unknown', async () => undefined)).toThrow(/spec\/rules.yaml does not have/)
  expect(() => collectChecks([suite('no scope', () => void thisRun())])).toThrow(/no run is current here: suites\/ run only through `npm run conform`/)
})

describe('checks one at a time, and what a gated probe waits for', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

  test('one at a time: in declaration order, never two at once; all at once: every one starts before any ends', async () => {
    for (const oneAtATime of [true, false]) {
      const events: string[] = []
      const suites = [
        suite('order', () => {
          for (const name of ['a', 'b', 'c']) {
            check('list-returns-200', name, async () => {
              events.push(`start ${name}`)
              await sleep(5)
              events.push(`end ${name}`)
            })
          }
        }),
      ]
      await startChecks(suites, newRunScope(contextOf('order')), [], { oneAtATime }).done
      expect(events).toEqual(oneAtATime ? ['start a', 'end a', 'start b', 'end b', 'start c', 'end c'] : ['start a', 'start b', 'start c', 'end a', 'end b', 'end c'])
    }
  })

  test('a gate waits for the probes the selected checks declared, started by whichever check comes first; not for those of checks not run', async () => {
    for (const [oneAtATime, selected] of [[true, []], [false, []], [true, ['list-returns-200']]] as const) {
      const sent: string[] = []
      const gate = new Gate()
      const probe = (name: string) => once(async () => (await sleep(5), sent.push(name), name))
      const refusal = probe('refusal')
      const unselected = probe('refusal of a rule not selected')
      const list = once(async () => (await gate.passed(), sent.push('list'), 'list'))
      const suites = [
        suite('gated', () => {
          // declared first, so that one at a time it reads the list before the refusal's own check runs
          check('list-returns-200', 'reads the list', async () => void (await list()))
          check('list-returns-200', 'compares the refusal with the list', async () => void (await refusal(), await list()), { sentBefore: [{ gate, probe: refusal }] })
          check('create-returns-201', 'compares another refusal', async () => void (await unselected(), await list()), { sentBefore: [{ gate, probe: unselected }] })
        }),
      ]
      await startChecks(suites, newRunScope(contextOf('gated')), selected, { oneAtATime }).done
      const expected = selected.length === 0 ? ['refusal', 'refusal of a rule not selected', 'list'] : ['refusal', 'list']
      expect(sent, `one at a time: ${oneAtATime}, rules: ${selected.join()}`).toEqual(expected)
    }
  })
})
