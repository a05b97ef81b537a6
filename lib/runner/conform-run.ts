/**
 * One conformance run: the checks of suites/ run against a base URL (lib/runner/check-runner.ts),
 * results grouped by rule, a verdict; writing the reports is a separate call (writeRunReports,
 * lib/runner/run-reports.ts). The command line (lib/cli/conform.ts) is a thin shell around both.
 * A run keeps nothing of its own in the process: its clock, journal, HTTP client, proxy and stray
 * rejections are its own, so runs in one process (the kill matrix, a fleet) never see each other's.
 *
 * A run does not go through vitest's runner, though the project's own tests do. vitest runs test
 * files in worker threads it starts per run, behind a vite server: measured, loading vitest/node alone
 * took 0.2 s, the worker and its module hooks 0.3 s more, and a run 0.6 s to 0.75 s in all on a
 * loopback server, against 0.46 s for Dredd's 7 checks. The suites need of a runner only what
 * check-runner.ts does in a hundred lines: collect the checks, run them at once, keep their evidence,
 * stop at the deadline. docs/performance.md has the measurements of both paths.
 */
import { excusedBy } from '../result/baseline.ts'
import { randomBytes } from 'node:crypto'
import type { Config } from '../config/config.ts'
import { toolVersion } from '../project-root.ts'
import { newTraceId } from '../http/trace-context.ts'
import { secretValues } from '../config/extra-headers.ts'
import { RunJournal } from '../http/journal.ts'
import { ListsRead } from '../result/ledger-from-list.ts'
import { runPrefixes } from '../result/record-prefixes.ts'
import { createRedactor } from '../http/redact.ts'
import { POST_RESENDS_PER_WRITE } from '../http/retry-after.ts'
import { runClock } from './run-clock.ts'
import type { RunProblem } from '../result/run-problems.ts'
import { startChecks, type CheckOutcome } from './check-runner.ts'
import { afterChecks } from './after-checks.ts'
import type { Samples } from '../result/samples.ts'
import { DEFAULTS } from '../config/config.ts'
import { openJournalFile } from './journal-file.ts'
import { proxyFor } from './preflight.ts'
import { endProblems, TlsPortWatch } from './tls-port.ts'
import { ListFirst } from './list-first.ts'
import { StoppedAnswering } from './stopped-answering.ts'
import { markPhase, PHASE_MARKS } from './run-phases.ts'
import type { baselineWritten, CompletedRun, completedRun, writeRunReports } from './run-reports.ts'
import { ownRejections, type StrayOwnership } from './stray-rejections.ts'
import type { SuiteManifest } from '../suite-kit/manifest.ts'
import { newRunScope, thisRun, within, type RunContext } from '../suite-kit/run-context.ts'
import { writePlan, type WritePlan } from '../suite-kit/write-plan.ts'
import { originMaterial } from '../config/client-tls.ts'

export type { CompletedRun } from './run-reports.ts'
export type { SuiteManifest } from '../suite-kit/manifest.ts'

export interface RunTarget {
  baseUrl: string
  apiKey: string
  embeddedServer: boolean
}

/** What of the command line's configuration a run reads. */
export type RunConfig = Pick<
  Config,
  'timeoutMs' | 'deadlineMs' | 'maxResponseBytes' | 'readOnly' | 'maxWrites' | 'writesFrom' | 'rules' | 'seed' | 'rateLimit' | 'concurrency' | 'headers' | 'baseline' | 'updateBaseline' | 'confirm' | 'repeat' | 'listLagMs' | 'tls'
> &
  Partial<Pick<Config, 'allowInsecureHttp'>>

export interface RunOptions {
  config: RunConfig
  target: RunTarget
  suite: SuiteManifest
  /** The run's environment, where its proxy is read from (HTTPS_PROXY, NO_PROXY …); never the process's unless the caller gives it. Default: none. */
  env?: NodeJS.ProcessEnv
  /** Aborted (reason: the signal's name) when the user interrupts the run: it ends as at its deadline. */
  interrupt?: AbortSignal
  /** When --deadline falls (epoch ms): the command line counts it from its own start, as the preflight came first. Default: deadlineMs from now. */
  deadlineAt?: number
  /** The checks one after another, in declaration order, as a test runner runs tests (the verdicts are the same; a run is slower). Default: all at once. */
  checksOneAtATime?: boolean
  /** Where the journal is appended as the run goes (`<report-dir>/journal.ndjson`, lib/runner/journal-file.ts); undefined: in memory only. */
  journalFile?: string
  /**
   * How a rejection no code handled is told to be this run's (lib/runner/stray-rejections.ts):
   * by its async context (default: exact among any runs at once, at a cost in CPU on Node 20 and
   * 22), or as every run's under way without one (the command line's run, alone in its process; a fleet's deployments).
   */
  strays?: StrayOwnership
  /**
   * Secrets of others that this run's journal and reports must not show either: a fleet's other
   * deployments' keys, which a service shared by tenants, or one that names the key it expected,
   * could echo to this deployment.
   */
  otherSecrets?: readonly string[]
  /** Every request's headers in the journal, a GET's too (a dry run lists every request whole, lib/cli/dry-run.ts). */
  journalEveryHeader?: boolean
}

