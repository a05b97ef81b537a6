/**
 * defineConformance() called where vitest cannot declare its tests: inside a test, or from a script
 * that vitest does not run (`node test/conformance.test.mjs`), or in a hook. vitest's own words
 * named neither the call nor the way out (a list of other causes, "it might be a Vitest bug"), and
 * in a hook it said nothing: what a hook declares is dropped (a beforeAll that started the service,
 * then declared the suite, left a green file without one check). The refusal is the suite's, with
 * vitest's first sentence, if any, and its error as the cause.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { cleanEnv, runNode } from '../helpers/child-process.ts'
import { entryFiles } from './api-entry.ts'
import { childVitest } from './child-vitest.ts'

const WHERE = "defineConformance() declares vitest's tests and hooks: call it at the top level of a test file that vitest runs (npx vitest run), or inside a describe(), not inside a test or a hook; from a script, runConformance() from the main entry makes the run"
let work: string
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'conform-misplaced-'))
})
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true })
})

const call = "defineConformance({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: process.env.KEY })"

test('from a script vitest does not run: the suite\'s words, then vitest\'s first sentence', async () => {
  const script = join(work, 'script.mjs')
  writeFileSync(script, `import { defineConformance } from '${entryFiles().vitest}'\n${call}\n`)
  const run = await runNode([script], { cwd: work, env: cleanEnv({ KEY: 'misplaced-key-7d3f2a' }), killAfterMs: 60_000 })
  expect(run.code).not.toBe(0)
  expect(run.stderr).toContain(`ConformanceConfigError: ${WHERE} (vitest said: Vitest failed to find the current suite)`)
}, 60_000)

test('inside a test: that test fails with the suite\'s words, placed at the call', async () => {
  const testFile = [`import { test } from 'vitest'`, `import { defineConformance } from '${entryFiles().vitest}'`, '', '', '', `test('the service conforms', () => { ${call} })`].join('\n')
  const run = await childVitest(join(work, 'inside-a-test'), testFile, [], { env: { KEY: 'misplaced-key-7d3f2a' } })
  expect(run.code).toBe(1)
  expect(run.assertions.map((a) => a.status)).toEqual(['failed'])
  const [message = ''] = run.assertions[0]!.failureMessages
  expect(message).toContain(`ConformanceConfigError: ${WHERE} (vitest said: Calling the test function inside another test function is not allowed)`)
  expect(message).toContain('conformance.test.mjs:6:')
}, 120_000)

test('inside a hook, a unit test beside it: the hook fails with the suite\'s words (vitest ran the unit test and passed the file, no check declared)', async () => {
  const testFile = [`import { afterAll, beforeAll, test } from 'vitest'`, `import { defineConformance } from '${entryFiles().vitest}'`, `test('a unit test', () => {})`, '', '', '', `beforeAll(() => { ${call} })`, `afterAll(() => { ${call} })`].join('\n')
  const run = await childVitest(join(work, 'inside-a-hook'), testFile, [], { env: { KEY: 'misplaced-key-7d3f2a' } })
  expect(run.code).toBe(1)
  const [file] = (JSON.parse(readFileSync(join(work, 'inside-a-hook', 'vitest.json'), 'utf8')) as { testResults: { message: string }[] }).testResults
  expect(file?.message).toBe(`${WHERE} (called in a hook: vitest has collected the file, and tests declared now would never run; to check a service a hook starts, call it at the top level with baseUrl as a function, defineConformance({ baseUrl: () => service.baseUrl }))`)
  expect(run.junit).toContain('conformance.test.mjs:7:')
  expect(run.assertions.map((a) => a.title)).toEqual(['a unit test'])
}, 120_000)

test('twice in one describe (two services in one file): the second is refused, placed at its call; in a describe each, both declare', async () => {
  const two = (first: string, second: string) => [`import { describe } from 'vitest'`, `import { defineConformance } from '${entryFiles().vitest}'`, `const options = { baseUrl: 'http://127.0.0.1:9/v1', apiKey: process.env.KEY, rule: 'list-returns-200' }`, first, second].join('\n')
  const twice = await childVitest(join(work, 'twice'), two('defineConformance(options)', 'defineConformance(options)'), [], { env: { KEY: 'misplaced-key-7d3f2a' } })
  expect(twice.code).toBe(1)
  const [file] = (JSON.parse(readFileSync(join(work, 'twice', 'vitest.json'), 'utf8')) as { testResults: { message: string }[] }).testResults
  expect(file?.message).toBe("defineConformance() is called a second time in the same describe (or at the file's top level again): its tests would have the first one's names, in every reporter, and one service's failures would read as the other's; wrap each call in a describe() named for its service, describe('orders v2', () => { defineConformance({ … }) })")
  expect(twice.junit).toContain('conformance.test.mjs:5:')
  const apart = await childVitest(join(work, 'apart'), two("describe('orders v1', () => defineConformance(options))", "describe('orders v2', () => defineConformance(options))"), [], { env: { KEY: 'misplaced-key-7d3f2a' } })
  expect(apart.output).not.toContain('a second time')
  expect(new Set(apart.assertions.map((a) => a.ancestorTitles[0]))).toEqual(new Set(['orders v1', 'orders v2']))
}, 120_000)
