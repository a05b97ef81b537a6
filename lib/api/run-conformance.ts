/**
 * The programmatic front door: one conformance run made as `npm run conform` makes it (options
 * through the same loader, the same preflight, the embedded reference server without a base URL,
 * then lib/runner/conform-run.ts), but handing back the run's result instead of exiting, writing
 * report files only when `reportDir` is given, and throwing ConformanceConfigError or
 * ConformanceRunError where the command line exits 2. The suites come from the caller (the package
 * entry, entry/index.ts), as bin/conform.mjs hands them to the command line: lib/ never imports suites/.
 */
import { randomBytes } from 'node:crypto'
import { resolve } from 'node:path'
import { secretValues } from '../config/extra-headers.ts'
import { createRedactor } from '../http/redact.ts'
import { redactedResult, type RunResult } from '../result/run-result.ts'
import type { RunTarget, SuiteManifest } from '../runner/conform-run.ts'
import { preflight } from '../runner/preflight.ts'
import { reportDirProblem } from '../runner/report-files.ts'
import type { RunningServer } from '../server/reference-server.ts'
import { describeWritePlan } from '../suite-kit/write-plan.ts'
import { ConformanceError, ConformanceRunError } from './errors.ts'
import { configFromOptions, resolveBaseUrl, type ConformanceOptions } from './options.ts'

/** A run's result (what results.json holds, redacted), its terminal summary, the report files written (if any) and the write plan it said first. */
export interface ConformanceRun {
  result: RunResult
  summary: string
  reportFiles: string[]
  /** What the command line says before it sends anything: the POSTs it may send ("Writes: …"). */
  writePlan: string
}

export async function runConformanceWith(manifest: SuiteManifest, options: ConformanceOptions = {}): Promise<ConformanceRun> {
  // --deadline counts from here, as from the command's start: the preflight and a server's start are part of the run
  const startedAt = Date.now()
  const environment = options.environment ?? process.env
  const cwd = options.cwd ?? process.cwd()
  const config = configFromOptions(options, await resolveBaseUrl(options.baseUrl), environment, cwd)
  config.deadlineAt = startedAt + config.deadlineMs
  const redact = createRedactor(config.apiKey, environment.CONFORM_API_KEY, ...secretValues(config.headers))
  // report files only when asked: a library call leaves no folder behind by default
  const writeFiles = options.reportDir !== undefined
  if (writeFiles) {
    const unwritable = reportDirProblem(resolve(cwd, config.reportDir))
    if (unwritable) throw new ConformanceRunError(redact(unwritable))
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
      server = await startReferenceServer({ apiKey: randomBytes(24).toString('base64url') })
      target = { baseUrl: server.baseUrl, apiKey: server.apiKey, embeddedServer: true }
    } else {
      target = { baseUrl: config.baseUrl, apiKey: config.apiKey as string, embeddedServer: false }
      const unreachable = await preflight(target.baseUrl, Math.max(1, Math.min(config.timeoutMs, 10_000, config.deadlineAt - Date.now())), { ...environment })
      notInterrupted()
      if (unreachable) throw new ConformanceRunError(redact(unreachable.message))
    }
    const { runConformance, planWrites } = await import('../runner/conform-run.ts')
    notInterrupted()
    const writePlan = describeWritePlan(planWrites(config, manifest), config)
    // no GitHub Actions output from a library call (an empty environment): the command line speaks to the job, not a test run inside it
    const output = await runConformance(config, target, manifest, {}, signal, { files: writeFiles })
    return { result: redactedResult(output.result, redact), summary: output.summary, reportFiles: output.reportFiles, writePlan }
  } catch (error) {
    if (error instanceof ConformanceError) throw error
    throw new ConformanceRunError(`the run could not be made: ${redact((error as Error)?.message ?? String(error))}`)
  } finally {
    await server?.close()
  }
}
