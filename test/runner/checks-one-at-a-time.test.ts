/**
 * The whole-run checks do not rely on every check starting in the same tick: run one at a time, in
 * declaration order (as vitest runs tests by default), the real suites give the kill matrix's
 * verdicts, which test/mutants/kill-matrix.test.ts holds the concurrent run to. Every mutation
 * (but those whose catch depends on timing, CAUGHT_BY_TIMING) exits 1 with its rule failed for its
 * reason; every variant that does not wait for seconds passes. Before the last list declared what
 * it waits for (suites/categories/probes.ts), a check "refused, so the list that follows does not
 * show it" compared a list read before its own POST, and the mutations that store a refused create
 * passed here. In this process, through runConformance(), the sources' code.
 */
import { describe, test } from 'vitest'
import { loadConfig } from '../../lib/config/config.ts'
import { runConformance } from '../../lib/runner/conform-run.ts'
import type { RunResult } from '../../lib/result/run-result.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { caseKey, startCase, type ServerCase } from '../../lib/server/server-cases.ts'
import { VARIANTS } from '../../lib/server/variants.ts'
import { once } from '../../lib/suite-kit/check.ts'
import { manifest } from '../../suites/manifest.ts'
import { ROOT } from '../helpers/run-conform.ts'
import { DEFAULT_CONCURRENCY, limiter, MATRIX_SEED } from '../mutants/matrix.ts'

const CASE_TIMEOUT_MS = 240_000
/**
 * Runs at once: one at a time, a run mostly waits for its next answer (measured: 0.1 s of CPU in a
 * run of 1 to 2 s), so more of them share the cores than the matrix's DEFAULT_CONCURRENCY.
 */
const limit = limiter(4 * DEFAULT_CONCURRENCY)
/**
 * Variants whose every request waits (measured one at a time): left to the concurrent matrix. A
 * mutation is never left out but those of CAUGHT_BY_TIMING.
 */
const WAITS_PER_REQUEST: Readonly<Record<string, string>> = {
  'unavailable-503-once': 'every request is answered 503 with Retry-After: 1 once: 68 s one at a time',
  'slow-answers': 'every answer is slow: 16 s one at a time',
}

/** The case's server, and a run of the real suites against it with its checks one at a time. */
async function oneAtATime(serverCase: ServerCase): Promise<RunResult> {
  const apiKey = caseKey(serverCase)
  const server = await startCase(serverCase, { apiKey })
  try {
    // --confirm 0: confirmation changes no verdict (the concurrent matrix pins what it adds); here
    // it would only send each failed check's probes again, one at a time
    const config = loadConfig(['--base-url', server.baseUrl, '--seed', MATRIX_SEED, '--confirm', '0', ...(serverCase.args ?? [])], { CONFORM_API_KEY: apiKey }, ROOT)
    const run = await runConformance({ config, target: { baseUrl: server.baseUrl, apiKey, embeddedServer: false }, suite: manifest, checksOneAtATime: true })
    return run.result
  } finally {
    await server.close()
  }
}

/**
 * Mutations whose catch depends on timing (Mutation.timing), measured one at a time: left to the
 * concurrent matrix and their own tests. body-pieces-decoded-apart: one at a time, the create in
 * pieces goes on a connection of its first request, whose first read by the server (in this
 * process or its own) held the head and both pieces (661 bytes at once, 90 to 300 ms after the
 * first piece was written); caught 0 times in 9 under load, where the concurrent run caught it 3
 * in 3 at once; test/inputs/body-in-pieces.test.ts proves it in processes of their own. Since its
 * second piece waits for an answer to a request written after the first (lib/http/answer-clock.ts),
 * one at a time caught it 10 in 10, and 12 in 12 beside three busy loops (3 in 6 before); left out
 * still: past PIECE_WAIT_MAX_MS the second piece goes anyway, and a loaded server may read late past it.
 */
const CAUGHT_BY_TIMING = new Set(MUTATIONS.filter((m) => m.timing !== undefined).map((m) => m.name))
const JUDGED = MUTATIONS.filter((m) => !CAUGHT_BY_TIMING.has(m.name))

const outcomes = new Map([...JUDGED, ...VARIANTS.filter((v) => v.slow === undefined && WAITS_PER_REQUEST[v.name] === undefined)].map((c) => [c.name, once(() => limit(() => oneAtATime(c)))]))
const failed = (result: RunResult) => result.rules.filter((r) => r.status === 'fail').map((r) => r.id)
const said = (result: RunResult) => JSON.stringify({ failed: failed(result), problems: result.problems })

describe('checks one at a time: every mutation is caught for its reason', () => {
  for (const mutation of JUDGED) {
    test.concurrent(
      `${mutation.name} → fails ${mutation.breaks} with ${mutation.code}`,
      async ({ expect }) => {
        const result = await outcomes.get(mutation.name)!()
        expect(result.exitCode, said(result)).toBe(1)
        const codes = result.rules.find((r) => r.id === mutation.breaks)!.checks.flatMap((c) => (c.status === 'fail' ? [c.failure?.code] : []))
        expect(codes, said(result)).toContain(mutation.code)
      },
      CASE_TIMEOUT_MS,
    )
  }
})

describe('checks one at a time: every variant passes', () => {
  // those that wait for seconds (slow, or WAITS_PER_REQUEST) would wait for each check in turn:
  // the concurrent matrix proves them
  for (const variant of VARIANTS.filter((v) => v.slow === undefined && WAITS_PER_REQUEST[v.name] === undefined)) {
    test.concurrent(
      `${variant.name} → passes`,
      async ({ expect }) => {
        const result = await outcomes.get(variant.name)!()
        expect(failed(result), said(result)).toEqual([])
        expect(result.problems).toEqual([])
        expect(result.exitCode).toBe(0)
      },
      CASE_TIMEOUT_MS,
    )
  }
})
