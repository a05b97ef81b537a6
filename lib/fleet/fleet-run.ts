/**
 * A fleet run: several deployments judged at once in one process, each by the single run's runner
 * (lib/runner/conform-run.ts) with a configuration of its own (its key, write budget, journal,
 * pacing and reports under `<report-dir>/<label>/`), then the fleet's reports from what each run
 * wrote to its folder (the result its results.json holds, kept in memory, not read back).
 * Exit 1 when any deployment failed; 2 when none failed but one could not be judged (or the fleet
 * could not be run: one line naming the entry at fault, before any request); 0 otherwise.
 */
import { setMaxListeners } from 'node:events'
import { join, resolve } from 'node:path'
import { ConfigError } from '../config/config.ts'
import { secretValues } from '../config/extra-headers.ts'
import { KEY_IN_BASE_URL, KEY_IN_OWN_WORDS, ownWordsOf } from '../config/api-key.ts'
import { ruleCatalogue } from '../spec/rule-catalogue.ts'
import { createRedactor } from '../http/redact.ts'
import { toolVersion } from '../project-root.ts'
import type { SuiteManifest } from '../runner/conform-run.ts'
import { writeCannotRunReports } from '../runner/cannot-run-reports.ts'
import { preflight, preflightWaitMs, untilInterrupted, type PreflightFailure } from '../runner/preflight.ts'
import { clearReports, clearRunFolder, JOURNAL_FILE, reportDirProblem } from '../runner/report-files.ts'
import { visibleLine } from '../reporters/visible-text.ts'
import type { FleetRequest } from './fleet-request.ts'
import { deploymentOf, fleetOf, readRunFolder, unreadRun, type RunFile } from './fleet-result.ts'
import { writeFleetReports } from './fleet-reports.ts'
import { fleetConfigs, type FleetDeploymentConfig } from './targets.ts'
import { fleetWriteLines } from './entry-writes.ts'
import { sameServerNotes } from './same-server.ts'
import type { InterruptExit } from '../result/run-result.ts'
import { originMaterial } from '../config/client-tls.ts'

export interface FleetContext {
  io: { out(text: string): void; err(text: string): void }
  /** The command's environment: keys are read from it (never from the process's own when a caller gives one). */
  env: NodeJS.ProcessEnv
  /** Where the user ran the command: paths are relative to it. */
  userCwd: string
  /** The command's start: every deployment's --deadline counts from it. */
  startedAt: Date
  loadSuite: () => Promise<SuiteManifest>
  interrupt?: AbortSignal
  /** The exit code of an interrupted run, by signal. */
  interruptExit: Readonly<Partial<Record<string, InterruptExit>>>
  /** Keys known before the fleet reads its own (CONFORM_API_KEY, --api-key, npm's): redacted too. */
  knownSecrets: readonly (string | undefined)[]
  /** The report folder when the options cannot be read. */
  fallbackReportDir: string
}

const TOOL = () => ({ name: 'petstore-categories-conformance', version: toolVersion() })

