/**
 * defineConformance()'s relative paths (baseline, reportDir, .env files) start at the root of the
 * vitest project that runs the test file, as vitest's own do, not at the folder vitest was started
 * in. A monorepo whose vitest runs from its top (`projects: ['packages/*']`, or `--root
 * packages/svc`) read `baseline: 'conform-baseline.json'` from the top, while the same file run
 * from the package read the package's: "cannot read the baseline /repo/conform-baseline.json: no
 * such file (updateBaseline: true writes one)", and updateBaseline wrote one at the top, beside
 * no package. A baseline written is said on the file's stderr: vitest's default reporter showed
 * a green file and nothing of the file written in the repository.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { RUN_TEST_NAME } from '../../lib/api/define-conformance.ts'
import { projectRoot } from '../../lib/api/vitest-collection.ts'
import { cleanEnv, runNode } from '../helpers/child-process.ts'
import { ROOT } from '../helpers/run-conform.ts'
import { scratchDir } from '../helpers/scratch-dir.ts'
import { entryFiles } from './api-entry.ts'
import type { Assertion } from './child-vitest.ts'

test('the vitest project\'s root, from the worker state vitest 3, 4 and 5 keep; undefined outside vitest', () => {
  expect(projectRoot(() => ({ config: { root: '/repo/packages/svc' } }))).toBe('/repo/packages/svc')
  expect(projectRoot(() => undefined)).toBeUndefined()
  expect(projectRoot(() => ({ config: {} }))).toBeUndefined()
  expect(projectRoot(() => {
    throw new Error('no worker')
  })).toBeUndefined()
})

/** vitest started at `repo`, the top of a monorepo, on the test file written into `repo/packages/svc` (`--root`); its stderr and its tests as the JSON reporter writes them. */
async function fromTheTop(repo: string, options: string) {
  const svc = join(repo, 'packages', 'svc')
  mkdirSync(svc, { recursive: true })
  writeFileSync(join(svc, 'conformance.test.mjs'), `import { defineConformance } from '${entryFiles().vitest}'\ndefineConformance({ rule: 'list-returns-200', ${options} })\n`)
  const report = join(repo, 'vitest.json')
  const run = await runNode([join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', svc, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { cwd: repo, env: cleanEnv(), killAfterMs: 120_000 })
  const assertions = (JSON.parse(readFileSync(report, 'utf8')) as { testResults: { assertionResults: Assertion[] }[] }).testResults.flatMap((f) => f.assertionResults)
  return { ...run, svc, notes: assertions.find((a) => a.title === RUN_TEST_NAME)?.meta?.conformance?.notes ?? [] }
}

test('vitest started at a monorepo\'s top with --root packages/svc: the baseline read is the package\'s', async () => {
  const repo = scratchDir('conform-project-root-')
  mkdirSync(join(repo, 'packages', 'svc'), { recursive: true })
  writeFileSync(join(repo, 'packages', 'svc', 'conform-baseline.json'), '{ "knownFailures": [] }\n')
  const run = await fromTheTop(repo, "baseline: 'conform-baseline.json'")
  expect(run.code, run.stdout + run.stderr).toBe(0)
  expect(run.notes).toContainEqual(expect.stringContaining(`Baseline ${join(run.svc, 'conform-baseline.json')}`))
}, 150_000)

test('updateBaseline from the top: written in the package, and said on the file\'s stderr', async () => {
  const repo = scratchDir('conform-project-root-')
  const run = await fromTheTop(repo, "baseline: 'conform-baseline.json', updateBaseline: true")
  expect(run.code, run.stdout + run.stderr).toBe(0)
  expect(existsSync(join(run.svc, 'conform-baseline.json'))).toBe(true)
  expect(existsSync(join(repo, 'conform-baseline.json'))).toBe(false)
  expect(run.stderr).toMatch(/^Baseline written: conform-baseline\.json/m)
}, 150_000)
