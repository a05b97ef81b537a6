/**
 * A report file compare or merge cannot read is said in the words every file the suite reads is
 * (lib/config/user-file.ts whyUnreadable: "it is a directory", "permission denied", "no such
 * file"), not as Node's error text ("EISDIR: illegal operation on a directory, read") on one path
 * and in words on its sibling.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { compareMain } from '../../lib/cli/compare.ts'
import { mergeMain } from '../../lib/cli/merge.ts'

const scratch = mkdtempSync(join(tmpdir(), 'conform-unreadable-report-words-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A report folder whose `file` is a directory, not a file. */
function folderWithDirectory(name: string, file: string): string {
  const dir = join(scratch, name)
  mkdirSync(join(dir, file), { recursive: true })
  return dir
}

test('compare: a results.json that is a directory is "it is a directory", as a baseline or a targets file that is one', () => {
  const a = folderWithDirectory('compare-a', 'results.json')
  let err = ''
  expect(compareMain([a, a], { out: () => {}, err: (t) => void (err += t) }, scratch)).toBe(2)
  expect(err).toBe(`conform compare: cannot read ${join(a, 'results.json')}: it is a directory\n`)
})

test("merge: a deployment's results.json and a fleet.json that are directories are said in the same words", () => {
  const eu = folderWithDirectory('merge-in/eu', 'results.json')
  const out = join(scratch, 'merge-out')
  expect(mergeMain([eu, '--report-dir', out], { out: () => {}, err: () => {} }, scratch, {})).toBe(2)
  const fleet = JSON.parse(readFileSync(join(out, 'fleet.json'), 'utf8')) as { deployments: { reason?: string }[] }
  expect(fleet.deployments[0]?.reason).toContain(`cannot read ${join(eu, 'results.json')}: it is a directory`)
  expect(fleet.deployments[0]?.reason).not.toMatch(/EISDIR/)

  const top = folderWithDirectory('merge-fleet', 'fleet.json')
  let err = ''
  expect(mergeMain([top, '--report-dir', join(scratch, 'merge-out-2')], { out: () => {}, err: (t) => void (err += t) }, scratch, {})).toBe(2)
  expect(err).toContain(`cannot read ${join(top, 'fleet.json')}: it is a directory`)
  expect(err).not.toMatch(/EISDIR/)
})

test("merge: a fleet's folder without its fleet.json (a fleet killed before its page) is said to be one, with the folders to merge instead", () => {
  const top = join(scratch, 'killed-fleet')
  mkdirSync(join(top, 'eu'), { recursive: true })
  mkdirSync(join(top, 'us'), { recursive: true })
  writeFileSync(join(top, 'eu', 'journal.ndjson'), '')
  writeFileSync(join(top, 'us', 'results.json'), '{}')
  const out = join(scratch, 'killed-fleet-out')
  expect(mergeMain([top, '--report-dir', out], { out: () => {}, err: () => {} }, scratch, {})).toBe(2)
  const fleet = JSON.parse(readFileSync(join(out, 'fleet.json'), 'utf8')) as { deployments: { reason?: string }[] }
  expect(fleet.deployments[0]?.reason).toContain('nor a fleet.json, beside folders of deployments (eu, us): a fleet run stopped before it wrote its page')
  expect(fleet.deployments[0]?.reason).toContain('(killed-fleet/*/)')
})

test('merge: a symbolic link in a loop, as a folder given or as its results.json, is said in words, not as ELOOP', () => {
  const loop = join(scratch, 'loop')
  symlinkSync('loop', loop)
  let err = ''
  expect(mergeMain([loop, '--report-dir', join(scratch, 'loop-out')], { out: () => {}, err: (t) => void (err += t) }, scratch, {})).toBe(2)
  expect(err).toBe(`conform merge: ${loop} is no folder: a symbolic link in a loop (it leads back to itself)\n`)

  const eu = join(scratch, 'looped-results', 'eu')
  mkdirSync(eu, { recursive: true })
  symlinkSync('results.json', join(eu, 'results.json'))
  const out = join(scratch, 'looped-results-out')
  expect(mergeMain([eu, '--report-dir', out], { out: () => {}, err: () => {} }, scratch, {})).toBe(2)
  const fleet = JSON.parse(readFileSync(join(out, 'fleet.json'), 'utf8')) as { deployments: { reason?: string }[] }
  expect(fleet.deployments[0]?.reason).toContain(`cannot read ${join(eu, 'results.json')}: a symbolic link in a loop (it leads back to itself)`)
})
