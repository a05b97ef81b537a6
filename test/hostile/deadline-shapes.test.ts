/**
 * Servers shaped to hold a run past its --deadline or to fill its memory: answers heavy to parse
 * (100,000 members a record, a list of a million records, arrays nested 100,000 deep), interim
 * answers that never stop, a body that comes a byte at a time, a Content-Length that lies and then
 * nothing, a header value larger than any head the client reads, a server that never reads. Each
 * run, a child with --deadline 6000 and a --timeout far past it, ends within the deadline and a
 * margin by its own measure (results.json durationMs), and its verdict fails no rule
 * for what the server never answered (INCOMPLETE, exit 2), nor a conforming service at all.
 * test/hostile/run-ends.test.ts has the faults of each phase of a run, and a server that never
 * answers; test/hostile/size-cap.test.ts the bodies past --max-response-bytes.
 */
import { afterAll, describe, expect, test } from 'vitest'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { runConform, type ConformRun } from '../helpers/run-conform.ts'
import { RUN_TIMEOUT_MS, expectNoStackTrace, failedChecks } from './expect-run.ts'
import { contentLengthThenIdle, giantHeaderValue, interimFlood, nestedArrays, neverReads, tricklesSlowly } from './deadline-servers.ts'
import { manyKeysFront, manyRecordsFront } from './heavy-servers.ts'
import type { HostileServer } from './hostile-servers.ts'

const KEY = 'deadline-shapes-key-7c31e0'
const DEADLINE_MS = 6000
/**
 * How far past --deadline a run may end: the rest of what was under way when its timer fell, the
 * half second the checks are given to end, and the reports; a second more for two cores busy with
 * the rest of npm test.
 */
const DEADLINE_MARGIN_MS = 2000
/**
 * The same for answers heavy to parse: what was under way is then one answer's parse and one check
 * of it (a list of 300,000 records is 10 MB, 0.15 s of CPU to parse, seconds under a full npm
 * test's load). Before the fix this file's runs of both ended 15.1 and 17.0 s after their start;
 * after, under 8 s by themselves and 9.7 s in a full npm test at a load of 42 on two cores.
 */
const HEAVY_MARGIN_MS = 4000
/**
 * A run late past its margin is run once more before the test fails: a run that is late every time
 * still fails, one the machine held back (CI's npm test on two cores, three files at once, the kill
 * matrix beside it) does not. Measured: the 100,000-member shape by itself ends at 5.7 to 6.3 s
 * beside a full npm test, but once at 12.0 s (at ec93549 as at 8509595), and CI failed on one at 11.0 s.
 */
const LATE_RUN_RETRIES = 1

const servers: (HostileServer | RunningServer)[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
})

/** A reference server behind a front: a conforming service whose answers the front makes heavy. */
async function behind(front: (upstream: string) => Promise<HostileServer>): Promise<HostileServer> {
  const upstream = await startReferenceServer({ apiKey: KEY })
  servers.push(upstream)
  return front(new URL(upstream.baseUrl).origin)
}

interface Shape {
  name: string
  start: () => Promise<HostileServer>
  /** The service conforms (the front uses a freedom): no rule fails. Else no check of a rule fails but for what it answered whole. */
  conforming?: boolean
  /** The exit codes the run may end with: 2 (no verdict) where the server answered nothing a check could judge. */
  exits: number[]
  /** How far past --deadline the run may end; DEADLINE_MARGIN_MS unless said. */
  marginMs?: number
}

/** Answers heavy to parse, one run at a time: beside each other's runs and fronts they measured the machine, not the run. */
const HEAVY: Shape[] = [
  { name: 'every record with 100,000 members (a list of them, each create answer 1.4 MB)', start: () => behind((up) => manyKeysFront(up, 100_000)), conforming: true, exits: [0, 2], marginMs: HEAVY_MARGIN_MS },
  // 300,000 (10 MB): one parse of a list of 1,000,000 (35 MB) is a second of CPU, and four seconds beside the other runs of this file on two busy cores
  { name: 'a list of 300,000 records besides the run\'s', start: () => behind((up) => manyRecordsFront(up, 300_000)), conforming: true, exits: [0, 2], marginMs: HEAVY_MARGIN_MS },
]

const SHAPES: Shape[] = [
  { name: 'every answer arrays nested 100,000 deep', start: () => nestedArrays(100_000), exits: [1, 2] },
  { name: 'a 103 and a 100 every 2 ms, never a final answer', start: interimFlood, exits: [2] },
  { name: 'a body of one byte every 900 ms, never ending', start: () => tricklesSlowly(900), exits: [2] },
  { name: 'a Content-Length 500 bytes past the body, then nothing, the connection open', start: contentLengthThenIdle, exits: [2] },
  // past undici's 16 KiB of head every answer is a transport error (UND_ERR_HEADERS_OVERFLOW), which fails the rules as no answer (exit 1) though the server answered: left as it is, bounded in time here
  { name: "a header value of 1 MB in every answer", start: () => giantHeaderValue(1 << 20), exits: [2] },
  { name: 'connections accepted and never read', start: neverReads, exits: [2] },
]

/** Each run's verdict and findings are held to at once; only its lateness sends it round again (LATE_RUN_RETRIES): vitest's retry of the whole test would pass a conforming front failed in one run of two. */
async function endsByItsDeadline(shape: Shape, retries = LATE_RUN_RETRIES): Promise<void> {
  const server = await shape.start()
  servers.push(server)
  const run = await runConform(['--base-url', server.baseUrl, '--deadline', String(DEADLINE_MS), '--timeout', '60000'], { env: { CONFORM_API_KEY: KEY }, killAfterMs: 60_000 })
  runs.push(run)
  expect(shape.exits, run.stdout + run.stderr).toContain(run.code)
  expectNoStackTrace(run)
  const failed = failedChecks(run)
  if (shape.conforming || run.code === 2) expect(failed.map((c) => `${c.name}: ${c.failure?.message}`)).toEqual([])
  if (run.code === 2) expect(run.stdout).toContain('Verdict: INCOMPLETE (exit 2)')
  const limit = DEADLINE_MS + (shape.marginMs ?? DEADLINE_MARGIN_MS)
  if (run.results!.durationMs >= limit && retries > 0) return endsByItsDeadline(shape, retries - 1)
  expect(run.results!.durationMs).toBeLessThan(limit)
}

describe(`answers heavy to parse: a run ends by --deadline ${DEADLINE_MS} + ${HEAVY_MARGIN_MS} ms, and fails no rule of the conforming service behind them`, { timeout: RUN_TIMEOUT_MS }, () => {
  for (const shape of HEAVY) test(shape.name, () => endsByItsDeadline(shape))
})

describe.concurrent(`a run ends by --deadline ${DEADLINE_MS} + ${DEADLINE_MARGIN_MS} ms whatever the server does`, { timeout: RUN_TIMEOUT_MS }, () => {
  for (const shape of SHAPES) test(shape.name, () => endsByItsDeadline(shape))
})
