/**
 * --help, --version and --list-rules make no run: they print whatever a setting of the
 * environment or a .env file holds. A bad one (`CONFORM_TIMEOUT_MS=5s`, `--timeout 5` beside
 * --help) refused them with exit 2, and wrote the reports of a run not made over the last run's.
 */
import { expect, test } from 'vitest'
import { runConformInProcess } from '../helpers/run-conform.ts'

test.each([
  ['--help, CONFORM_TIMEOUT_MS=5s in the environment', ['--help'], { CONFORM_TIMEOUT_MS: '5s' }, /^Usage: petstore-conform/],
  ['--help beside --timeout 5', ['--help', '--timeout', '5'], {}, /^Usage: petstore-conform/],
  ['--version, CONFORM_READ_ONLY=maybe', ['--version'], { CONFORM_READ_ONLY: 'maybe' }, /^\d+\.\d+\.\d+\n$/],
  ['--list-rules, CONFORM_CONCURRENCY=abc', ['--list-rules'], { CONFORM_CONCURRENCY: 'abc' }, /list-returns-200/],
  // a variable that is not set (--report-dir "$REPORTS") refused --help, and wrote a run-not-made's reports into ./reports
  ['--help beside --report-dir ""', ['--help', '--report-dir', ''], {}, /^Usage: petstore-conform/],
  ['--version beside --baseline=', ['--version', '--baseline='], {}, /^\d+\.\d+\.\d+\n$/],
  ['--list-rules beside --targets ""', ['--targets', '', '--list-rules'], {}, /list-returns-200/],
])('%s: printed, exit 0, no report written', async (_, args, env, prints) => {
  const run = await runConformInProcess(args, { env })
  run.cleanup()
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
  expect(run.stdout).toMatch(prints)
  expect(run.files).toEqual({})
})
