/**
 * `npm run conform`: the command line others script against. Exit 0 when every must-rule passed,
 * 1 when a rule failed, 2 when the run could not be made as asked (one line, no stack trace).
 */
import { signalHandler } from './signal-exit.ts'
import { appendFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { closestName } from '../config/closest-name.ts'
import { apiKeyInArgv, ConfigError, DEFAULTS, loadConfig, swallowedByNpm, USAGE, type Config } from '../config/config.ts'
import { secretValues } from '../config/extra-headers.ts'
import { originMaterial, tlsWithoutHttps, tlsWords } from '../config/client-tls.ts'
import { CONFORM_OPTIONS } from '../config/conform-options.ts'
import { parseFlags } from '../config/options.ts'
import { fleetRequest } from '../fleet/fleet-request.ts'
import { createRedactor, secretsGiven } from '../http/redact.ts'
import { workflowCommand } from '../reporters/github-actions.ts'
import { visibleLine } from '../reporters/visible-text.ts'
import { preflight, preflightWaitMs, untilInterrupted } from '../runner/preflight.ts'
import { clearRunFolder, JOURNAL_FILE, reportDirProblem } from '../runner/report-files.ts'
import { markPhase, PHASE_MARKS } from '../runner/run-phases.ts'
import { rejectionOwnedByARun } from '../runner/stray-rejections.ts'
import type { RunTarget, SuiteManifest } from '../runner/conform-run.ts'
import type { RunningServer } from '../server/reference-server.ts'
import { toolVersion } from '../project-root.ts'
import { inertLogCommands } from '../reporters/ci-log-commands.ts'
import { ruleCatalogue } from '../spec/rule-catalogue.ts'
import { describeWritePlan, EMBEDDED_WRITES_TO, writesOnlyToEmbeddedMemory } from '../suite-kit/write-plan.ts'
import type { InterruptExit } from '../result/run-result.ts'
import { KEY_IN_BASE_URL, KEY_IN_OWN_WORDS, ownWordsOf } from '../config/api-key.ts'

/** What npm did with a key given as --api-key: it printed the command line, this log holds the key (docs/production.md). */
export const KEY_ON_NPM_COMMAND_LINE = 'the key was given as --api-key, and npm printed it above in the command line it runs ("> node bin/conform.mjs … --api-key …"; ps shows it too): treat this log as holding the key, and give it in CONFORM_API_KEY instead'
export const HEADER_ON_NPM_COMMAND_LINE = 'a secret header value was given as --header, and npm printed it above in the command line it runs ("> node bin/conform.mjs … --header …"; ps shows it too): treat this log as holding it, and give the header in CONFORM_HEADERS instead'

/** The Writes line of a run of the embedded reference server, as no setting bounds its writes. */
export const EMBEDDED_WRITES = `${EMBEDDED_WRITES_TO} (against a service, this line gives the POSTs the run may send and the records they may create; --dry-run shows each).`

/** Whether a --header of the command line (not of CONFORM_HEADERS) carries a value the reports hide as a secret. */
const secretHeaderInArgv = (argv: readonly string[], secrets: readonly string[]) =>
  secrets.length > 0 && argv.some((arg, i) => (arg === '--header' ? secrets.some((s) => argv[i + 1]?.includes(s)) : arg.startsWith('--header=') && secrets.some((s) => arg.includes(s))))

export interface Io {
  out(text: string): void
  err(text: string): void
}

// every line quoting a server can reach a CI log: none may be a log command (ci-log-commands.ts)
const processIo: Io = {
  out: (text) => process.stdout.write(inertLogCommands(text)),
  err: (text) => process.stderr.write(inertLogCommands(text)),
}

function listRules(): string {
  const rules = ruleCatalogue()
  const width = Math.max(...rules.map((r) => r.id.length))
  return rules.map((r) => `${r.id.padEnd(width)}  ${r.level.padEnd(8)}  §${r.section.padEnd(10)} ${r.title}`).join('\n') + '\n'
}

/** Runs the command; returns the exit code. Never throws. */
/** Loads what the runner needs of the suites (suites/manifest.ts); the entry point provides it, so lib/ never imports suites/. */
export type SuiteLoader = () => Promise<SuiteManifest>

/** The exit code of a run the user interrupted: 128 + the signal's number, as shells report it. */
export const INTERRUPT_EXIT: Readonly<Partial<Record<string, InterruptExit>>> = { SIGINT: 130, SIGTERM: 143 }

/**
 * `interrupt`: aborted with the signal's name (SIGINT, SIGTERM) when the user stops the run; the
 * run then ends as at its deadline, writes its reports, and exits 130 or 143.
 */
export async function main(argv: string[], loadSuite: SuiteLoader, io: Io = processIo, env: NodeJS.ProcessEnv = process.env, interrupt?: AbortSignal): Promise<number> {
  const startedAt = new Date()
  let config: Config | undefined
  /** Once the run has started, its journal.ndjson is its own: a failure after that keeps it. */
  let runStarted = false
  // npm sets INIT_CWD to where the user ran `npm run`; paths are theirs, not the package's
  const userCwd = env.INIT_CWD || process.cwd()
  // a signal held while the command loaded (bin/held-signals.mjs) ends a command that makes no run
  // as Node's default did: its exit code, nothing printed or written (merge's fleet page, a dry run's plan)
  const heldBefore = (command: string) => (interrupt?.aborted ? (io.err(`conform: interrupted by ${interrupt.reason} before ${command} started: nothing done\n`), INTERRUPT_EXIT[interrupt.reason] ?? 2) : undefined)
  if (argv[0] === 'compare') return heldBefore('compare') ?? (await import('./compare.ts')).compareMain(argv.slice(1), io, userCwd, env)
  if (argv[0] === 'merge') return heldBefore('merge') ?? (await import('./merge.ts')).mergeMain(argv.slice(1), io, userCwd, env)
  // a bad argument next to --api-key must not bring the key into the error message
  // a key npm swallowed (`npm run conform --api-key=KEY`) is in its npm_config_api_key
  const swallowedKey = env.npm_config_api_key === 'true' ? undefined : env.npm_config_api_key
  let redact = createRedactor(env.CONFORM_API_KEY, apiKeyInArgv(argv), swallowedKey)
  const dryRunAsked = argv.some((arg) => arg === '--dry-run' || arg.startsWith('--dry-run='))
  /**
   * Exit 2 (130 or 143: a signal before the run started): one line on stderr, under GitHub Actions
   * an annotation and the job summary too, and reports that say the run could not be made, with
   * that exit code, in place of any an earlier run left.
   */
  const cannotRun = async (message: string, exit: 2 | InterruptExit = 2): Promise<number> => {
    // a message may quote what the user gave (an option's value, a path): a line break or an
    // escape sequence in it would be a second line (a workflow command in a CI log) or act
    const line = visibleLine(redact(message))
    io.err(`conform: ${line}\n`)
    // a dry run is no run: an option it could not read leaves the folder's reports as they are
    if (dryRunAsked) return exit
    if (env.GITHUB_ACTIONS === 'true') io.out(workflowCommand('error', 'conformance run could not be made', line) + '\n')
    // options that could not be read (a CI job whose key secret is unset) still name the deployment meant: merge shows it
    const baseUrl = config?.baseUrl || baseUrlFallback(argv, env)
    try {
      // loaded only here: a run that is made never needs it
      const { writeCannotRunReports } = await import('../runner/cannot-run-reports.ts')
      const { markdown } = writeCannotRunReports(config?.reportDir ?? reportDirFallback(argv, env), userCwd, {
        tool: { name: 'petstore-categories-conformance', version: toolVersion() },
        reason: line,
        startedAt,
        ...(baseUrl !== undefined ? { baseUrl: redact(baseUrl) } : {}),
        keepJournal: runStarted,
        ...(exit !== 2 ? { interruptExit: exit } : {}),
      })
      // the job summary says it too, as a run's own summary.md would
      if (env.GITHUB_ACTIONS === 'true' && env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, markdown)
    } catch (error) {
      io.err(`conform: the reports could not be written either: ${redact((error as Error).message)}\n`)
    }
    return exit
  }
  // before anything else: a run npm has half-swallowed is not the run that was asked for
  const swallowed = swallowedByNpm(argv, env)
  if (swallowed) return cannotRun(swallowed)
  // a command mistyped (`merg`) is no run: refused without the reports of a run that could not be
  // made, which in merge's --report-dir would make the merge typed right after refuse that folder
  const meant = argv[0] !== undefined && !argv[0].startsWith('-') ? closestName(argv[0], ['merge', 'compare']) : undefined
  if (meant !== undefined) {
    io.err(`conform: unknown command "${visibleLine(redact(argv[0]!))}" (did you mean ${meant}?); see --help\n`)
    return 2
  }
  // npm printed the command line it runs, the key with it, before this line: said, never the key
  if (apiKeyInArgv(argv) !== undefined && env.npm_lifecycle_event !== undefined) io.err(`conform: note: ${KEY_ON_NPM_COMMAND_LINE}\n`)
  // --base-url repeated, or --targets FILE: several deployments at once (lib/fleet/)
  const fleet = fleetRequest(argv)
  if (fleet && dryRunAsked) {
    io.err('conform: --dry-run shows the requests of one deployment\'s run: give it one --base-url (a targets entry\'s readOnly or maxWrites as --read-only or --max-writes), not several or --targets\n')
    return 2
  }
  if (fleet) {
    const { runFleet } = await import('../fleet/fleet-run.ts')
    const knownSecrets = [env.CONFORM_API_KEY, apiKeyInArgv(argv), swallowedKey]
    return runFleet(fleet, { io, env, userCwd, startedAt, loadSuite, interrupt, interruptExit: INTERRUPT_EXIT, knownSecrets, fallbackReportDir: reportDirFallback(argv, env) })
  }
  // --version, --help and --list-rules make no run: printed whatever a setting holds (CONFORM_TIMEOUT_MS=5s refused them, and wrote the reports of a run not made over the last run's)
  const printed = printOnly(argv)
  if (printed) return heldBefore(printed.asked) ?? (io.out(printed.text()), 0)
  try {
    config = loadConfig(argv, env, userCwd)
  } catch (error) {
    return cannotRun(error instanceof ConfigError ? error.message : (error as Error).message)
  }
  redact = createRedactor(config.apiKey, env.CONFORM_API_KEY, apiKeyInArgv(argv), swallowedKey, ...secretValues(config.headers))
  markPhase(PHASE_MARKS.optionsRead)
  if (env.npm_lifecycle_event !== undefined && secretHeaderInArgv(argv, secretValues(config.headers))) io.err(`conform: note: ${HEADER_ON_NPM_COMMAND_LINE}\n`)
  if (config.keyNote) io.err(`conform: note: ${config.keyNote}\n`)
  // the key in the base URL is said so; else one of the reports' own words
  const ownWords = ownWordsOf(ruleCatalogue())
  if (config.baseUrl !== undefined && redact(config.baseUrl) !== config.baseUrl) io.err(`conform: note: ${KEY_IN_BASE_URL}\n`)
  else if (redact(ownWords) !== ownWords) io.err(`conform: note: ${KEY_IN_OWN_WORDS}\n`)
  if (config.writesNote) io.err(`conform: note: ${config.writesNote}\n`)
  // --deadline counts from here: the preflight and the embedded server's start are part of the run
  const deadlineAt = startedAt.getTime() + config.deadlineMs
  const stopped = config.dryRun ? heldBefore('the dry run') : undefined
  if (stopped !== undefined) return stopped
  if (config.dryRun) {
    // nothing goes to the base URL, so no preflight; a failure is said on stderr, and the folder's reports are left as they are
    try {
      return await (await import('./dry-run.ts')).dryRun(config, Promise.resolve().then(loadSuite).then(async (suite) => (await suite.loadSuites(), suite)), io, redact, interrupt)
    } catch (error) {
      io.err(`conform: the dry run could not be made: ${visibleLine(redact((error as Error).message ?? String(error)))}\n`)
      return 2
    }
  }

  // no address, yet one was meant: the embedded server would pass, a gate green on nothing of the service's
  const unnamed = config.baseUrl === undefined ? addressMeant(config, env, argv) : undefined
  if (unnamed) return cannotRun(unnamed)
  // the runner and the suites load while the server starts or the preflight waits on the network;
  // --help, --list-rules and a bad option never load them
  const unwritable = reportDirProblem(resolve(userCwd, config.reportDir))
  if (unwritable) {
    io.err(`conform: ${redact(unwritable)}\n`)
    return 2
  }
  const interrupted = () => (interrupt?.aborted ? cannotRun(`interrupted by ${interrupt.reason} before the run started`, INTERRUPT_EXIT[interrupt.reason] ?? 2) : undefined)
  // a signal while the command loaded: its reports at once, not after the runner, suites and server load (seconds under load, past the 3 s given)
  const held = await interrupted()
  if (held !== undefined) return held
  const runner = import('../runner/conform-run.ts')
  runner.catch(() => undefined) // awaited below; a failure to load is reported there
  // the suites' modules too (the run's own loadSuites() then finds them loaded): none of it waits
  // for the target, and a far server's preflight is a round trip that loading fills
  const suiteLoaded = Promise.resolve()
    .then(loadSuite)
    .then(async (suite) => (await suite.loadSuites(), suite))
  suiteLoaded.catch(() => undefined)
  let server: RunningServer | undefined
  try {
    let target: RunTarget
    const plain = tlsWithoutHttps(config, true)
    if (plain) return cannotRun(plain)
    if (config.baseUrl === undefined) {
      // loaded only here: with --base-url a run needs neither the server nor its schema validators
      const { startReferenceServer } = await import('../server/reference-server.ts')
      server = await startReferenceServer()
      target = { baseUrl: server.baseUrl, apiKey: server.apiKey, embeddedServer: true }
      io.out(`No --base-url given: checking the embedded reference server at ${server.baseUrl} (random key).\n`)
    } else {
      target = { baseUrl: config.baseUrl, apiKey: config.apiKey as string, embeddedServer: false }
      // a signal does not wait out a silent host's handshake: the reports are written within the seconds the process gives itself
      const unreachable = await untilInterrupted(preflight(target.baseUrl, preflightWaitMs(config.timeoutMs, deadlineAt), env, originMaterial(config)), interrupt)
      const early = await interrupted()
      if (early !== undefined) return early
      if (unreachable) return cannotRun(unreachable.message)
    }
    markPhase(PHASE_MARKS.targetReady)
    const [{ runConformance, planWrites, loadReports, repeatBudgetProblem }, suite] = await Promise.all([runner, suiteLoaded])
    markPhase(PHASE_MARKS.runnerLoaded)
    const early = await interrupted()
    if (early !== undefined) return early
    // --repeat with an explicit --max-writes too small for its rounds: refused before any request
    const tooSmall = repeatBudgetProblem(planWrites({ ...config, maxWrites: undefined }, suite), config.repeat ?? 1, config.maxWrites, config.writesFrom?.maxWrites)
    if (tooSmall) return cannotRun(tooSmall)
    // the embedded server's records are its memory's: a newcomer's first line was the plan's bounds for a service (92 POSTs, 368 in all, 3680 resends)
    io.out((writesOnlyToEmbeddedMemory(target.embeddedServer, config) ? EMBEDDED_WRITES : describeWritePlan(planWrites(config, suite), config, config.writesFrom)) + '\n')
    if (config.tls) io.out(visibleLine(tlsWords(config.tls)) + '\n')
    const rounds = config.repeat ?? 1
    if (rounds > 1 && !config.readOnly) io.out(`Rounds: --repeat ${rounds} sends ${rounds - 1} more POSTs, one create in each further round (then the list).\n`)
    // an earlier run's files go first, so that none is read as this run's; the journal is written as the run goes
    const reportDir = resolve(config.workingDir, config.reportDir)
    clearRunFolder(reportDir)
    runStarted = true
    // the command line's run is alone in its process: a stray rejection is this run's, told without the async context's cost
    const run = await runConformance({ config, target, suite, env, deadlineAt, journalFile: join(reportDir, JOURNAL_FILE), strays: 'runs-under-way', ...(interrupt ? { interrupt } : {}) })
    // interrupted: the process exits 130 or 143, and the reports print and record that code (the verdict stays what the run reached)
    const interruptExit = interrupt?.aborted ? INTERRUPT_EXIT[interrupt.reason] : undefined
    if (interruptExit !== undefined) run.result.exitCode = interruptExit
    const { writeRunReports } = await loadReports()
    const { summary } = writeRunReports(run, config, env)
    markPhase(PHASE_MARKS.reportsWritten)
    io.out(summary)
    return interrupt?.aborted ? (INTERRUPT_EXIT[interrupt.reason] ?? 2) : run.result.exitCode
  } catch (error) {
    return cannotRun(`the run could not be made: ${(error as Error).message ?? String(error)}`)
  } finally {
    await server?.close()
  }
}

/**
 * Why a run without a base URL was meant for a service all the same, or undefined (the newcomer's
 * `npm run conform`, which checks the embedded reference server): CONFORM_BASE_URL set but empty
 * (a CI variable or secret not set, which the shell or the runner gives as ''), or a key given,
 * which the embedded server, with a key of its own, would never use. Either way the run would pass
 * without a request to the service: exit 2, as the GitHub Action and the library refuse it.
 */
function addressMeant(config: Config, env: NodeJS.ProcessEnv, argv: readonly string[]): string | undefined {
  const keyFrom = config.apiKey === undefined ? undefined : apiKeyInArgv(argv) !== undefined ? '--api-key' : 'CONFORM_API_KEY'
  const embedded = 'the run would check the embedded reference server, not your service'
  if (env.CONFORM_BASE_URL !== undefined && env.CONFORM_BASE_URL.trim() === '') return `CONFORM_BASE_URL is set but empty (a CI variable or secret that is not set?) and no --base-url is given: ${embedded}; give the deployment's address, ending in /v1, or unset CONFORM_BASE_URL to check the embedded server`
  if (keyFrom !== undefined) return `a key is given (${keyFrom}) but no base URL: ${embedded}, with a key of its own; give --base-url (or CONFORM_BASE_URL), ending in /v1, or leave the key out to check the embedded server`
  return undefined
}

/**
 * The base URL a run whose options could not be read was given (--base-url, else CONFORM_BASE_URL),
 * for its reports, without its query or fragment; none when it is no URL or carries credentials, which are never shown.
 */
function baseUrlFallback(argv: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  let given: string | undefined
  argv.forEach((arg, i) => {
    if (arg === '--base-url' && i + 1 < argv.length) given = argv[i + 1]
    else if (arg.startsWith('--base-url=')) given = arg.slice('--base-url='.length)
  })
  given ??= env.CONFORM_BASE_URL || undefined
  if (given === undefined || !URL.canParse(given)) return undefined
  const url = new URL(given)
  // a token may ride in the query or fragment (a function URL's ?code=…), refused as user:password is
  return url.username === '' && url.password === '' ? given.replace(/[?#].*$/s, '') : undefined
}

/** What --version, --help or --list-rules prints (the first asked, in that order) when the arguments parse; undefined when they ask for none. */
function printOnly(argv: readonly string[]): { asked: string; text: () => string } | undefined {
  let flags: ReturnType<typeof parseFlags>
  try {
    flags = parseFlags(CONFORM_OPTIONS, argv, { emptyPaths: 'keep' }) // no path is read: --report-dir "" does not stop --help
  } catch {
    return undefined // loadConfig says what is wrong
  }
  if (flags.version) return { asked: '--version', text: () => toolVersion() + '\n' }
  if (flags.help) return { asked: '--help', text: () => USAGE + '\n' }
  return flags['list-rules'] ? { asked: '--list-rules', text: listRules } : undefined
}

/** Where a run whose arguments did not parse writes its reports: --report-dir if it can be read and names one (not ""), else the default. */
function reportDirFallback(argv: readonly string[], env: NodeJS.ProcessEnv): string {
  let dir: string | undefined
  argv.forEach((arg, i) => {
    if (arg === '--report-dir' && i + 1 < argv.length) dir = argv[i + 1]
    else if (arg.startsWith('--report-dir=')) dir = arg.slice('--report-dir='.length)
  })
  // "" (a variable that is not set) is refused, and its reports went into the folder the command ran in, over its own files
  return dir || env.CONFORM_REPORT_DIR || DEFAULTS.reportDir
}

/** The process around main(): last-resort error handling, exit code, no lingering sockets. */
export function runAsProgram(loadSuite: SuiteLoader, argv: string[] = process.argv.slice(2), caught?: NodeJS.Signals): void {
  // last resort: a fault that escaped main() is one redacted line and exit 2, never a stack trace
  const lastResort = (error: unknown) => {
    // its first line, and what a server's text quoted in it holds made visible (an escape, a carriage return), as every other line;
    // none where redacting it fails too (a fault of the redactor: its message, a pattern, spelled the key out, and Node printed it)
    let line = 'its text is not shown, as it could not be redacted'
    try {
      line = visibleLine(createRedactor(process.env.CONFORM_API_KEY, apiKeyInArgv(argv), ...secretsGiven())(String((error as Error)?.message ?? error)).split('\n')[0]!)
    } catch {}
    process.stderr.write(inertLogCommands(`conform: internal error: ${line}\n`))
    process.exit(2)
  }
  process.on('uncaughtException', lastResort)
  // a reader that stopped reading (`| head`) is no fault of the run: what is left of stdout is
  // dropped, and the exit code stays the verdict (it was "internal error: write EPIPE" and exit 2)
  process.stdout.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' ? undefined : lastResort(error)))
  // a stray rejection of a run's suite is a problem of that run, in its reports (lib/runner/stray-rejections.ts)
  process.on('unhandledRejection', (error) => (rejectionOwnedByARun() ? undefined : lastResort(error)))
  // SIGINT (Ctrl-C) and SIGTERM (a CI job cancelled): the run stops sending, writes its reports
  // and exits 130 or 143; a second signal, or a run that cannot stop within seconds, exits at once
  const interrupt = new AbortController()
  const handler = signalHandler(interrupt, INTERRUPT_EXIT, { write: (line) => void process.stderr.write(line), exit: (code) => process.exit(code), later: (ms, then) => void setTimeout(then, ms).unref() })
  const { onSignal, finished } = handler
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  // a signal bin/conform.mjs held while the program loaded: the run stops before it starts
  if (caught) handler.caught(caught)
  main(argv, loadSuite, processIo, process.env, interrupt.signal).then((code) => {
    finished()
    process.exitCode = code
    // whatever a library sets on its way out, the exit code is the verdict
    process.on('exit', () => void (process.exitCode = code))
    // the verdict is printed; a socket or timer left open by a misbehaving peer (or a check stuck
    // past the deadline) must not keep the process alive (unref: the timer itself keeps nothing alive)
    setTimeout(() => process.exit(code), 500).unref()
  })
}
