/**
 * A path option given empty, as a CI variable that is not set leaves it (`--report-dir "$REPORTS"`):
 * `--report-dir ""` wrote the reports into the folder the command ran in, over a summary.md or a
 * results.json of the repository's own, and `--baseline ""`, `--targets ""`, `--ca-cert ""` said
 * that the folder "is a directory". Each is now refused, one line naming the flag, exit 2, nothing written.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { CONFORM_OPTIONS } from '../../lib/config/conform-options.ts'
import { ConfigError, loadConfig } from '../../lib/config/config.ts'
import { OptionError, type OptionSpec } from '../../lib/config/options.ts'
import { cleanEnv, runNode } from '../helpers/child-process.ts'
import { CONFORM_BIN } from '../helpers/run-conform.ts'

const work = mkdtempSync(join(tmpdir(), 'conform-empty-paths-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const PATHS = (CONFORM_OPTIONS as readonly OptionSpec[]).filter((o) => o.value === 'FILE' || o.value === 'DIR')

test('the path options are the ones expected', () => {
  expect(PATHS.map((o) => o.flag).sort()).toEqual(['baseline', 'ca-cert', 'client-cert', 'client-key', 'report-dir', 'targets'])
})

test.each(PATHS.map((o) => [o.flag, o.value === 'DIR' ? 'folder' : 'file'] as const))('--%s "": refused, naming no %s', (flag, what) => {
  let error: unknown
  try {
    loadConfig([`--${flag}`, ''], {}, work)
  } catch (e) {
    error = e
  }
  expect(error instanceof ConfigError || error instanceof OptionError).toBe(true)
  expect((error as Error).message).toBe(`--${flag} "" names no ${what} (a variable that is not set, as in --${flag} "$VARIABLE"?); see --help`)
})

test('--report-dir "" in a folder holding summary.md of its own: exit 2, one line, its reports in reports/, summary.md untouched', async () => {
  const folder = mkdtempSync(join(work, 'repo-'))
  writeFileSync(join(folder, 'summary.md'), 'the team\'s own summary\n')
  const run = await runNode([CONFORM_BIN, '--report-dir', '', '--rule', 'list-returns-200'], { cwd: folder, env: cleanEnv() })
  expect(run.code).toBe(2)
  expect(run.stdout).toBe('')
  expect(run.stderr).toBe('conform: --report-dir "" names no folder (a variable that is not set, as in --report-dir "$VARIABLE"?); see --help\n')
  // the reports of an exit 2 go where no --report-dir puts them
  expect(readdirSync(folder).sort()).toEqual(['reports', 'summary.md'])
  expect(JSON.parse(readFileSync(join(folder, 'reports/results.json'), 'utf8'))).toMatchObject({ exitCode: 2 })
  expect(readFileSync(join(folder, 'summary.md'), 'utf8')).toBe('the team\'s own summary\n')
}, 60_000)

test('--targets "" beside --base-url: the same line, no fleet started', async () => {
  const folder = mkdtempSync(join(work, 'fleet-'))
  const run = await runNode([CONFORM_BIN, '--targets=', '--report-dir', join(folder, 'out')], { cwd: folder, env: cleanEnv() })
  expect(run.code).toBe(2)
  expect(run.stderr).toBe('conform: --targets "" names no file (a variable that is not set, as in --targets "$VARIABLE"?); see --help\n')
}, 60_000)
