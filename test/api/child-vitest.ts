/**
 * A service's own vitest, as a child: a test file written into a folder of its own (the code that
 * starts a server, then defineConformance() against it), vitest run on it with its JSON and JUnit
 * reporters, and what it did read back.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cleanEnv, runNode } from '../helpers/child-process.ts'
import { ROOT } from '../helpers/run-conform.ts'

const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs')

export interface Assertion {
  ancestorTitles: string[]
  title: string
  status: 'passed' | 'failed' | 'skipped' | 'pending'
  failureMessages: string[]
  /** The test's meta: defineConformance() puts its notes and a skip's reason in `conformance`. */
  meta?: { conformance?: { notes?: string[]; skipped?: string } }
}

export interface ChildVitest {
  code: number | null
  /** stdout and stderr. */
  output: string
  assertions: Assertion[]
  junit: string
}

/** vitest on `testFile` (ES module text) in `folder`, which it empties first but for the files `keep` names; `args` go after `vitest run`; `env` adds to the cleaned environment. */
export async function childVitest(folder: string, testFile: string, args: string[] = [], { keep = [] as string[], env = {} as Record<string, string> } = {}): Promise<ChildVitest> {
  mkdirSync(folder, { recursive: true })
  for (const name of readdirSync(folder)) if (!keep.includes(name)) rmSync(join(folder, name), { recursive: true, force: true })
  writeFileSync(join(folder, 'conformance.test.mjs'), testFile)
  const report = join(folder, 'vitest.json')
  const junit = join(folder, 'junit.xml')
  const reporters = ['--reporter=json', `--outputFile.json=${report}`, '--reporter=junit', `--outputFile.junit=${junit}`]
  const run = await runNode([VITEST, 'run', '--root', folder, ...reporters, ...args], { cwd: folder, env: cleanEnv(env), killAfterMs: 120_000 })
  const json = JSON.parse(readFileSync(report, 'utf8')) as { testResults: { assertionResults: Assertion[] }[] }
  return { code: run.code, output: run.stdout + run.stderr, assertions: json.testResults.flatMap((f) => f.assertionResults), junit: readFileSync(junit, 'utf8') }
}
