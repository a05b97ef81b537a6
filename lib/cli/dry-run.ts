/**
 * `--dry-run`: what a run with these options would send, before anything is sent. The run core
 * (lib/runner/conform-run.ts) makes the run as asked, against the embedded reference server on
 * loopback (the deployment's base path, the key given, the same seed), never the base URL: no
 * preflight, no proxy, no client certificate, no --rate-limit (pacing changes no request). Its
 * journal, every request's headers included, is the plan (lib/reporters/dry-run.ts): printed, and
 * written to dry-run.md and dry-run.json in --report-dir, beside whatever reports are there.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import type { Config } from '../config/config.ts'
import { DRY_RUN_FILES } from '../runner/report-files.ts'
import { dryRunMarkdown, dryRunPlan, dryRunTerminal } from '../reporters/dry-run.ts'
import { describeWritePlan } from '../suite-kit/write-plan.ts'
import type { SuiteManifest } from '../runner/conform-run.ts'
import { portableJson } from '../json/portable-json.ts'

export interface DryRunIo {
  out(text: string): void
  err(text: string): void
}

/**
 * Makes the dry run and shows its plan; returns the exit code: 0, or 2 when the plan could not be made
 * whole. `redact`: the command line's (every key given): a key in the base URL's path, or in the report
 * folder's, is shown as a real run shows it, never as given.
 */
export async function dryRun(config: Config, suiteLoaded: Promise<SuiteManifest>, io: DryRunIo, redact: (text: string) => string, interrupt?: AbortSignal): Promise<number> {
  const [{ runConformance, planWrites, repeatBudgetProblem }, suite] = await Promise.all([import('../runner/conform-run.ts'), suiteLoaded])
  // the refusals the run would meet before any request are the dry run's too
  const tooSmall = repeatBudgetProblem(planWrites({ ...config, maxWrites: undefined }, suite), config.repeat ?? 1, config.maxWrites, config.writesFrom?.maxWrites)
  if (tooSmall) {
    io.err(`conform: ${tooSmall}\n`)
    return 2
  }
  // the run's requests are the same with it; what it would record are a real run's failures, and none is judged here
  if (config.updateBaseline) io.err(`conform: note: --update-baseline: a dry run judges nothing and writes no baseline; ${redact(config.baseline?.path ?? '')} is left as it is\n`)
  const writes = describeWritePlan(planWrites(config, suite), config, config.writesFrom)
  const basePath = config.baseUrl === undefined ? '/v1' : new URL(config.baseUrl).pathname.replace(/\/+$/, '')
  const { startReferenceServer } = await import('../server/reference-server.ts')
  // the key given, so that the credential cases its shape decides (suites/cases/credentials.ts) are the run's; it goes to this process's own server only
  const server = await startReferenceServer({ ...(config.apiKey !== undefined ? { apiKey: config.apiKey } : {}), basePath })
  try {
    const { tls: _tls, rateLimit: _rateLimit, ...asked } = config
    const run = await runConformance({
      config: asked,
      target: { baseUrl: server.baseUrl, apiKey: server.apiKey, embeddedServer: true },
      suite,
      env: {},
      strays: 'runs-under-way',
      journalEveryHeader: true,
      ...(interrupt ? { interrupt } : {}),
    })
    const plan = dryRunPlan(run.result, config.baseUrl ?? '(the embedded reference server)', server.baseUrl, writes, redact)
    const reportDir = resolve(config.workingDir, config.reportDir)
    mkdirSync(reportDir, { recursive: true })
    for (const file of DRY_RUN_FILES) rmSync(join(reportDir, file), { force: true })
    // as results.json is written: the suite's own bodies hold C1 controls and bidi overrides (create-unicode), raw in a file a step prints
    writeFileSync(join(reportDir, 'dry-run.json'), portableJson(plan, 2) + '\n')
    writeFileSync(join(reportDir, 'dry-run.md'), dryRunMarkdown(plan))
    io.out(dryRunTerminal(plan, DRY_RUN_FILES.map((file) => redact(relative(config.workingDir, join(reportDir, file)) || file))))
    return plan.cutShort ? 2 : 0
  } finally {
    await server.close()
  }
}
