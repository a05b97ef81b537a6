/**
 * A fresh folder under the system's temporary one for the test that calls this, removed when that
 * test finishes, passed or failed. Made per test, not per file: the workers keep their modules from
 * file to file (isolate: false in vitest.config.ts), so a hook this module registered would run once
 * per worker. Folders a test left behind piled up in /tmp, 159 of compare.test.ts's alone.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'

export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}
