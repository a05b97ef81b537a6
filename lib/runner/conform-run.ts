/**
 * One conformance run: the test files of suites/ executed by vitest against a base URL, results
 * grouped by rule, reports written, a verdict. The command line (lib/cli/conform.ts) is a thin
 * shell around this.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { startVitest, type TestModule, type Vitest } from 'vitest/node'
import type { Config } from '../config/config.ts'
import { CODE_ROOT, RUNS_COMPILED, toolVersion } from '../project-root.ts'
import { newTraceId } from '../http/trace-context.ts'
import { secretValues } from '../config/extra-headers.ts'
import { readJournal, type JournalEntry } from '../http/journal.ts'
import { createRedactor } from '../http/redact.ts'
import type { RunResult } from '../result/run-result.ts'
import { phaseMarks } from './run-phases.ts'
import type { writeRunReports } from './run-reports.ts'
import type { RunContext } from '../suite-kit/run-context.ts'
import { writePlan, type DeclaredPost, type WritePlan } from '../suite-kit/write-plan.ts'

export interface RunTarget {
  baseUrl: string
  apiKey: string
  embeddedServer: boolean
}

export interface RunOutput {
  result: RunResult
  reportFiles: string[]
  summary: string
}

/** What the runner knows of the suites before it starts them (suites/manifest.ts gives it). */
export interface SuiteManifest {
  /** Every POST the suites may send, in priority order. */
  declaredPosts: readonly DeclaredPost[]
}

/** The POSTs this configuration may send (the same answer every worker computes). */
export function planWrites(config: Pick<Config, 'readOnly' | 'maxWrites' | 'rules'>, suite: SuiteManifest): WritePlan {
  return writePlan(suite.declaredPosts, config)
}

/** How long past its deadline (or an interrupt) the run still waits for checks to end before it reports without them. */
const GRACE_MS = 500

function newRunId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 13)
  // five base-36 characters: the part of the id every record name carries (namePrefix)
  const tag = (randomBytes(4).readUInt32BE() % 36 ** 5).toString(36).padStart(5, '0')
  return `${stamp}-${tag}`
}

let reports: Promise<{ writeRunReports: typeof writeRunReports }> | undefined
/** The reporters (lib/runner/run-reports.ts), loaded once, on the first call. */
function loadReports() {
  reports ??= import('./run-reports.ts')
  return reports
}

