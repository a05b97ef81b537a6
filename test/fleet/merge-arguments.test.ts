/**
 * merge's arguments: after `--` (POSIX: the end of the options) every argument is a report folder,
 * as `npm run conform -- merge -- A B --report-dir OUT` written with `--` twice leaves it. It was
 * refused: unknown option "--" (userplay9).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { mergeMain } from '../../lib/cli/merge.ts'
import type { FleetResult } from '../../lib/fleet/fleet-result.ts'
import { resultsFileOf } from '../../lib/result/results-file.ts'
import { oneFailure, runResult } from '../reporters/fixture.ts'

const scratch = mkdtempSync(join(tmpdir(), 'conform-merge-arguments-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function folder(name: string, results: unknown): string {
  const dir = join(scratch, name)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'results.json'), JSON.stringify(results))
  return dir
}

test('`merge --report-dir OUT -- A B`: after `--` every argument is a folder', () => {
  const eu = folder('dash-eu', { ...resultsFileOf(runResult()), runId: '20260101-0000-dash1' })
  const us = folder('dash-us', { ...resultsFileOf(oneFailure()), runId: '20260101-0000-dash2' })
  let stderr = ''
  const code = mergeMain(['--report-dir', join(scratch, 'out-dash'), '--', eu, us], { out: () => undefined, err: (t) => void (stderr += t) }, scratch, {})
  expect(stderr).not.toContain('unknown option')
  expect(code).toBe(1)
  expect((JSON.parse(readFileSync(join(scratch, 'out-dash', 'fleet.json'), 'utf8')) as FleetResult).deployments).toHaveLength(2)
})