/** The POSTs this configuration may send (the same answer the run's write budget computes, lib/suite-kit/write-budget.ts). */
export function planWrites(config: Pick<Config, 'readOnly' | 'maxWrites' | 'rules'>, suite: SuiteManifest): WritePlan {
  return writePlan(suite.declaredPosts, config)
}

export { repeatBudgetProblem } from './repeat-rounds.ts'

/** How long past its deadline (or an interrupt) the run still waits for checks to end before it reports without them. */
const GRACE_MS = 500

function newRunId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 13)
  // five base-36 characters: the part of the id every record name carries (namePrefix)
  const tag = (randomBytes(4).readUInt32BE() % 36 ** 5).toString(36).padStart(5, '0')
  return `${stamp}-${tag}`
}

let reports: Promise<{ completedRun: typeof completedRun; writeRunReports: typeof writeRunReports; baselineWritten: typeof baselineWritten }> | undefined
/** The result and the reporters (lib/runner/run-reports.ts), loaded once, on the first call. */
export function loadReports() {
  reports ??= import('./run-reports.ts')
  return reports
}

/** Runs the checks of `suite` against the target and returns the run's result; writes no report (writeRunReports does). */
export async function runConformance(options: RunOptions): Promise<CompletedRun> {
  const { config, target, suite, env = {}, interrupt } = options
  const startedAt = new Date()
  const deadlineAt = options.deadlineAt ?? Date.now() + config.deadlineMs
  // the run's one clock and one end: the HTTP client is handed both and keeps no deadline of its own
  const clock = runClock(deadlineAt)
  const started = performance.now()
  const runId = newRunId(startedAt)
  const totalWrites = suite.declaredPosts.length
  const maxWrites = config.readOnly ? 0 : Math.min(config.maxWrites ?? totalWrites, totalWrites)
  // the POSTs the run may send, as its first line says (describeWritePlan)
  const allowed = planWrites(config, suite).allowed
  const redact = createRedactor(target.apiKey, ...secretValues(config.headers), ...(options.otherSecrets ?? []))
  // the run's journal, in memory, and appended to journal.ndjson as it goes
  const journalFile = options.journalFile === undefined ? undefined : openJournalFile(options.journalFile, redact)
  // over http://, the first requests unanswered ask whether the port speaks TLS or h2c: if so, none is sent again (tls-port.ts)
  // …and a port that stopped answering mid-run (its service gone behind a forwarder) is asked with a GET alone: if so, nothing more is sent (stopped-answering.ts)
  // (their questions end with the run: none once its deadline came or the user interrupted it)
  const msLeft = () => (clock.signal.aborted ? 0 : clock.msLeft())
  const stoppedAnswering = new StoppedAnswering(target.baseUrl, msLeft, journalFile)
  const tlsPort = new TlsPortWatch(target.baseUrl, msLeft, stoppedAnswering)
  stoppedAnswering.settledElsewhere = () => tlsPort.wrongPort.aborted || tlsPort.speaksOther
  const journal = new RunJournal(tlsPort)
  // the first list, asked with the key, goes alone: a base URL that answers it 404, and another GET so, gets one POST alone, nothing more once it is answered so too (list-first.ts)
  const listFirst = new ListFirst(config.timeoutMs)
  // the proxy the preflight reached, from the run's own environment
  const proxy = proxyFor(new URL(target.baseUrl), env)?.value
  const repeat = config.repeat ?? 1
  // the lists the run reads, its own records in them: the records it created that no answer announced (a read-only run sends no POST, so has none)
  const listsRead = config.readOnly ? undefined : new ListsRead([...runPrefixes(runId, { confirm: config.confirm ?? DEFAULTS.confirm, repeat }).keys()], redact)
  const context: RunContext = {
    baseUrl: target.baseUrl,
    apiKey: target.apiKey,
    runId,
    timeoutMs: config.timeoutMs,
    maxResponseBytes: config.maxResponseBytes,
    readOnly: config.readOnly,
    maxWrites: config.maxWrites,
    ...(config.writesFrom ? { writesFrom: config.writesFrom } : {}),
    // as the first line says (describeWritePlan): 40 for each POST the run may send
    maxPostResends: POST_RESENDS_PER_WRITE * allowed.length,
    // without a budget, POSTs sent again after lost answers are bounded too: as many as the plan has,
    // as its first line says (the connection-race variants of the kill matrix need at most 28 of 77)
    maxLostPostResends: allowed.length,
    postResends: { afterWait: 0, afterLostAnswer: 0 },
    // a budget the user gave bounds every POST that may have stored a record, a lost answer's too
    ...(config.maxWrites !== undefined ? { boundedWrites: true } : {}),
    rules: config.rules,
    journal: listFirst.listening(journal),
    ...(options.journalEveryHeader ? { journalEveryHeader: true } : {}),
    ...(listsRead ? { listsRead } : {}),
    createdIds: new Map(),
    shortFormsSent: new Set(),
    firstAnswers: new Map(),
    seed: config.seed ?? randomBytes(4).readUInt32BE() % 2 ** 31,
    listLagMs: config.listLagMs,
    // the HTTP client sends nothing once this ends, and cuts what is in flight when it does
    run: clock,
    ...(proxy !== undefined ? { proxy } : {}),
    ...(originMaterial(config) ? { tls: originMaterial(config) } : {}),
    ...(config.rateLimit !== undefined ? { requestsPerSecond: config.rateLimit } : {}),
    concurrency: config.concurrency,
    traceId: newTraceId(),
    identity: { version: toolVersion(), runId },
    extraHeaders: config.headers,
    ...(options.otherSecrets ? { otherSecrets: options.otherSecrets } : {}),
    resendsStopped: () => tlsPort.speaksOther || tlsPort.wrongPort.aborted || stoppedAnswering.stopped.aborted || listFirst.stopped.aborted,
    // nothing more is sent once the first answers show the port speaks no HTTP/1.1 (tls-port.ts), or once it stopped answering (stopped-answering.ts)
    wrongPort: AbortSignal.any([tlsPort.wrongPort, stoppedAnswering.stopped, listFirst.stopped]),
    heldFirst: (request) => listFirst.held(request),
    portAsked: () => tlsPort.asking ?? stoppedAnswering.asking,
  }
  const problems: RunProblem[] = []
  let outcomes: CheckOutcome[] = []
  let samples: Map<string, Samples> | undefined
  // what each further round of --repeat may send: the first create the plan allows
  const firstCreate = suite.declaredPosts.find((p) => p.creates && !p.followUp && allowed.includes(p.key))?.key
  let cutBy: RunProblem | undefined
  let keptBack: RunProblem[] = []
  // the last word on time: whatever a check or the server does, the run stops waiting for its
  // checks at its deadline (or an interrupt), gives them GRACE_MS to end, and reports what it has
  let stopWaiting: () => void = () => undefined
  const stopped = new Promise<'stopped'>((resolve) => (stopWaiting = () => resolve('stopped')))
  const scope = newRunScope(context)
  const cut = (why: RunProblem) => {
    if (cutBy !== undefined) return
    cutBy = why
    // an interrupt comes before the deadline: what is in flight is cut now, not at the deadline
    clock.end(why.message, why.kind === 'interrupted' ? String(interrupt?.reason) : undefined)
    scope.client?.abandon()
    setTimeout(stopWaiting, GRACE_MS).unref()
  }
  const deadlineMessage: RunProblem = { kind: 'deadline', message: `the run did not finish within ${config.deadlineMs} ms (--deadline); checks that had not finished are not verified` }
  const deadline = setTimeout(() => cut(deadlineMessage), Math.max(0, deadlineAt - Date.now()))
  const onInterrupt = () => cut({ kind: 'interrupted', message: `the run was interrupted (${interrupt?.reason}) before it finished; checks that had not finished are not verified` })
  interrupt?.addEventListener('abort', onInterrupt, { once: true })
  if (interrupt?.aborted) onInterrupt()
  // an error a check left behind (a probe nobody awaited that failed) is the suite's fault, shown
  // as a problem of this run (never another's), never a crash of the process
  const onStray = (error: unknown, shared: { runs: number } | undefined) => {
    const where = shared ? ` (in one of the ${shared.runs} runs under way in this process, which one cannot be told)` : ''
    problems.push({ kind: 'suite-error', message: `unexpected error in the suite${where}: ${redact(error instanceof Error ? error.message : String(error))}` })
  }
  let releaseStrays: () => void = () => undefined
  try {
    const suites = await suite.loadSuites()
    markPhase(PHASE_MARKS.suitesLoaded)
    if (cutBy === undefined) {
      const { started: running, release } = ownRejections(onStray, () => startChecks(suites, scope, config.rules, { oneAtATime: options.checksOneAtATime === true }), options.strays)
      releaseStrays = release
      // the reporters load while the first requests are in flight
      void loadReports()
      // the further rounds of --repeat, then every failure probed again (--confirm): a passing run of one round has neither
      const finishing = afterChecks(running, suites, scope, {
        confirm: config.confirm ?? DEFAULTS.confirm,
        repeat,
        selected: config.rules,
        ...(config.maxWrites !== undefined ? { maxWrites: config.maxWrites } : {}),
        ...(firstCreate ? { firstCreate } : {}),
        stopped: () => cutBy !== undefined || clock.msLeft() <= 0,
        journal: () => journal.entries(),
        // a known failure is not probed again (--update-baseline records what the run shows, confirmed)
        ...(config.baseline && !config.updateBaseline ? { known: excusedBy(config.baseline.data, startedAt.toISOString().slice(0, 10)) } : {}),
        ...(listsRead && suite.readListForLedger ? { ledgerList: { lists: listsRead, read: (lastWriteAnsweredAt) => suite.readListForLedger!(within(scope, thisRun), lastWriteAnsweredAt) } } : {}),
      })
      await Promise.race([finishing.done, stopped])
      // the clock says the deadline has come even when its timer has not fired yet (the client refuses by the clock)
      if (clock.msLeft() <= 0) cut(deadlineMessage)
      // a rate limit that outlasted the deadline, or a stall that kept requests back, leaves a run
      // without a failure as incomplete as the deadline does; both are kept when both happened
      keptBack = [
        ...(scope.client?.outlasted !== undefined ? [{ kind: 'outlasted' as const, message: scope.client.outlasted }] : []),
        ...(scope.client?.stalled !== undefined ? [{ kind: 'stalled' as const, message: scope.client.stalled }] : []),
      ]
      outcomes = finishing.outcomes()
      samples = finishing.samples()
    }
    markPhase(PHASE_MARKS.checksDone)
  } finally {
    clearTimeout(deadline)
    interrupt?.removeEventListener('abort', onInterrupt)
    // a run cut short leaves nothing in flight behind it
    if (cutBy !== undefined) scope.client?.abandon()
    else await scope.client?.close()
    releaseStrays()
    journalFile?.close()
  }
  // a handshake still under way when the checks ended has its say too
  const tlsProblem = (await tlsPort.ended()) ?? (await stoppedAnswering.ended())
  problems.push(...endProblems(cutBy, tlsProblem))
  if (journalFile?.failure !== undefined) problems.push({ kind: 'journal-unwritable', message: journalFile.failure })

  const { completedRun } = await loadReports()
  return completedRun(
    outcomes,
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
        // the budget given, which bounds every POST (confirmations and rounds too), not the plan's count below it: a run given
        // --max-writes 200 said "116 POSTs sent, of at most 90 (--max-writes 90)"
        maxWrites: config.readOnly ? 0 : (config.maxWrites ?? maxWrites),
        ...(config.maxWrites !== undefined ? { maxWritesGiven: true } : {}),
        ...(config.writesFrom ? { writesFrom: config.writesFrom } : {}),
        rules: config.rules,
        timeoutMs: config.timeoutMs,
        seed: context.seed,
        ...(config.rateLimit !== undefined ? { rateLimit: config.rateLimit } : {}),
        concurrency: config.concurrency,
        confirm: config.confirm ?? DEFAULTS.confirm,
        ...(repeat > 1 ? { repeat } : {}),
        listLagMs: config.listLagMs,
      },
      problems,
      ...(samples ? { samples } : {}),
      journal: journal.entries(),
      ...(listsRead ? { listsRead } : {}),
      cutShort: cutBy !== undefined,
      ...(keptBack.length > 0 ? { keptBack } : {}),
      ...(scope.client?.certificateAsked ? { certificateAsked: true } : {}),
    },
    config,
    redact,
  )
}
