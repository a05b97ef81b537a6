/**
 * A signal held while the command loaded (bin/held-signals.mjs), before a command that makes no
 * run: compare, merge, --help, --version, --list-rules, --dry-run. The signal was swallowed: merge
 * wrote its fleet page and exited 0, a dry run replaced the folder's plan with an empty one "cut
 * short by --deadline" and exited 2, --version printed and exited 0, where Node's default had ended
 * the process (130, nothing written). Now each ends with the signal's exit code, doing nothing.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { main } from '../../lib/cli/conform.ts'
import { resultsFileOf } from '../../lib/result/results-file.ts'
import { runResult } from '../reporters/fixture.ts'
import { cleanEnv } from '../helpers/child-process.ts'

const work = mkdtempSync(join(tmpdir(), 'conform-signal-held-commands-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))
for (const label of ['eu', 'us']) {
  mkdirSync(join(work, label), { recursive: true })
  writeFileSync(join(work, label, 'results.json'), JSON.stringify(resultsFileOf(runResult())))
}

async function heldThen(args: string[], signal: 'SIGINT' | 'SIGTERM') {
  let stdout = ''
  let stderr = ''
  const io = { out: (t: string) => void (stdout += t), err: (t: string) => void (stderr += t) }
  const interrupt = new AbortController()
  interrupt.abort(signal)
  const code = await main(args, () => Promise.reject(new Error('no suite is loaded for a command')), io, { ...cleanEnv(), INIT_CWD: work }, interrupt.signal)
  return { code, stdout, stderr }
}

test.each([
  ['merge', ['merge', 'eu', 'us', '--report-dir', 'fleet'], 'SIGINT', 130],
  ['compare', ['compare', 'eu', 'us'], 'SIGTERM', 143],
  ['--version', ['--version'], 'SIGINT', 130],
  ['--help', ['--help'], 'SIGTERM', 143],
  ['--list-rules', ['--list-rules'], 'SIGINT', 130],
  ['the dry run', ['--dry-run', '--report-dir', 'planned'], 'SIGINT', 130],
] as const)('%s after a held signal: its exit code, nothing printed or written', async (what, args, signal, exit) => {
  mkdirSync(join(work, 'planned'), { recursive: true })
  writeFileSync(join(work, 'planned', 'dry-run.md'), 'an earlier dry run\'s whole plan')
  const run = await heldThen([...args], signal)
  expect(run.code, run.stderr).toBe(exit)
  expect(run.stdout).toBe('')
  expect(run.stderr).toBe(`conform: interrupted by ${signal} before ${what} started: nothing done\n`)
  expect(existsSync(join(work, 'fleet'))).toBe(false)
  expect(existsSync(join(work, 'reports'))).toBe(false)
  expect(readFileSync(join(work, 'planned', 'dry-run.md'), 'utf8')).toBe('an earlier dry run\'s whole plan')
})
