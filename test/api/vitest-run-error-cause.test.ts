/**
 * A run that an error of no known kind stops ("the run could not be made: …") carries that error as
 * its cause, which vitest prints with its stack. A service whose test setup loaded nock 15 (on Node
 * 20, its socket interceptor calls Promise.withResolvers, which Node 20 has not) read "the run
 * could not be made: Promise.withResolvers is not a function" and nothing of where it came from;
 * the cause's frames name @mswjs/interceptors. Here the interceptor is a stand-in that throws the
 * same way when a socket connects.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { cleanEnv, runNode } from '../helpers/child-process.ts'
import { ROOT } from '../helpers/run-conform.ts'
import { scratchDir } from '../helpers/scratch-dir.ts'
import { entryFiles } from './api-entry.ts'

test('an unknown error that stops the run is its cause, with its stack, the key hidden', async () => {
  const folder = scratchDir('conform-run-cause-')
  const apiKey = 'cause-key-5d1f0a77c3'
  const testFile = [
    "import net from 'node:net'",
    "import { afterAll } from 'vitest'",
    `import { defineConformance, startReferenceServer } from '${entryFiles().vitest}'`,
    'const reference = startReferenceServer({ apiKey: process.env.SERVICE_KEY })',
    'afterAll(async () => (await reference).close())',
    '// a socket interceptor of the test setup that breaks on every connection (nock 15 on Node 20)',
    "net.Socket.prototype.connect = function interceptedConnect() { throw new TypeError(`Promise.withResolvers is not a function (key ${process.env.SERVICE_KEY})`) }",
    `defineConformance({ baseUrl: reference.then((s) => s.baseUrl), apiKey: process.env.SERVICE_KEY, rule: 'list-returns-200' })`,
  ].join('\n')
  writeFileSync(join(folder, 'conformance.test.mjs'), testFile)
  const report = join(folder, 'vitest.json')
  const run = await runNode([join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', folder, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { cwd: folder, env: cleanEnv({ SERVICE_KEY: apiKey }), killAfterMs: 120_000 })
  const output = (run.stdout + run.stderr).replace(/\x1b\[[0-9;]*m/g, "")
  expect(run.code, output).toBe(1)
  expect(output).toContain('the run could not be made: TypeError: Promise.withResolvers is not a function')
  // vitest prints the cause under the suite's error, with the frame that threw
  expect(output).toMatch(/Caused by: TypeError: Promise\.withResolvers is not a function[^\n]*\n[^\n]*interceptedConnect/)
  expect(output + readFileSync(report, 'utf8')).not.toContain(apiKey)
}, 150_000)
