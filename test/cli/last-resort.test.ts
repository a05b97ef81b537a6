/**
 * A fault that escaped every run ends the command line with one line and exit 2 (runAsProgram's
 * last resort). That line hides every key the process was given, not only CONFORM_API_KEY and
 * --api-key: a key read from a .env file was printed whole. Nor does it act on a server's text it
 * quotes: an escape sequence or a carriage return went to the terminal as it was.
 */
import { createServer, type Server } from 'node:net'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { cleanEnv, ROOT, runNode } from '../helpers/child-process.ts'
import { scratchDir } from '../helpers/scratch-dir.ts'

const servers: Server[] = []
afterAll(() => servers.forEach((server) => server.close()))

test('a key from a .env file is hidden in the last-resort line of a fault no run caught', async () => {
  // a port that takes connections and answers nothing: the preflight passes, the suite never loads
  const server = createServer((socket) => socket.on('error', () => {}))
  servers.push(server)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const port = (server.address() as { port: number }).port
  const dir = scratchDir('conform-last-resort-')
  const key = `dotenv-${Math.random().toString(36).slice(2)}-Q7x+Z9`
  writeFileSync(join(dir, '.env'), `CONFORM_BASE_URL=http://127.0.0.1:${port}/v1\nCONFORM_API_KEY=${key}\n`)
  const run = await runNode(['--import', 'tsx', join(ROOT, 'test/cli/last-resort-run.ts'), '--report-dir', join(dir, 'reports')], {
    cwd: ROOT,
    env: cleanEnv({ INIT_CWD: dir }),
    killAfterMs: 60_000,
  })
  expect(run.code, run.stderr).toBe(2)
  expect(run.stderr).toContain('conform: internal error: no answer to GET /v1/categories (Authorization: Bearer [REDACTED])')
  expect(run.stdout + run.stderr).not.toContain(key)
  // the server's text quoted in the fault is shown, never acted on: no escape, no carriage return
  expect(run.stderr).toContain('"⟨ESC⟩]8;;https://evil.example/⟨U+0007⟩x⟨ESC⟩[2J⟨CR⟩::error::forged"')
  expect(run.stderr).not.toMatch(/[\u001b\u0007\r]/)
})
