/**
 * Conformance runs measured from outside: each is `node bin/conform.mjs` (what `npm run conform`
 * runs) as a child process, timed from spawn to exit, with its CPU time, peak memory and the phase
 * marks of lib/runner/run-phases.ts. Kinds:
 * - embedded: no --base-url, exactly what a newcomer's `npm run conform` does;
 * - local: a reference server started here (so that its request arrivals can be timed), handed to
 *   the child with --base-url and CONFORM_API_KEY: time to first request, requests sent, and the
 *   share of the wall time during which at least one request was waiting on the server;
 * - slow: the same server answering every request SLOW_DELAY_MS late, next to the critical path;
 * - seeded: the server holding a large list of categories.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PHASE_MARKS } from '../../lib/runner/run-phases.ts'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { cleanEnv, ROOT, runNode } from '../../test/helpers/child-process.ts'
import { readUsage, usageProbeArgs } from './process-usage.ts'
import { median, round, unionLength } from './stats.ts'

const CONFORM_ENTRY = join(ROOT, 'bin/conform.mjs')

/** Delay of every answer of the slow server: a staging service in another region (issue 22). */
export const SLOW_DELAY_MS = 120

export type ConformKind = 'embedded' | 'local' | 'slow' | 'seeded'

/** Where the wall time of a run goes, in ms, from the phase marks; they add up to the wall time. */
export interface Phases {
  /** Spawn to the first line of bin/conform.mjs: Node's own start. */
  nodeStart: number
  /** Loading the command line (the runner loads once a run is to be made). */
  load: number
  /** Options read, the preflight, the runner, the suites, the checks and the HTTP client loaded (the embedded server started). */
  setUp: number
  /** Every check: requests, answers, judgements. */
  checks: number
  /** The result built from the journal, every report written. */
  reports: number
  /** From the last report written to the process's end. */
  exit: number
}

/**
 * The set-up before the first request, item by item: when each item was done, in ms from the spawn
 * (lib/runner/run-phases.ts marks them; the runner and the suites load beside the preflight, so
 * an item's time is where it ended, not its length).
 */
export interface SetUpItems {
  /** Node's own start: the first line of bin/conform.mjs. */
  nodeStarted: number
  /** dist/ checked against the sources, the command line (lib/cli/conform.ts) imported. */
  commandLine: number
  /** The options read: command line, environment, files. */
  optionsRead: number
  /** The preflight answered (--base-url), or the embedded server listening. */
  targetReady: number
  /** The runner, the suites and the HTTP client imported (begun beside the preflight). */
  runnerLoaded: number
  /** The write plan said, the report folder cleared, the journal opened, the checks collected. */
  checksCollected: number
  /** The first request's exchange began (results.json), in the run's own process. */
  firstRequestSent?: number
}

export interface ConformSample {
  code: number | null
  wallMs: number
  cpuMs?: number
  peakRssMiB?: number
  phases?: Phases
  setUp?: SetUpItems
  firstRequestMs?: number
  lastRequestMs?: number
  requests?: number
  /** Bursts of requests separated by more than half the server's delay (slow server only). */
  waves?: number
  waitShare?: number
  /** Time during which at least one request was on its way or waiting for its answer (the union of the exchanges' intervals). */
  networkWaitMs?: number
  runDurationMs?: number
}

/** A list held by the reference server, to see a run judge a large one end to end. */
function seedOf(count: number): { id: bigint; name: string; description: string }[] {
  return Array.from({ length: count }, (_, i) => ({ id: 2n ** 62n + BigInt(i), name: `category-${i}`, description: `Pets of kind ${i} (bench)` }))
}

/** A reference server whose request arrivals are timed (performance.now() of this process). */
export async function timedServer(delayMs: number, seedCount = 0): Promise<{ server: RunningServer; arrivals: number[] }> {
  const server = await startReferenceServer({
    apiKey: `bench-${Math.random().toString(36).slice(2)}-key`,
    behaviour: { transport: { delayMs, chunked: false, connectionClose: false } },
    ...(seedCount > 0 ? { seed: seedOf(seedCount) } : {}),
  })
  const arrivals: number[] = []
  // the server lists every request it receives; timing each addition gives the arrival times
  const push = server.requests.push.bind(server.requests)
  server.requests.push = (...items) => {
    const now = performance.now()
    for (let i = 0; i < items.length; i++) arrivals.push(now)
    return push(...items)
  }
  return { server, arrivals }
}

function setUpOf(marksAt: Record<string, number>, spawnedEpoch: number): SetUpItems | undefined {
  const at = (name: string) => marksAt[name] - spawnedEpoch
  const items = {
    nodeStarted: at(PHASE_MARKS.entry),
    commandLine: at(PHASE_MARKS.loaded),
    optionsRead: at(PHASE_MARKS.optionsRead),
    targetReady: at(PHASE_MARKS.targetReady),
    runnerLoaded: at(PHASE_MARKS.runnerLoaded),
    checksCollected: at(PHASE_MARKS.suitesLoaded),
  }
  return Object.values(items).every(Number.isFinite) ? items : undefined
}

function phasesOf(marksAt: Record<string, number>, spawnedEpoch: number, wallMs: number): Phases | undefined {
  const at = (name: string) => marksAt[name] - spawnedEpoch
  const points = [at(PHASE_MARKS.entry), at(PHASE_MARKS.loaded), at(PHASE_MARKS.suitesLoaded), at(PHASE_MARKS.checksDone), at(PHASE_MARKS.reportsWritten)]
  if (points.some((p) => !Number.isFinite(p))) return undefined
  const [entry, loaded, suites, done, written] = points
  return { nodeStart: entry, load: loaded - entry, setUp: suites - loaded, checks: done - suites, reports: written - done, exit: wallMs - written }
}

