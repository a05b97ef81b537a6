/**
 * A reader that stops reading (`npm run conform -- --list-rules | head`, `| head -40` on a run):
 * stdout's pipe is closed before the program writes. That is no fault of the run: nothing on stderr,
 * and the exit code is the verdict. It was "conform: internal error: write EPIPE" (exit 2 for a
 * passing run), and a stack trace with exit 1 from `npm run serve -- --list-mutations | head`.
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { cleanEnv, ROOT } from '../helpers/child-process.ts'
import { scratchDir } from '../helpers/scratch-dir.ts'

/** Runs `node ...args` with its stdout's read end closed at once: its first write meets EPIPE. */
function withStdoutClosed(args: string[], env: NodeJS.ProcessEnv = cleanEnv()): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.destroy()
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('close', (code) => resolve({ code, stderr }))
  })
}

const servers: RunningServer[] = []
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()))
})

describe('stdout closed by its reader', () => {
  test.each([['--list-rules'], ['--help']])('conform %s: exit 0, nothing on stderr', async (flag) => {
    const run = await withStdoutClosed(['bin/conform.mjs', flag])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
  })

  test('a run: its verdict is the exit code (1 for a mutation it catches), its reports written, nothing on stderr', async () => {
    const key = `k-${randomBytes(9).toString('hex')}`
    const mutation = MUTATIONS.find((m) => m.name === 'create-answers-200')!
    const server = await startReferenceServer({ apiKey: key, behaviour: mutation.behaviour })
    servers.push(server)
    const dir = scratchDir('closed-stdout')
    const run = await withStdoutClosed(['bin/conform.mjs', '--base-url', server.baseUrl, '--report-dir', dir, '--confirm', '0'], cleanEnv({ CONFORM_API_KEY: key }))
    expect(run.stderr).toBe('')
    expect(run.code).toBe(1)
    expect(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')).exitCode).toBe(1)
  })

  test('npm run serve -- --list-mutations: exit 0, no stack trace', async () => {
    const run = await withStdoutClosed(['--import', 'tsx', 'lib/cli/serve.ts', '--list-mutations'])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
  })
})
