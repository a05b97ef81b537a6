/**
 * The programmatic front door: one conformance run made as `npm run conform` makes it (options
 * through the same loader, the same preflight, the embedded reference server without a base URL,
 * then lib/runner/conform-run.ts), but handing back the run's result instead of exiting, writing
 * report files only when `reportDir` gives a folder (not with `reportDir: false`), and throwing ConformanceConfigError or
 * ConformanceRunError where the command line exits 2. The suites come from the caller (the package
 * entry, entry/index.ts), as bin/conform.mjs hands them to the command line: lib/ never imports suites/.
 */
import { join, resolve } from 'node:path'
import { secretValues } from '../config/extra-headers.ts'
import { createRedactor } from '../http/redact.ts'
import { writeBaseline } from '../result/baseline.ts'
import { redactedResult, type RunResult } from '../result/run-result.ts'
import type { RunTarget, SuiteManifest } from '../runner/conform-run.ts'
import { preflight, preflightWaitMs, untilInterrupted } from '../runner/preflight.ts'
import { clearRunFolder, JOURNAL_FILE, reportDirProblem } from '../runner/report-files.ts'
import { terminalSummary } from '../reporters/terminal-summary.ts'
import { inertLogCommands } from '../reporters/ci-log-commands.ts'
import { plain, visiblePieces } from '../reporters/visible-text.ts'
import type { RunningServer } from '../server/reference-server.ts'
import { describeWritePlan, EMBEDDED_WRITES_TO, writesOnlyToEmbeddedMemory } from '../suite-kit/write-plan.ts'
import { ConformanceError, ConformanceRunError } from './errors.ts'
import { claimReportDir } from './report-dir-claim.ts'
import { fakeTimersProblem } from './fake-timers.ts'
import { configBeforeAddress, configForRun, inOptionWords, type ConformanceOptions } from './options.ts'
import { causeOf, resolveBaseUrl } from './base-url.ts'
import { originMaterial } from '../config/client-tls.ts'

/** A run's result (what results.json holds, redacted), its terminal summary, the report files written (if any) and the write plan it said first. */
export interface ConformanceRun {
  result: RunResult
  summary: string
  reportFiles: string[]
  /** What the command line says before it sends anything: the POSTs it may send ("Writes: …"). */
  writePlan: string
  /** updateBaseline: the line that says where the baseline went and what its entries still need; '' when none was written. */
  baselineWritten: string
}