/** Runs the fleet; returns the exit code. Never throws. */
export async function runFleet(request: FleetRequest, ctx: FleetContext): Promise<number> {
  const { io, env, userCwd, interrupt } = ctx
  const secrets: string[] = []
  let headers: string[] = []
  // one redactor while the secrets stay the same (they grow once, as the targets are read): its
  // pattern of every form of every key is compiled once, not for each text
  let redactor: { secrets: string; redact: (text: string) => string } | undefined
  const redact = (text: string) => {
    const all = [...ctx.knownSecrets, ...secrets, ...headers]
    const key = JSON.stringify(all)
    if (redactor?.secrets !== key) redactor = { secrets: key, redact: createRedactor(...all) }
    return redactor.redact(text)
  }
  let reportDir = resolve(userCwd, ctx.fallbackReportDir)
  /** The exit code of a signal that stopped the fleet (130, 143), or undefined while none has. */
  const signalExit = (): InterruptExit | undefined => (interrupt?.aborted ? ctx.interruptExit[interrupt.reason] : undefined)

  /** Exit 2 before any request: one line on stderr; fleet reports that say so replace an earlier fleet's. */
  const notRun = (message: string): 2 => {
    // one line, as a single run's: a message may quote what the user gave
    const line = visibleLine(redact(message))
    io.err(`conform: ${line}\n`)
    try {
      const { stdout } = writeFleetReports(reportDir, userCwd, fleetOf([], [], TOOL(), line), [], redact, env)
      // the terminal already has its line; under GitHub Actions the annotation and job summary say it too
      if (env.GITHUB_ACTIONS === 'true') io.out(stdout)
    } catch (error) {
      io.err(`conform: the fleet's reports could not be written either: ${redact((error as Error).message)}\n`)
    }
    return 2
  }

  let deployments: FleetDeploymentConfig[]
  let shared
  try {
    ;({ shared, deployments } = fleetConfigs(request, env, userCwd, secrets))
  } catch (error) {
    return notRun(error instanceof ConfigError ? error.message : `the fleet could not be run: ${(error as Error).message}`)
  }
  headers = secretValues(shared.headers)
  reportDir = resolve(userCwd, shared.reportDir)
  const unwritable = reportDirProblem(reportDir)
  if (unwritable) {
    io.err(`conform: ${redact(unwritable)}\n`)
    return 2
  }
  // each deployment's folder too, before any request, as a single run's is: a run made only to lose its reports is no verdict
  for (const d of deployments) {
    const folderProblem = reportDirProblem(resolve(userCwd, d.config.reportDir))
    if (folderProblem) return notRun(`deployment "${d.label}": ${folderProblem}`)
  }
  // an earlier fleet's page goes before any request, as a single run's reports do: a fleet killed
  // before its page (SIGKILL, a CI timeout) left that page's PASS at the top, and merge of the
  // folder read its list of deployments, without one this fleet added and never finished; and the
  // reports of the deployments it listed, as a single run removes them: a label dropped from the
  // targets file left its folder, which `merge DIR/*/` (a fleet killed before its page) joined
  clearRunFolder(reportDir)
  for (const d of deployments) if (d.config.keyNote) io.err(`conform: note: ${redact(`${d.label}: ${d.config.keyNote}`)}\n`)
  // once, naming every deployment it concerns: a fleet of regions named as its key is (petstore-eu-1, -eu-2, …) had the same long note each
  const keyInBaseUrl = deployments.filter((d) => redact(d.config.baseUrl as string) !== d.config.baseUrl).map((d) => d.label)
  const ownWords = ownWordsOf(ruleCatalogue())
  if (keyInBaseUrl.length > 0) io.err(`conform: note: ${redact(`${keyInBaseUrl.join(', ')}: ${KEY_IN_BASE_URL}`)}\n`)
  else if (redact(ownWords) !== ownWords) io.err(`conform: note: ${KEY_IN_OWN_WORDS}\n`)

  const fleetKeys = [...new Set(deployments.map((d) => d.config.apiKey as string))]
  const deadlineAt = ctx.startedAt.getTime() + shared.deadlineMs
  // each deployment's preflight goes out now, while the runner and the suites load, as a single
  // run's does (lib/cli/conform.ts): a far deployment's handshake is round trips that loading fills
  const reached = new Map(deployments.map((d) => [d, preflight(d.config.baseUrl as string, preflightWaitMs(d.config.timeoutMs, deadlineAt), env, originMaterial(d.config))]))
  for (const pending of reached.values()) pending.catch(() => undefined) // awaited in judge; one not awaited (the runner failed to load) is no crash
  // one server under two host names (localhost and 127.0.0.1) would be judged and written to twice: a note, said before any request
  const aliases = sameServerNotes(deployments, env).catch(() => [])

  let runner: typeof import('../runner/conform-run.ts')
  let suite: SuiteManifest
  try {
    ;[runner, suite] = await Promise.all([import('../runner/conform-run.ts'), ctx.loadSuite()])
  } catch (error) {
    return notRun(`the run could not be made: ${(error as Error).message}`)
  }
  // --repeat with a write budget too small for its rounds (--max-writes, an entry's maxWrites): refused before any request, as a single run's
  for (const d of deployments) {
    const tooSmall = runner.repeatBudgetProblem(runner.planWrites({ ...d.config, maxWrites: undefined }, suite), d.config.repeat ?? 1, d.config.maxWrites, d.config.maxWrites === shared.maxWrites ? shared.writesFrom?.maxWrites : undefined)
    if (tooSmall) return notRun(d.config.maxWrites === shared.maxWrites ? tooSmall : `${d.entry}: ${tooSmall.replace(/--max-writes/g, 'maxWrites')}`)
  }
  for (const note of (await untilInterrupted(aliases, interrupt)) ?? []) io.err(`conform: note: ${redact(note)}\n`)
  io.out(redact(`Checking ${deployments.length === 1 ? 'one deployment' : `${deployments.length} deployments at once`}: ${deployments.map((d) => d.label).join(', ')}.\n`))
  // an entry's readOnly: true or maxWrites (production beside staging's writes) is said apart, before any request
  for (const line of fleetWriteLines(deployments, shared, (config) => runner.planWrites(config, suite))) io.out(redact(`${line}\n`))

  // each run's GitHub Actions output (annotations, job summary) is the fleet's to write, once
  const runEnv: NodeJS.ProcessEnv = { ...env, GITHUB_ACTIONS: undefined }
  const tool = TOOL()
  const cannotRun = (d: FleetDeploymentConfig, reason: string): RunFile =>
    writeCannotRunReports(d.config.reportDir, userCwd, { tool, reason: redact(reason), startedAt: ctx.startedAt, baseUrl: redact(d.config.baseUrl as string) }).result

  /**
   * One deployment, start to reports; returns what its results.json holds (the fleet's pages are
   * made of it, as `merge` makes them of the file), or undefined when not even that could be written.
   */
  const judge = async (d: FleetDeploymentConfig): Promise<RunFile | undefined> => {
    const config = d.config
    const baseUrl = config.baseUrl as string
    try {
      // a signal does not wait out a silent host's handshake: the fleet's page is written within the seconds the process gives itself
      const unreachable = await untilInterrupted(reached.get(d) as Promise<PreflightFailure | undefined>, interrupt)
      if (interrupt?.aborted) return cannotRun(d, `interrupted by ${interrupt.reason} before the run started`)
      // a targets entry has a CA of its own: its line says that field, not only the command line's flag
      if (unreachable) return cannotRun(d, request.targetsFile === undefined ? unreachable.message : unreachable.message.replace('add its CA with --ca-cert FILE (or NODE_EXTRA_CA_CERTS=/path/to/ca.pem)', 'add its CA with caCert: FILE in its entry of the targets file (or --ca-cert FILE for every deployment)'))
      // an earlier run's files go first, so that none is read as this run's; the journal is written as the run goes
      const reportDir = resolve(userCwd, config.reportDir)
      clearReports(reportDir)
      const run = await runner.runConformance({
        config,
        target: { baseUrl, apiKey: config.apiKey as string, embeddedServer: false },
        suite,
        env: runEnv,
        deadlineAt,
        journalFile: join(reportDir, JOURNAL_FILE),
        // every key of the fleet is redacted in every deployment's reports, not only its own
        otherSecrets: fleetKeys,
        // one suite for every deployment: a stray rejection is the suite's fault, told to each run under way
        strays: 'runs-under-way',
        ...(interrupt ? { interrupt } : {}),
      })
      // interrupted: its reports and results.json give the process's exit code, as a single run's do
      const interruptExit = signalExit()
      if (interruptExit !== undefined) run.result.exitCode = interruptExit
      const { writeRunReports } = await runner.loadReports()
      return writeRunReports(run, config, runEnv, 'files only').shown
    } catch (error) {
      try {
        return cannotRun(d, `the run could not be made: ${(error as Error).message ?? String(error)}`)
      } catch {
        return undefined
      }
    }
  }

  // every deployment's run listens for the interrupt: more than Node's default of ten is no leak
  if (interrupt) setMaxListeners(Math.max(10, deployments.length + 2), interrupt)
  // the runs go side by side (a stray rejection is told to each, lib/runner/stray-rejections.ts)
  const judged = await Promise.all(deployments.map(judge))

  const runs: RunFile[] = []
  const lines = deployments.map((d, i) => {
    let run: RunFile
    try {
      // written and not kept: the folder says why (what merge would read)
      run = judged[i] ?? readRunFolder(resolve(userCwd, d.config.reportDir))
    } catch (error) {
      // a folder the run could not write: the deployment is not judged, and the fleet says why
      const reason = redact(`its reports could not be read: ${(error as Error).message}`)
      run = unreadRun(tool, ctx.startedAt.toISOString(), reason)
    }
    runs.push(run)
    return deploymentOf(d.label, d.givenBaseUrl, `${d.label}/report.html`, run)
  })
  const fleet = fleetOf(lines, runs, tool)
  // interrupted: the process exits 130 or 143, and the fleet's page says that code (its verdict is what it reached)
  const interruptExit = signalExit()
  if (interruptExit !== undefined) fleet.exitCode = interruptExit
  try {
    io.out(writeFleetReports(reportDir, userCwd, fleet, runs, redact, env).stdout)
  } catch (error) {
    io.err(`conform: the fleet's reports could not be written: ${redact((error as Error).message)}\n`)
    return 2
  }
  return interrupt?.aborted ? (interruptExit ?? 2) : fleet.exitCode
}
