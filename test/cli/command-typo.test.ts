/**
 * A command mistyped (`merg`, `Merge`) is said to be one, and leaves nothing behind: before, it was
 * "unexpected argument" and the reports of a run that could not be made went into the --report-dir
 * meant for merge, whose results.json then made the merge typed right after refuse that folder.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { main } from '../../lib/cli/conform.ts'
import { resultsFileOf } from '../../lib/result/results-file.ts'
import { runResult } from '../reporters/fixture.ts'
import { cleanEnv } from '../helpers/child-process.ts'

const fleet = mkdtempSync(join(tmpdir(), 'conform-command-typo-'))
afterAll(() => rmSync(fleet, { recursive: true, force: true }))

async function conform(args: string[]) {
  let stdout = ''
  let stderr = ''
  const io = { out: (t: string) => void (stdout += t), err: (t: string) => void (stderr += t) }
  const code = await main(args, () => Promise.reject(new Error('no suite is loaded for a command')), io, { ...cleanEnv(), INIT_CWD: fleet })
  return { code, stdout, stderr }
}

test.each([
  ['merg', 'merge'],
  ['Merge', 'merge'],
  ['mrege', 'merge'],
  ['compar', 'compare'],
])('%s: "did you mean %s?", exit 2, and the merge typed next still runs', async (typed, meant) => {
  // the folders of a CI matrix's jobs, each a run's reports
  for (const label of ['eu', 'us']) {
    mkdirSync(join(fleet, label), { recursive: true })
    writeFileSync(join(fleet, label, 'results.json'), JSON.stringify(resultsFileOf(runResult())))
  }
  const typo = await conform([typed, join(fleet, 'eu'), join(fleet, 'us'), '--report-dir', fleet])
  expect(typo.code).toBe(2)
  expect(typo.stderr).toBe(`conform: unknown command "${typed}" (did you mean ${meant}?); see --help\n`)
  expect(existsSync(join(fleet, 'results.json'))).toBe(false)
  const merged = await conform(['merge', join(fleet, 'eu'), join(fleet, 'us'), '--report-dir', fleet])
  expect(merged.code, merged.stderr).toBe(0)
  expect(existsSync(join(fleet, 'fleet.json'))).toBe(true)
})

test('an address given without --base-url is no command: the message gives the command with --base-url', async () => {
  const run = await conform(['https://staging.petstore.example/v1', '--report-dir', join(fleet, 'address')])
  expect(run.code).toBe(2)
  expect(run.stderr).toMatch(/^conform: https:\/\/staging\.petstore\.example\/v1 is given without --base-url before it: --base-url https:\/\/staging\.petstore\.example\/v1/)
})