/** `env`: the command's environment, where the GitHub Actions output looks for its files (never the process's own when a caller gives one). */
export async function runConformance(
  config: Config,
  target: RunTarget,
  suite: SuiteManifest,
  env: NodeJS.ProcessEnv = process.env,
  /** Aborted (reason: the signal's name) when the user interrupts the run: it ends as at its deadline. */
  interrupt?: AbortSignal,
): Promise<RunOutput> {
  const startedAt = new Date()
  // --deadline counts from the command's start when it says so (the preflight came first)
  const deadlineAt = config.deadlineAt ?? Date.now() + config.deadlineMs
  const started = performance.now()
  const runId = newRunId(startedAt)
  const totalWrites = suite.declaredPosts.length
  const maxWrites = config.readOnly ? 0 : Math.min(config.maxWrites ?? totalWrites, totalWrites)
  // every worker's HTTP client appends to its own file here; read once the run has ended
  const journalDir = mkdtempSync(join(tmpdir(), `conform-journal-${runId}-`))
  const context: RunContext = {
    baseUrl: target.baseUrl,
    apiKey: target.apiKey,
    runId,
    timeoutMs: config.timeoutMs,
    maxResponseBytes: config.maxResponseBytes,
    readOnly: config.readOnly,
    maxWrites: config.maxWrites,
    rules: config.rules,
    journalDir,
    seed: config.seed ?? randomBytes(4).readUInt32BE() % 2 ** 31,
    // the workers' HTTP clients stop sending at this instant: vitest's cancel does not stop
    // concurrent checks that are already queued, so without it --deadline did not bound the run
    deadlineAt,
    ...(config.rateLimit !== undefined ? { requestsPerSecond: config.rateLimit } : {}),
    traceId: newTraceId(),
    identity: { version: toolVersion(), runId },
    extraHeaders: config.headers,
  }
  const redact = createRedactor(target.apiKey, ...secretValues(config.headers))
  const problems: string[] = []
  let modules: readonly TestModule[] = []
  let unhandled: string[] = []
  // vitest's own console output is kept, redacted, and shown only when something went wrong
  const vitestOutput: string[] = []
  const sink = () => new Writable({ write: (chunk, _enc, next) => (vitestOutput.push(redact(String(chunk))), next()) })

  let journal: JournalEntry[] = []
  let vitest: Vitest | undefined
  let cutBy: string | undefined
  const cut = (why: string) => {
    if (cutBy !== undefined) return
    cutBy = why
    void vitest?.cancelCurrentRun('keyboard-input')?.catch(() => undefined)
  }
  const deadline = setTimeout(() => cut(`the run did not finish within ${config.deadlineMs} ms (--deadline); checks that had not finished are not verified`), Math.max(0, deadlineAt - Date.now()))
  const onInterrupt = () => cut(`the run was interrupted (${interrupt?.reason}) before it finished; checks that had not finished are not verified`)
  interrupt?.addEventListener('abort', onInterrupt, { once: true })
  if (interrupt?.aborted) onInterrupt()
  // the last word on time: whatever a check or the server does, the run stops waiting for vitest
  // this long after its deadline (or an interrupt) and reports what it has
  let giveUp: () => void = () => undefined
  const givenUp = new Promise<'given-up'>((resolve) => (giveUp = () => resolve('given-up')))
  const watchdog = setTimeout(giveUp, Math.max(0, deadlineAt - Date.now()) + GRACE_MS)
  const giveUpSoon = () => setTimeout(giveUp, GRACE_MS).unref()
  interrupt?.addEventListener('abort', giveUpSoon, { once: true })
  if (interrupt?.aborted) giveUpSoon()
  let abandoned = false
  // vitest's logger exits the process on SIGINT and SIGTERM, 1 ms after; the command line handles
  // them (lib/cli/conform.ts): the run is cut, its reports written, then it exits 130 or 143
  const keepSignalsOurs = (event: string | symbol, listener: (...args: unknown[]) => void) => {
    if (event === 'SIGINT' || event === 'SIGTERM') queueMicrotask(() => process.off(event, listener))
  }
  process.on('newListener', keepSignalsOurs)
  try {
    const started = startVitest(
      'test',
      [],
      {
        watch: false,
        config: false,
        // compiled (dist/, npm run build): the suites' JavaScript, imported natively by the worker
        // instead of through vite's module runner; from the sources (tsx): vite transforms them
        root: CODE_ROOT,
        include: [RUNS_COMPILED ? 'suites/**/*.test.js' : 'suites/**/*.test.ts'],
        ...(RUNS_COMPILED ? { experimental: { viteModuleRunner: false, nodeLoader: false } } : {}),
        reporters: [
          phaseMarks(),
          {
            onInit: (instance: Vitest) => void (vitest = instance),
            // the reporters load while the worker starts: the main thread only waits then
            onTestRunStart: () => void loadReports(),
            onTestRunEnd(testModules, errors) {
              modules = testModules
              unhandled = errors.map((e) => redact(e.message ?? String(e)))
            },
          },
        ],
        provide: { conform: context },
        // one worker: a second one loaded and compiled the same modules and schemas again, which
        // cost more CPU and memory than running the files one after another (README, Performance)
        pool: 'threads',
        isolate: false,
        maxWorkers: 1,
        // every check of a file at once (vitest's default runs 5): checks await shared once()
        // probes, so at most the suite's few dozen requests are in flight, and a slow server costs about
        // its critical path (scripts/bench.ts)
        maxConcurrency: 500,
        // the run's --deadline bounds every check (the client sends nothing after it, and an unfinished
        // check is then not verified): a per-test limit below it would fail a slow but conforming
        // server whose chain (creations, the list after them, its re-reads, Retry-After waits) is long
        testTimeout: config.deadlineMs,
        cache: false,
        passWithNoTests: true,
        ...(config.rules.length > 0 ? { testNamePattern: `\\[(${config.rules.join('|')})\\]$` } : {}),
      } as Parameters<typeof startVitest>[2],
      {},
      { stdout: sink(), stderr: sink() },
    )
    if ((await Promise.race([started, givenUp])) === 'given-up') {
      abandoned = true
      cut(cutBy ?? `the run did not finish within ${config.deadlineMs} ms (--deadline)`)
      // what the checks had reached when the run stopped waiting for them
      modules = vitest?.state.getTestModules() ?? []
      started.catch(() => undefined)
    }
  } finally {
    clearTimeout(deadline)
    clearTimeout(watchdog)
    interrupt?.removeEventListener('abort', onInterrupt)
    process.off('newListener', keepSignalsOurs)
    // a worker stuck past the deadline is left to the process's exit, not waited for
    if (!abandoned) await vitest?.close()
    else void vitest?.close().catch(() => undefined)
    // the workers are gone: every line they wrote is on disk
    try {
      journal = readJournal(journalDir)
    } catch (error) {
      problems.push(`the run's journal could not be read: ${(error as Error).message}`)
    } finally {
      rmSync(journalDir, { recursive: true, force: true })
    }
  }
  if (cutBy !== undefined) problems.push(cutBy)
  problems.push(...unhandled.map((message) => `unexpected error in the suite: ${message}`))
  if (modules.length === 0 && cutBy === undefined) problems.push(`vitest ran no test file: ${redact(vitestOutput.join('').trim()).slice(0, 500)}`)

  const { writeRunReports } = await loadReports()
  return writeRunReports(
    modules,
    {
      tool: { name: 'petstore-categories-conformance', version: toolVersion() },
      runId,
      traceId: context.traceId,
      baseUrl: target.baseUrl,
      embeddedServer: target.embeddedServer,
      startedAt,
      durationMs: Math.round(performance.now() - started),
      options: {
        readOnly: config.readOnly,
        maxWrites,
        rules: config.rules,
        timeoutMs: config.timeoutMs,
        seed: context.seed,
        ...(config.rateLimit !== undefined ? { rateLimit: config.rateLimit } : {}),
      },
      problems,
      journal,
      cutShort: cutBy !== undefined,
    },
    config,
    redact,
    env,
  )
}
