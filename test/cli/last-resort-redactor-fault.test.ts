/**
 * The last resort when redacting the fault fails too. A key of 3,000 characters made the redactor's
 * patterns larger than V8 takes ("Invalid regular expression: … too large", thrown when a text
 * first reached them): the run stopped on it, the last resort redacted its message with the same
 * redactor, which threw again, and Node printed that error, its pattern the key spelled out between
 * `[^A-Za-z0-9]{0,16}`, 300 KB of it, with exit 7. A long key's forms are texts now
 * (lib/http/secret-long.ts): its fault is redacted as any other; a fault the redactor cannot
 * redact (made so here) is one line that quotes nothing.
 */
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { cleanEnv, ROOT, runNode } from '../helpers/child-process.ts'

const key = randomBytes(3000).toString('base64url').slice(0, 3000)
const lastResort = (env: Record<string, string>) => runNode(['--import', 'tsx', join(ROOT, 'test/cli/last-resort-redactor-fault-run.ts')], { cwd: ROOT, env: cleanEnv({ CONFORM_API_KEY: key, ...env }), killAfterMs: 60_000 })

function expectNoKey(text: string): void {
  const letters = text.replace(/[^A-Za-z0-9]/g, '')
  for (let at = 0; at + 12 <= key.length; at += 97) expect(letters).not.toContain(key.slice(at, at + 12).replace(/[^A-Za-z0-9]/g, ''))
}

test('a fault quoting a key of 3,000 characters: one line, the key redacted', async () => {
  const run = await lastResort({})
  // --help's own exit 0 may come first
  expect([0, 2], run.stderr.slice(0, 400)).toContain(run.code)
  expect(run.stderr).toBe('conform: internal error: no answer (Authorization: Bearer [REDACTED])\n')
  expectNoKey(run.stdout + run.stderr)
}, 90_000)

test('a fault the redactor cannot redact: one line that quotes nothing, never the key', async () => {
  const run = await lastResort({ BREAK_REDACTOR: '1' })
  // Node's exit 7 (its handler of uncaught faults threw) before
  expect([0, 2], run.stderr.slice(0, 400)).toContain(run.code)
  expect(run.stderr).toBe('conform: internal error: its text is not shown, as it could not be redacted\n')
  expectNoKey(run.stdout + run.stderr)
}, 90_000)
