/**
 * Running a Node child and collecting what it did: the one spawn-and-collect helper of the tests and
 * scripts (test/helpers/run-conform.ts, scripts/bench/, test/bench/).
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/**
 * The environment without anything that could change a run: CI's own CONFORM_* or GITHUB_*,
 * proxies, and npm's own (INIT_CWD, npm_config_*): a child is `node bin/conform.mjs` from its cwd.
 */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (/^CONFORM_|^(HTTPS?|NO|ALL)_PROXY$|^GITHUB_|^npm_|^INIT_CWD$/i.test(name)) continue
    env[name] = value
  }
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) env[name] = value
  return env
}

export interface NodeRun {
  /** Exit code; null when killed (killAfterMs) or ended by a signal. */
  code: number | null
  stdout: string
  stderr: string
  /** performance.now() of this process at spawn and at the child's exit. */
  spawnedAt: number
  exitedAt: number
}

export interface NodeRunOptions {
  env?: NodeJS.ProcessEnv
  cwd?: string
  /** SIGKILL after this long. */
  killAfterMs?: number
  /** The executable; default this Node. */
  command?: string
  /** Sends this signal once stdout has shown `after`, or once `when` resolves (the user's Ctrl-C, a CI job cancelled). */
  interrupt?: Interrupt
}

/** A signal sent to the child once its stdout shows a text, or once an event (`when`: a server got a request) came. */
export type Interrupt = { signal: NodeJS.Signals; after: string } | { signal: NodeJS.Signals; when: Promise<unknown> }

/** Runs `node ...args` (or `command ...args`), stdin closed, and resolves once it has exited and its output is read. */
export function runNode(args: string[], options: NodeRunOptions = {}): Promise<NodeRun> {
  return new Promise((resolve) => {
    const spawnedAt = performance.now()
    const child = spawn(options.command ?? process.execPath, args, { cwd: options.cwd ?? ROOT, env: options.env ?? cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let interrupted = false
    child.stdout.on('data', (chunk) => {
      stdout += chunk
      if (options.interrupt && 'after' in options.interrupt && !interrupted && stdout.includes(options.interrupt.after)) {
        interrupted = true
        child.kill(options.interrupt.signal)
      }
    })
    if (options.interrupt && 'when' in options.interrupt) {
      const { signal, when } = options.interrupt
      void when.then(() => child.exitCode === null && child.signalCode === null && child.kill(signal))
    }
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 120_000)
    let exitedAt = 0
    child.on('exit', () => (exitedAt = performance.now()))
    child.on('close', (code) => {
      clearTimeout(killer)
      resolve({ code, stdout, stderr, spawnedAt, exitedAt: exitedAt || performance.now() })
    })
  })
}
