/**
 * One deployment of a fleet, start to reports, by the single run's runner (lib/runner/conform-run.ts):
 * its preflight, its run with its own configuration (key, write budget, pacing), its journal in its
 * report folder, its reports. Its exit code lands in its results.json, which the fleet reads back
 * (lib/fleet/fleet-run.ts). The same code judges a deployment on the fleet's own thread and in a
 * worker thread (lib/fleet/fleet-worker.ts). Never throws: a run that cannot be made writes reports
 * that say why.
 */
import { join, resolve } from 'node:path'
import { toolVersion } from '../project-root.ts'
import type { SuiteManifest } from '../runner/conform-run.ts'
import { writeCannotRunReports } from '../runner/cannot-run-reports.ts'
import { preflight } from '../runner/preflight.ts'
import { clearReports, JOURNAL_FILE } from '../runner/report-files.ts'
import type { FleetDeploymentConfig } from './targets.ts'

export const fleetTool = () => ({ name: 'petstore-categories-conformance', version: toolVersion() })

export interface JudgeContext {
  runner: typeof import('../runner/conform-run.ts')
  suite: SuiteManifest
  /** The command's environment: the preflight reads its proxy from it. */
  env: NodeJS.ProcessEnv
  /** The runs' environment (no GitHub Actions output: that is the fleet's to write, once). */
  runEnv: NodeJS.ProcessEnv
  /** When every deployment's --deadline falls (epoch ms). */
  deadlineAt: number
  startedAt: Date
  userCwd: string
  redact: (text: string) => string
  interrupt?: AbortSignal
}

/** Reports that say the deployment could not be judged, and why. */
export function writeNotJudged(d: FleetDeploymentConfig, reason: string, ctx: Pick<JudgeContext, 'userCwd' | 'redact' | 'startedAt'>): void {
  writeCannotRunReports(d.config.reportDir, ctx.userCwd, { tool: fleetTool(), reason: ctx.redact(reason), startedAt: ctx.startedAt, baseUrl: ctx.redact(d.config.baseUrl as string) })
}

export async function judgeDeployment(d: FleetDeploymentConfig, ctx: JudgeContext): Promise<void> {
  const { config } = d
  const { interrupt } = ctx
  const baseUrl = config.baseUrl as string
  try {
    const unreachable = await preflight(baseUrl, Math.max(1, Math.min(config.timeoutMs, 10_000, ctx.deadlineAt - Date.now())), ctx.env)
    if (unreachable) return writeNotJudged(d, unreachable.message, ctx)
    if (interrupt?.aborted) return writeNotJudged(d, `interrupted by ${interrupt.reason} before the run started`, ctx)
    // an earlier run's files go first, so that none is read as this run's; the journal is written as the run goes
    const reportDir = resolve(ctx.userCwd, config.reportDir)
    clearReports(reportDir)
    const run = await ctx.runner.runConformance({
      config,
      target: { baseUrl, apiKey: config.apiKey as string, embeddedServer: false },
      suite: ctx.suite,
      env: ctx.runEnv,
      deadlineAt: ctx.deadlineAt,
      journalFile: join(reportDir, JOURNAL_FILE),
      ...(interrupt ? { interrupt } : {}),
    })
    const { writeRunReports } = await ctx.runner.loadReports()
    writeRunReports(run, config, ctx.runEnv)
  } catch (error) {
    writeNotJudged(d, `the run could not be made: ${(error as Error).message ?? String(error)}`, ctx)
  }
}
