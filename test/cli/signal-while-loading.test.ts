/**
 * A signal while the command's modules load (half a second; 3 s on a loaded machine), before its
 * handler of SIGINT and SIGTERM was set: Node's default ended the process at once, without a word,
 * and the report folder kept an earlier run's results.json (its PASS) as this run's. Now
 * bin/conform.mjs holds the signal from its first import (bin/held-signals.mjs): it says so, the run stops before it starts
 * and its reports say so, with the signal's exit code, at once (at a load of 20 the program took
 * more than 3 s to load after the signal, and the runner, suites and server after it more: it
 * waits up to 10 s for loading, then writes its reports before loading anything more); a second
 * signal exits at once. The signal
 * is sent by a module loader hook, as the command line's module is loaded.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, expect, test } from 'vitest'
import { cleanEnv, runNode } from '../helpers/child-process.ts'
import { CONFORM_BIN } from '../helpers/run-conform.ts'

const scratch = mkdtempSync(join(tmpdir(), 'conform-signal-loading-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

// the hooks run in a thread of their own: the signal reaches the process while its import waits
writeFileSync(
  join(scratch, 'hooks.mjs'),
  `let sent = false
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
export async function load(url, context, next) {
  if (!sent && new RegExp(process.env.SIGNAL_AT_MODULE).test(url)) {
    sent = true
    for (const signal of process.env.SIGNALS_WHILE_LOADING.split(',')) {
      process.kill(process.pid, signal)
      await pause(300)
    }
  }
  return next(url, context)
}
`,
)
writeFileSync(join(scratch, 'register.mjs'), `import { register } from 'node:module'\nregister(${JSON.stringify(pathToFileURL(join(scratch, 'hooks.mjs')).href)})\n`)

/** The modules the signals come at: the command line's own, and the first bin/conform.mjs imports after the one that holds them. */
const COMMAND_LINE = String.raw`/lib/cli/conform\.(js|ts)$`
const SOURCE_DIGEST = String.raw`/build/source-digest\.mjs$`

async function whileLoading(signals: string, reportDir: string, at = COMMAND_LINE) {
  // an earlier run's PASS, which the folder must not keep as this run's
  writeFileSync(join(reportDir, 'results.json'), '{"verdict":"pass","exitCode":0}')
  return runNode(['--import', pathToFileURL(join(scratch, 'register.mjs')).href, CONFORM_BIN, '--report-dir', reportDir], {
    env: cleanEnv({ SIGNALS_WHILE_LOADING: signals, SIGNAL_AT_MODULE: at }),
    killAfterMs: 60_000,
  })
}

test.each([
  ['the command line', COMMAND_LINE],
  // before the held signals were the entry's first import, this one's node:crypto loaded first, unguarded
  ['the digest of the sources, the entry\'s first module after the one that holds signals', SOURCE_DIGEST],
])('SIGINT while %s loads: said at once, then reports that the run was stopped before it started, exit 130', { timeout: 60_000 }, async (_, at) => {
  const reportDir = mkdtempSync(join(scratch, 'int-'))
  const run = await whileLoading('SIGINT', reportDir, at)
  expect(run.code, run.stderr).toBe(130)
  expect(run.stderr).toContain("conform: SIGINT while starting: stopping before any request; a run's reports will say so (SIGINT again: exit at once, without them)\n")
  expect(run.stderr).toContain('conform: interrupted by SIGINT before the run started\n')
  const results = JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) as { verdict: string; exitCode: number; error: string }
  expect(results).toMatchObject({ verdict: 'error', exitCode: 130, error: 'interrupted by SIGINT before the run started' })
  expect(readFileSync(join(reportDir, 'summary.md'), 'utf8')).toContain('The conformance run was stopped before it started (exit 130)')
  expect(readFileSync(join(reportDir, 'junit.xml'), 'utf8')).toContain('interrupted by SIGINT before the run started')
})

test('SIGTERM twice while the command loads: the second exits at once with 143, saying that no request was sent', { timeout: 60_000 }, async () => {
  const reportDir = mkdtempSync(join(scratch, 'term-'))
  const run = await whileLoading('SIGTERM,SIGTERM', reportDir)
  expect(run.code, run.stderr).toBe(143)
  expect(run.stderr).toContain('conform: SIGTERM again: exiting now, without the reports; no request was sent\n')
})
