/**
 * defineConformance()'s relative paths (baseline, reportDir, .env files) start at the root of the
 * vitest project that runs the test file, as vitest's own do, not at the folder vitest was started
 * in. A monorepo whose vitest runs from its top (`projects: ['packages/*']`, or `--root
 * packages/svc`) read `baseline: 'conform-baseline.json'` from the top, while the same file run
 * from the package read the package's: "cannot read the baseline /repo/conform-baseline.json: no
 * such file (updateBaseline: true writes one)", and updateBaseline wrote one at the top, beside
 * no package.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
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

test('vitest started at a monorepo\'s top with --root packages/svc: the baseline is the package\'s', async () => {
  const repo = scratchDir('conform-project-root-')
  const svc = join(repo, 'packages', 'svc')
  mkdirSync(svc, { recursive: true })
  writeFileSync(join(svc, 'conform-baseline.json'), '{ "knownFailures": [] }\n')
  writeFileSync(join(svc, 'conformance.test.mjs'), `import { defineConformance } from '${entryFiles().vitest}'\ndefineConformance({ rule: 'list-returns-200', baseline: 'conform-baseline.json' })\n`)
  const report = join(repo, 'vitest.json')
  const run = await runNode([join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', svc, '--reporter=json', `--outputFile.json=${report}`], { cwd: repo, env: cleanEnv(), killAfterMs: 120_000 })
  expect(run.code, run.stdout + run.stderr).toBe(0)
  const assertions = (JSON.parse(readFileSync(report, 'utf8')) as { testResults: { assertionResults: Assertion[] }[] }).testResults.flatMap((f) => f.assertionResults)
  const notes = assertions.find((a) => a.title === RUN_TEST_NAME)?.meta?.conformance?.notes ?? []
  expect(notes).toContainEqual(expect.stringContaining(`Baseline ${join(svc, 'conform-baseline.json')}`))
}, 150_000)