export async function runConformanceWith(manifest: SuiteManifest, options: ConformanceOptions = {}): Promise<ConformanceRun> {
  // faked timers would never fire: the run would hang past its deadline, until the test runner's own timeout
  const faked = fakeTimersProblem()
  if (faked) throw new ConformanceRunError(faked)
  // --deadline counts from here, as from the command's start: the preflight and a server's start are part of the run
  const startedAt = Date.now()
  const environment = options.environment ?? process.env
  const cwd = options.cwd ?? process.cwd()
  // a service's start (the promise or function baseUrl is) is waited for within the deadline, as the rest of the run is
  const early = configBeforeAddress(options, environment, cwd)
  const waiting = { at: startedAt + early.deadlineMs, ms: early.deadlineMs, signal: options.signal, redact: createRedactor(early.apiKey, environment.CONFORM_API_KEY, ...secretValues(early.headers)) }
  const config = configForRun(options, await resolveBaseUrl(options, waiting), environment, cwd)
  const deadlineAt = startedAt + config.deadlineMs
  const redact = createRedactor(config.apiKey, environment.CONFORM_API_KEY, ...secretValues(config.headers))
  // report files only when asked: a library call leaves no folder behind by default, nor with reportDir: false
  const writeFiles = typeof options.reportDir === 'string'
  let releaseReportDir = () => {}
  if (writeFiles) {
    const unwritable = reportDirProblem(resolve(cwd, config.reportDir))
    if (unwritable) throw new ConformanceRunError(inOptionWords(redact(unwritable)))
    // one run at a time in a folder: another would delete this run's journal as it is written
    const claim = claimReportDir(resolve(cwd, config.reportDir), JSON.stringify(options.reportDir))
    if (!claim.ok) throw new ConformanceRunError(redact(claim.problem))
    releaseReportDir = claim.release
  }
  const signal = options.signal
  const notInterrupted = () => {
    if (signal?.aborted) throw new ConformanceRunError(`interrupted by ${String(signal.reason)} before the run started`)
  }
  let server: RunningServer | undefined
  try {
    let target: RunTarget
    if (config.baseUrl === undefined) {
      const { startReferenceServer } = await import('../server/reference-server.ts')
      server = await startReferenceServer()
      target = { baseUrl: server.baseUrl, apiKey: server.apiKey, embeddedServer: true }
    } else {
      target = { baseUrl: config.baseUrl, apiKey: config.apiKey as string, embeddedServer: false }
      // an abort does not wait out a silent host's handshake, as a signal does not for the command line and a fleet
      const unreachable = await untilInterrupted(preflight(target.baseUrl, preflightWaitMs(config.timeoutMs, deadlineAt), { ...environment }, originMaterial(config)), signal)
      notInterrupted()
      if (unreachable) throw new ConformanceRunError(inOptionWords(redact(unreachable.message)))
    }
    const { runConformance, planWrites, loadReports, repeatBudgetProblem } = await import('../runner/conform-run.ts')
    notInterrupted()
    // --repeat with an explicit --max-writes too small for its rounds: refused before any request, as the command line does
    const tooSmall = repeatBudgetProblem(planWrites({ ...config, maxWrites: undefined }, manifest), config.repeat ?? 1, config.maxWrites, config.writesFrom?.maxWrites)
    if (tooSmall) throw new ConformanceRunError(inOptionWords(redact(tooSmall)))
    // the embedded server's writes are gone with it: the plan for a service (376 POSTs at most, 3760 resends) said what this run never risks
    const writePlan = writesOnlyToEmbeddedMemory(target.embeddedServer, config) ? `${EMBEDDED_WRITES_TO} (against a service, this note gives the POSTs the run may send and the records they may create).` : describeWritePlan(planWrites(config, manifest), config, config.writesFrom)
    const reportDir = resolve(cwd, config.reportDir)
    // an earlier run's files go first, so that none is read as this run's; the journal is written as the run goes
    if (writeFiles) clearRunFolder(reportDir)
    const run = await runConformance({
      config,
      target,
      suite: manifest,
      env: { ...environment },
      deadlineAt,
      ...(writeFiles ? { journalFile: join(reportDir, JOURNAL_FILE) } : {}),
      ...(signal ? { interrupt: signal } : {}),
    })
    // no GitHub Actions output from a library call (an empty environment): the command line speaks to the job, not a test run inside it
    const reports = writeFiles ? (await loadReports()).writeRunReports(run, { ...config, workingDir: cwd }, {}) : undefined
    // updateBaseline without reportDir: the baseline is still written (writeRunReports writes it with the reports), else the run passes on failures recorded nowhere
    if (!writeFiles && run.baselineUpdate) writeBaseline(run.baselineUpdate.path, run.baselineUpdate.data)
    const baselineNote = redact((await loadReports()).baselineWritten(run, cwd))
    const result = redactedResult(run.result, run.redact)
    return { result: redactedResult(result, redact), summary: reports?.summary ?? redact(terminalSummary(result, []) + baselineNote), reportFiles: reports?.reportFiles ?? [], writePlan, baselineWritten: baselineNote.trim() }
  } catch (error) {
    if (error instanceof ConformanceError) throw error
    // its cause, which vitest prints with its stack: "Promise.withResolvers is not a function" alone did not say it came from nock 15's interceptor of the test's own setup
    // an error of no known kind may quote what the server sent (a parser's message does): its controls marked (an escape sequence), no CI log command, as in every other line
    const shown = (text: string) => inertLogCommands(plain(visiblePieces(redact(text), 'keep')))
    throw new ConformanceRunError(`the run could not be made: ${shown(error instanceof Error ? `${error.name}: ${error.message}` : String(error))}`, { cause: causeOf(error, shown) })
  } finally {
    releaseReportDir()
    await server?.close()
  }
}
