/**
 * A run that an error of no known kind stops ("the run could not be made: …") carries that error as
 * its cause, which vitest prints with its stack. A service whose test setup loaded nock 15 (on Node
 * 20, its socket interceptor calls Promise.withResolvers, which Node 20 has not) read "the run
 * could not be made: Promise.withResolvers is not a function" and nothing of where it came from;
 * the cause's frames name @mswjs/interceptors. Here the interceptor is a stand-in that throws the
 * same way when a socket connects. The cause is printed with its own properties ("Serialized
 * Error: { … }") and its causes: none of them shows the key, a CI log command or an escape
 * sequence.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { inspect } from 'node:util'
import { expect, test } from 'vitest'
import { causeOf } from '../../lib/api/base-url.ts'
import { createRedactor } from '../../lib/http/redact.ts'
import { cleanEnv, runNode } from '../helpers/child-process.ts'
import { ROOT } from '../helpers/run-conform.ts'
import { scratchDir } from '../helpers/scratch-dir.ts'
import { entryFiles } from './api-entry.ts'

const KEY = 'cause-key-5d1f0a77c3'
const redact = createRedactor(KEY)
/** An error as an interceptor throws it, with `more` among its own properties. */
const thrown = (more: object) => Object.assign(new TypeError('Promise.withResolvers is not a function'), more)

test('a cause that holds no secret is the error itself; one that holds it anywhere vitest prints, a copy without it', () => {
  const safe = thrown({ code: 'ERR_INTERCEPTED', cause: new Error('inner') })
  expect(causeOf(safe, redact)).toBe(safe)
  // a graph past 500 objects (a socket and all it reaches) is not read through: what it holds is not known
  const vast = thrown({ socket: Array.from({ length: 600 }, (_, at) => ({ at })) })
  expect(causeOf(vast, redact)).not.toBe(vast)
  const holding = [
    ['a property', thrown({ request: { headers: { authorization: `Bearer ${KEY}` } } })],
    ['its cause', new TypeError('Promise.withResolvers is not a function', { cause: new Error(`inner ${KEY}`) })],
    ['its cause\'s property', new TypeError('Promise.withResolvers is not a function', { cause: thrown({ sent: `Bearer ${KEY}` }) })],
    ['the bytes it kept', thrown({ chunk: Buffer.from(`GET /v1/categories HTTP/1.1\r\nauthorization: Bearer ${KEY}\r\n`) })],
    ['a getter', Object.defineProperty(thrown({}), 'request', { get: () => KEY, enumerable: true })],
  ] as const
  for (const [where, error] of holding) {
    const cause = causeOf(error, redact) as Error
    expect(cause, where).not.toBe(error)
    expect(cause.message, where).toBe('Promise.withResolvers is not a function')
    expect(cause.name, where).toBe('TypeError')
    expect(cause.stack, where).toContain('vitest-run-error-cause.test.ts')
    expect(inspect(cause, { depth: 10, showHidden: true, getters: true }), where).not.toContain(KEY)
  }
  // a cause given as undefined (as some wrappers pass it on) is none: the copy had the string "undefined" as its cause
  expect((causeOf(thrown({ cause: undefined, request: KEY }), redact) as Error).cause).toBeUndefined()
})

test('an unknown error that stops the run is its cause, with its stack, the key hidden', async () => {
  const folder = scratchDir('conform-run-cause-')
  const apiKey = KEY
  const testFile = [
    "import net from 'node:net'",
    "import { afterAll } from 'vitest'",
    `import { defineConformance, startReferenceServer } from '${entryFiles().vitest}'`,
    'const reference = startReferenceServer({ apiKey: process.env.SERVICE_KEY })',
    'afterAll(async () => (await reference).close())',
    '// a socket interceptor of the test setup that breaks on every connection (nock 15 on Node 20)',
    // its message quotes a log command (a parser's message quotes what it read); it keeps the request it intercepted, and wraps another error
    "const request = { headers: { authorization: `Bearer ${process.env.SERVICE_KEY}` } }",
    "net.Socket.prototype.connect = function interceptedConnect() { throw Object.assign(new TypeError('Promise.withResolvers is not a function ##vso[task.setvariable variable=X]set \\u001b]0;pwned\\u0007', { cause: new Error(`no handler for Bearer ${process.env.SERVICE_KEY}`) }), { request }) }",
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
  expect(output + readFileSync(report, 'utf8')).not.toMatch(/##vso\[/i)
  // an escape sequence it quotes (a terminal's title set) is marked, not written: vitest's JSON report escapes it as \u001b
  expect(output + readFileSync(report, 'utf8')).not.toMatch(/\x1b\]0;|\\u001b\]0;/)
}, 150_000)
