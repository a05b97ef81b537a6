/**
 * merge of folders that two versions of the suite wrote (a folder kept from before an upgrade, a
 * job that pins another version): the page said nothing, while its matrix read every run by this
 * version's catalogue (a rule only one version has reads "—") and a rule of both may hold other
 * checks. A deployment whose run another version made than most runs joined carries a note saying
 * which, naming the others; its verdict stands.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { mergeMain } from '../../lib/cli/merge.ts'
import type { FleetResult } from '../../lib/fleet/fleet-result.ts'
import { toolVersion } from '../../lib/project-root.ts'
import { resultsFileOf } from '../../lib/result/results-file.ts'
import { runResult } from '../reporters/fixture.ts'

const scratch = mkdtempSync(join(tmpdir(), 'conform-merge-versions-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function folder(name: string, version: string, runId: string): string {
  const dir = join(scratch, name)
  mkdirSync(dir, { recursive: true })
  const results = resultsFileOf(runResult())
  writeFileSync(join(dir, 'results.json'), JSON.stringify({ ...results, runId, tool: { name: 'petstore-categories-conformance', version } }))
  return dir
}

test('a run of another version is noted on its deployment, naming both versions; runs of the merge\'s own carry no note', () => {
  const now = toolVersion()
  const dirs = [folder('eu', now, '20260101-0000-run01'), folder('us', now, '20260101-0000-run02'), folder('ap', '0.0.9', '20260101-0000-run03')]
  const out = join(scratch, 'out')
  let stdout = ''
  expect(mergeMain([...dirs, '--report-dir', out], { out: (t) => void (stdout += t), err: () => {} }, scratch, {})).toBe(0)
  const fleet = JSON.parse(readFileSync(join(out, 'fleet.json'), 'utf8')) as FleetResult
  expect(fleet.deployments.map((d) => [d.label, d.verdict, d.notes])).toEqual([
    ['eu', 'pass', undefined],
    ['us', 'pass', undefined],
    ['ap', 'pass', [`its run was made by version 0.0.9 of the suite, eu, us's by ${now} (this merge's): its verdict rests on that version's checks, a rule only one of the two has reads — in the matrix, and a rule of both may hold other checks; run every deployment with one version for one gate`]],
  ])
  expect(stdout).toContain('Note: ap: its run was made by version 0.0.9 of the suite')
})

test('runs all of one version, another than the merge\'s: no note (they are of one gate)', () => {
  const dirs = [folder('eu-old', '0.0.9', '20260101-0000-run04'), folder('us-old', '0.0.9', '20260101-0000-run05')]
  const out = join(scratch, 'out-old')
  expect(mergeMain([...dirs, '--report-dir', out], { out: () => {}, err: () => {} }, scratch, {})).toBe(0)
  const fleet = JSON.parse(readFileSync(join(out, 'fleet.json'), 'utf8')) as FleetResult
  expect(fleet.deployments.map((d) => d.notes)).toEqual([undefined, undefined])
})
