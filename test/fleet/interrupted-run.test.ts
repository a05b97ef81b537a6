/**
 * A run a signal interrupted records the process's exit code (130 or 143) in its results.json;
 * `merge` still reads it, and the fleet counts it by its verdict: not judged, or failed.
 */
import { expect, test } from 'vitest'
import { deploymentOf, readRunFolder } from '../../lib/fleet/fleet-result.ts'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runResult } from '../reporters/fixture.ts'

test('results.json of an interrupted run (exit 130): read by merge, counted as not judged, or failed when a rule failed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conform-interrupted-'))
  try {
    const incomplete = { ...runResult(undefined, { problems: [{ kind: 'interrupted', message: 'the run was interrupted (SIGINT)' }] }), exitCode: 130 as const }
    expect(incomplete.verdict).toBe('incomplete')
    const file = join(dir, 'results.json')
    writeFileSync(file, JSON.stringify(incomplete))
    const run = readRunFolder(dir)
    expect(deploymentOf('eu', 'https://eu.example/v1', 'eu/report.html', run)).toMatchObject({ verdict: 'incomplete', exitCode: 2 })
    const failed = { ...incomplete, verdict: 'fail' as const, exitCode: 143 as const }
    expect(deploymentOf('eu', 'https://eu.example/v1', 'eu/report.html', failed)).toMatchObject({ verdict: 'fail', exitCode: 1 })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
