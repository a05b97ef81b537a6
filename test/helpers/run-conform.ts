/**
 * Runs the real entry point of `npm run conform` as a child process (the same code path a user
 * gets) and hands back exit code, output and the reports it wrote.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { RunResult } from '../../lib/reporters/run-result.ts'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
/** What `npm run conform` runs: packages loaded by plain Node, then tsx for the project's own code. */
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

/** Environment without anything that could change the run (CI's own CONFORM_* or proxies). */
function cleanEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (/^CONFORM_|^(HTTPS?|NO|ALL)_PROXY$|^GITHUB_/i.test(name)) continue
    env[name] = value
  }
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) env[name] = value
  return env
}

export async function runConform(args: string[], options: RunOptions = {}): Promise<ConformRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'conform-report-'))
  const child = spawn(process.execPath, [CONFORM_BIN, '--report-dir', reportDir, ...args], {
    cwd: options.cwd ?? ROOT,
    env: cleanEnv(options.env ?? {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 120_000)
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  clearTimeout(killer)
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