/** One run of `kind`; against `shared` (a timedServer) when given, else a server of its own. */
export async function conformRun(kind: ConformKind, scratch: string, seedCount: number, shared?: Awaited<ReturnType<typeof timedServer>>): Promise<ConformSample> {
  const reportDir = mkdtempSync(join(scratch, `conform-${kind}-`))
  const usageFile = join(reportDir, 'usage.json')
  const args = [...usageProbeArgs(scratch), CONFORM_ENTRY, '--report-dir', reportDir]
  const delayMs = kind === 'slow' ? SLOW_DELAY_MS : 0
  const timed = kind === 'embedded' ? undefined : (shared ?? (await timedServer(delayMs, kind === 'seeded' ? seedCount : 0)))
  const arrivalsBefore = timed?.arrivals.length ?? 0
  let run
  try {
    run = timed
      ? await runNode([...args, '--base-url', timed.server.baseUrl], { env: cleanEnv({ CONFORM_API_KEY: timed.server.apiKey, BENCH_USAGE_FILE: usageFile }), killAfterMs: 180_000 })
      : await runNode(args, { env: cleanEnv({ BENCH_USAGE_FILE: usageFile }), killAfterMs: 180_000 })
  } finally {
    if (timed && !shared) await timed.server.close()
  }
  if (run.code !== 0) process.stderr.write(`bench: ${kind} run exited ${run.code}\n${run.stdout.slice(-2000)}${run.stderr.slice(-2000)}\n`)
  const wallMs = run.exitedAt - run.spawnedAt
  const spawnedEpoch = performance.timeOrigin + run.spawnedAt
  const sample: ConformSample = { code: run.code, wallMs }
  const usage = readUsage(usageFile)
  if (usage) Object.assign(sample, { cpuMs: usage.cpuMs, peakRssMiB: usage.peakRssMiB, phases: phasesOf(usage.marksAt, spawnedEpoch, wallMs), setUp: setUpOf(usage.marksAt, spawnedEpoch) })
  if (timed) {
    const arrivals = timed.arrivals.slice(arrivalsBefore)
    sample.requests = arrivals.length
    if (arrivals.length > 0) {
      sample.firstRequestMs = arrivals[0] - run.spawnedAt
      sample.lastRequestMs = arrivals[arrivals.length - 1] - run.spawnedAt
      if (delayMs > 0) sample.waves = 1 + arrivals.slice(1).filter((t, i) => t - arrivals[i] > delayMs / 2).length
    }
  }
  try {
    // waiting on the server: the union of the exchanges' intervals (as the client timed them)
    const results = JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) as {
      durationMs: number
      summary: { requests: number }
      // each exchange any check judged, once (lib/result/results-file.ts)
      exchanges: { id: string; startedAt: string; durationMs: number }[]
    }
    const seen = new Map<string, [number, number]>()
    for (const e of results.exchanges) {
      const start = Date.parse(e.startedAt) - spawnedEpoch
      seen.set(e.id, [start, start + e.durationMs])
    }
    sample.networkWaitMs = unionLength([...seen.values()])
    if (sample.setUp && seen.size > 0) sample.setUp.firstRequestSent = Math.min(...[...seen.values()].map(([start]) => start))
    sample.waitShare = sample.networkWaitMs / wallMs
    sample.runDurationMs = results.durationMs
    sample.requests ??= results.summary.requests
  } catch {
    // no results.json: the run failed, and its exit code says so
  }
  return sample
}

export const SET_UP_ITEMS = ['nodeStarted', 'commandLine', 'optionsRead', 'targetReady', 'runnerLoaded', 'checksCollected', 'firstRequestSent'] as const satisfies readonly (keyof SetUpItems)[]

/** Medians over the samples of one kind (the minimum wall too: the least disturbed run). */
export function summarise(list: ConformSample[]) {
  const of = (pick: (s: ConformSample) => number | undefined) => list.map((s) => pick(s) ?? NaN)
  const phaseNames = Object.keys(list.find((s) => s.phases)?.phases ?? {}) as (keyof Phases)[]
  return {
    exitCodes: list.map((s) => s.code),
    wallMs: round(median(of((s) => s.wallMs))),
    wallMsMin: round(Math.min(...of((s) => s.wallMs))),
    wallMsRuns: list.map((s) => round(s.wallMs)),
    cpuMs: round(median(of((s) => s.cpuMs))),
    cpuMsRuns: list.map((s) => round(s.cpuMs ?? NaN)),
    peakRssMiB: round(median(of((s) => s.peakRssMiB))),
    phases: Object.fromEntries(phaseNames.map((name) => [name, round(median(of((s) => s.phases?.[name])))])) as Partial<Phases>,
    setUp: Object.fromEntries(SET_UP_ITEMS.map((name) => [name, round(median(of((s) => s.setUp?.[name])))])) as Partial<SetUpItems>,
    requests: median(of((s) => s.requests)),
    waitShare: round(median(of((s) => s.waitShare)), 3),
    networkWaitMs: round(median(of((s) => s.networkWaitMs))),
    runDurationMs: round(median(of((s) => s.runDurationMs))),
    ...(list[0].firstRequestMs !== undefined
      ? {
          firstRequestMs: round(median(of((s) => s.firstRequestMs))),
          firstRequestMsMin: round(Math.min(...of((s) => s.firstRequestMs))),
          lastRequestMs: round(median(of((s) => s.lastRequestMs))),
        }
      : {}),
    ...(list[0].waves !== undefined ? { waves: median(of((s) => s.waves)) } : {}),
  }
}
export type ConformSummary = ReturnType<typeof summarise>
