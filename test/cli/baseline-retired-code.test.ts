/**
 * A baseline recorded by 0.1.0 may name CHECK_UNFINISHED, a code this version no longer gives (a
 * check cut by --deadline is not verified now). Unknown codes are refused (exit 2), which made the
 * first run after the upgrade exit 2 on a file that worked: a retired code is read, matches no
 * failure, and its entry reads as fixed, as before codes were checked.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { readBaseline } from '../../lib/config/baseline-file.ts'
import { RETIRED_FAILURE_CODES, isFailureCode } from '../../lib/spec/failure-codes.ts'

const dir = mkdtempSync(join(tmpdir(), 'conform-retired-code-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test("a baseline naming a code an earlier version gave is read; a code no version gave is still refused", () => {
  const file = join(dir, 'baseline.json')
  const entry = { rule: 'list-returns-200', code: 'CHECK_UNFINISHED', check: 'GET /categories answers 200', reason: 'recorded by --update-baseline on 2026-11-22' }
  writeFileSync(file, JSON.stringify({ knownFailures: [entry] }))
  expect(readBaseline(file, false).knownFailures).toEqual([entry])
  writeFileSync(file, JSON.stringify({ knownFailures: [{ ...entry, code: 'CHECK_UNFINSHED' }] }))
  expect(() => readBaseline(file, false)).toThrow(/names the unknown failure code "CHECK_UNFINSHED"/)
  // a retired code is no code of this version
  expect(Object.keys(RETIRED_FAILURE_CODES).filter(isFailureCode)).toEqual([])
})
