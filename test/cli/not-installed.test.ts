/**
 * A clone whose packages were never installed (`git clone` then `npm run conform`, the `npm
 * install` skipped): one line that says what to run, exit 2, where Node printed a stack ending in
 * ERR_MODULE_NOT_FOUND for ajv.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { cleanEnv, ROOT, runNode } from '../helpers/child-process.ts'

const clone = mkdtempSync(join(tmpdir(), 'conform-not-installed-'))
afterAll(() => rmSync(clone, { recursive: true, force: true }))

test('npm run conform before npm install says to install, in one line, and exits 2', async () => {
  // a clone as git gives it: the sources, no node_modules and no dist/ (neither is committed)
  for (const entry of ['bin', 'build', 'lib', 'suites', 'entry', 'spec', 'package.json']) cpSync(join(ROOT, entry), join(clone, entry), { recursive: true })
  const run = await runNode([join(clone, 'bin/conform.mjs')], { cwd: clone, env: cleanEnv() })
  expect(run.code, run.stderr).toBe(2)
  expect(run.stderr).toBe(`conform: the package ajv is not installed: run npm install (or npm ci) in ${clone}, then the command again\n`)
  expect(run.stdout).toBe('')
})
