/**
 * `npm test`'s first step (package.json `pretest`): the project's tests run on vitest 4, whose vite
 * and rolldown need Node 20.19 or later in 20, or 22.12 or later (package.json `engines`). On an
 * older Node (Debian 12's and Ubuntu 24.04's `apt install nodejs` give 18) vitest stops at start-up
 * with "The requested module 'node:util' does not provide an export named 'styleText'", which says
 * nothing of the version: this says it in one line, before anything else runs.
 */
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** package.json's engines.node, as the check below reads it (test/build/node-version.test.ts keeps the two alike). */
export const SUPPORTED_NODE = '^20.19.0 || >=22.12.0'

/** Why this Node cannot run the project's tests, or undefined when it can. `version`: as process.versions.node gives it. */
export function nodeVersionProblem(version) {
  const [major, minor] = version.split('.').map(Number)
  if ((major === 20 && minor >= 19) || major > 22 || (major === 22 && minor >= 12)) return undefined
  return `npm test: Node ${version} cannot run the project's tests: vitest's vite and rolldown need Node 20.19 or later in 20, or 22.12 or later (package.json engines: ${SUPPORTED_NODE}); install one (nvm install 22, or nodejs.org's packages: the nodejs of Debian 12 and Ubuntu 24.04 is 18)`
}

/**
 * Why vitest cannot be found from `root`, or undefined when it can: `npm test` before `npm install`
 * (or after `npm ci --omit=dev`) said "build: typescript … is not installed; runs use the sources
 * through tsx", as if all were well, then "sh: 1: vitest: not found".
 */
export function testRunnerProblem(root) {
  try {
    createRequire(join(root, 'package.json')).resolve('vitest/package.json')
    return undefined
  } catch {
    return `npm test: vitest, the project's test runner (a devDependency), is not installed: run npm install (or npm ci, without --omit=dev) in ${root} first`
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problem = nodeVersionProblem(process.versions.node) ?? testRunnerProblem(dirname(dirname(fileURLToPath(import.meta.url))))
  if (problem) {
    process.stderr.write(`${problem}\n`)
    process.exit(1)
  }
}
