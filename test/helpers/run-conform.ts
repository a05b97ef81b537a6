/**
 * Runs `npm run conform` and hands back exit code, output and the reports it wrote: as a child
 * process, through its real entry point (bin/conform.mjs, the same code path a user gets), or in
 * this process, through the `main()` that entry point calls (lib/cli/conform.ts) with the same
 * compiled code, when a test needs only the run's verdict and reports. A run in this process saves
 * Node's start and the loading of the command line, the suites and their modules, most of a run's
 * CPU time, which the kill matrix would pay once for each of its cases (issue 12).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll } from 'vitest'
import { distIsCurrent } from '../../build/source-digest.mjs'
import type { main as conformMain, SuiteLoader } from '../../lib/cli/conform.ts'
import type { RunResult } from '../../lib/result/run-result.ts'
import { resultFromFile } from '../../lib/result/results-file.ts'
import { cleanEnv, ROOT, runNode, type Interrupt } from './child-process.ts'

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
  /** Signal the child once its stdout shows a text, or once an event came (child runs only). */
  interrupt?: Interrupt
}

export async function runConform(args: string[], options: RunOptions = {}): Promise<ConformRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'conform-report-'))
  const { code, stdout, stderr } = await runNode([CONFORM_BIN, '--report-dir', reportDir, ...args], {
    cwd: options.cwd ?? ROOT,
    env: cleanEnv(options.env ?? {}),
    killAfterMs: options.killAfterMs ?? 120_000,
    ...(options.interrupt ? { interrupt: options.interrupt } : {}),
  })
  return collected(reportDir, code, stdout, stderr)
}

interface Entry {
  main: typeof conformMain
  loadSuite: SuiteLoader
}
let entry: Promise<Entry> | undefined

/**
 * What bin/conform.mjs would run: dist/ while it matches the sources (npm test builds it first),
 * else the sources. From dist/, the run imports the compiled suites natively, as a user's run
 * does; from the sources, through the test's own transform.
 */
function loadEntry(): Promise<Entry> {
  entry ??= (async () => {
    if (distIsCurrent(ROOT)) {
      const dist = (path: string) => pathToFileURL(join(ROOT, 'dist', path)).href
      const cli = (await import(/* @vite-ignore */ dist('lib/cli/conform.js'))) as Entry
      return { main: cli.main, loadSuite: () => import(/* @vite-ignore */ dist('suites/manifest.js')).then((m) => m.manifest) }
    }
    const cli = await import('../../lib/cli/conform.ts')
    return { main: cli.main, loadSuite: () => import('../../suites/manifest.ts').then((m) => m.manifest) }
  })()
  return entry
}

/**
 * `npm run conform ARGS` in this process: the command line's main() with the arguments, a clean
 * environment (cleanEnv) and its output captured. Not for what only a process shows (exit by
 * signal, npm's arguments, the working directory, stray sockets): runConform is. The run reads
 * proxies from `env`, as it reads everything else of its environment.
 */
export async function runConformInProcess(args: string[], options: Pick<RunOptions, 'env'> = {}): Promise<ConformRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'conform-report-'))
  const { main, loadSuite } = await loadEntry()
  let stdout = ''
  let stderr = ''
  const io = { out: (text: string) => void (stdout += text), err: (text: string) => void (stderr += text) }
  const env = { ...cleanEnv(options.env ?? {}), INIT_CWD: ROOT }
  const code = await main(['--report-dir', reportDir, ...args], loadSuite, io, env)
  return collected(reportDir, code, stdout, stderr)
}

function collected(reportDir: string, code: number | null, stdout: string, stderr: string): ConformRun {
  const files: Record<string, string> = {}
  for (const name of ['results.json', 'junit.xml', 'report.html', 'summary.md', 'journal.ndjson']) {
    const path = join(reportDir, name)
    if (existsSync(path)) files[name] = readFileSync(path, 'utf8')
  }
  return {
    code,
    stdout,
    stderr,
    reportDir,
    files,
    ...(files['results.json'] ? { results: resultFromFile(JSON.parse(files['results.json']) as RunResult) } : {}),
    cleanup: () => rmSync(reportDir, { recursive: true, force: true }),
  }
}

/** Ids of the must-rules that failed in a run. */
export function failedRules(run: ConformRun): string[] {
  return (run.results?.rules ?? []).filter((r) => r.status === 'fail').map((r) => r.id)
}

/**
 * Whole runs in this process with one key (`--seed 1`), against servers the test file starts and
 * hands to `serve`: at the end of the file the servers are closed and the runs' folders removed.
 */
export function runsWithKey(apiKey: string): { serve<S extends { close(): Promise<void> }>(server: S): S; conform(server: { baseUrl: string }, ...args: string[]): Promise<ConformRun> } {
  const servers: { close(): Promise<void> }[] = []
  const runs: ConformRun[] = []
  afterAll(async () => {
    runs.forEach((r) => r.cleanup())
    await Promise.all(servers.map((s) => s.close()))
  })
  return {
    serve: (server) => (servers.push(server), server),
    conform: async (server, ...args) => {
      const run = await runConformInProcess(['--base-url', server.baseUrl, '--seed', '1', ...args], { env: { CONFORM_API_KEY: apiKey } })
      runs.push(run)
      return run
    },
  }
}
