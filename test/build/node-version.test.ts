/**
 * `npm test` on a Node its vitest cannot run on (Debian 12's and Ubuntu 24.04's nodejs is 18) says
 * so in one line before anything else (build/node-version.mjs, package.json's pretest), where vitest
 * stopped with "The requested module 'node:util' does not provide an export named 'styleText'".
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { nodeVersionProblem, SUPPORTED_NODE, testRunnerProblem } from '../../build/node-version.mjs'
import { cleanEnv, ROOT, runNode } from '../helpers/child-process.ts'

const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; scripts: Record<string, string> }

describe('the Node version npm test needs', () => {
  test.each(['18.20.4', '20.18.3', '21.7.3', '22.11.0', '16.20.2'])('%s is refused, naming itself and what is needed', (version) => {
    const problem = nodeVersionProblem(version)
    expect(problem).toContain(`Node ${version} cannot run the project's tests`)
    expect(problem).toContain('20.19 or later in 20, or 22.12 or later')
  })

  test.each(['20.19.0', '20.20.2', '22.12.0', '22.20.1', '23.0.0', '24.11.1', '26.0.0'])('%s runs them', (version) => {
    expect(nodeVersionProblem(version)).toBeUndefined()
  })

  test('the range is package.json\'s engines', () => {
    expect(packageJson.engines.node).toBe(SUPPORTED_NODE)
  })

  test('npm test checks it before the build and vitest', () => {
    expect(packageJson.scripts.pretest.startsWith('node build/node-version.mjs && ')).toBe(true)
  })

  test('run on Node 18, the script exits 1 with the one line', async () => {
    // process.versions as Node 18 gives it: the script reads nothing else of the Node it runs on
    const fake = 'data:text/javascript,Object.defineProperty(process, "versions", { value: { ...process.versions, node: "18.20.4" } })'
    const old = await runNode(['--import', fake, join(ROOT, 'build/node-version.mjs')], { env: cleanEnv() })
    expect(old.code).toBe(1)
    expect(old.stderr.trim().split('\n')).toEqual([nodeVersionProblem('18.20.4')])
    const current = await runNode([join(ROOT, 'build/node-version.mjs')], { env: cleanEnv() })
    expect(current.code, current.stderr).toBe(0)
    expect(current.stderr).toBe('')
  })

  // npm test before npm install said "runs use the sources through tsx" (the build's note), then "sh: 1: vitest: not found"
  test('a checkout whose vitest is not installed is told to install it; this one is not', () => {
    const bare = mkdtempSync(join(tmpdir(), 'conform-no-modules-'))
    try {
      expect(testRunnerProblem(bare)).toBe(`npm test: vitest, the project's test runner (a devDependency), is not installed: run npm install (or npm ci, without --omit=dev) in ${bare} first`)
    } finally {
      rmSync(bare, { recursive: true, force: true })
    }
    expect(testRunnerProblem(ROOT)).toBeUndefined()
  })
})
