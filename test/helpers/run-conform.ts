/**
 * Runs the real entry point of `npm run conform` as a child process (the same code path a user
 * gets) and hands back exit code, output and the reports it wrote.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RunResult } from '../../lib/result/run-result.ts'
import { cleanEnv, ROOT, runNode } from './child-process.ts'

export { ROOT }
/** What `npm run conform` runs: dist/ (npm run build) while it matches the sources, else the sources through tsx. */
export const CONFORM_BIN = join(ROOT, 'bin/conform.mjs')

export interface ConformRun {
  code: number | null
  stdout: string
  stderr: string
  reportDir: string
  /** results.json, when the run wrote one. */
  results?: RunResult
  /** Every file the run wrote to its report directory, by name. */
  files: Record<string, string>
  cleanup(): void
}

export interface RunOptions {
  env?: Record<string, string | undefined>
  cwd?: string
  /** Kill the child after this long (the test then fails on code null). */
  killAfterMs?: number
}

export async function runConform(args: string[], options: RunOptions = {}): Promise<ConformRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'conform-report-'))
  const { code, stdout, stderr } = await runNode([CONFORM_BIN, '--report-dir', reportDir, ...args], {
    cwd: options.cwd ?? ROOT,
    env: cleanEnv(options.env ?? {}),
    killAfterMs: options.killAfterMs ?? 120_000,
  })
  const files: Record<string, string> = {}
  for (const name of ['results.json', 'junit.xml', 'report.html', 'summary.md']) {
    const path = join(reportDir, name)
    if (existsSync(path)) files[name] = readFileSync(path, 'utf8')
  }
  return {
    code,
    stdout,
    stderr,
    reportDir,
    files,
    ...(files['results.json'] ? { results: JSON.parse(files['results.json']) as RunResult } : {}),
    cleanup: () => rmSync(reportDir, { recursive: true, force: true }),
  }
}

/** Ids of the must-rules that failed in a run. */
export function failedRules(run: ConformRun): string[] {
  return (run.results?.rules ?? []).filter((r) => r.status === 'fail').map((r) => r.id)
}
