/**
 * --update-baseline into a folder that does not exist is refused before any request (exit 2, one
 * line naming the folder), as an unwritable --report-dir is. Before, the run made its requests and
 * writes, then failed to write the file at its end: exit 2, and a results.json whose ledger and
 * counts said nothing of the records it had created.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess } from '../helpers/run-conform.ts'

// no run of it in the folder's name (conform-baseline-unwritable-…): runs of the key are hidden wherever they stand
const KEY = 'zq7-update-key-2c8e'
let server: RunningServer
let dir: string
beforeAll(async () => {
  server = await startReferenceServer({ apiKey: KEY })
  dir = mkdtempSync(join(tmpdir(), 'conform-baseline-unwritable-'))
})
afterAll(async () => {
  await server?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

test('--update-baseline into a missing folder: exit 2 before any request, one line naming the folder', async () => {
  const file = join(dir, 'no-such-folder', 'known.json')
  const run = await runConformInProcess(['--base-url', server.baseUrl, '--baseline', file, '--update-baseline'], { env: { CONFORM_API_KEY: KEY } })
  run.cleanup()
  expect(run.code).toBe(2)
  expect(run.stderr).toBe(`conform: cannot write the baseline ${file}: there is no folder ${join(dir, 'no-such-folder')} (--update-baseline writes the file, not its folder)\n`)
  expect(server.requests).toEqual([])
})
