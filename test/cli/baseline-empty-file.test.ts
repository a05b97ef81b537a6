/**
 * An empty baseline file (`touch baseline.json`, then a run with --update-baseline to record it) was
 * refused as "not JSON", so the file had to be deleted first. Under --update-baseline it is read as
 * a missing one is, an empty baseline to write; without it, it is still no baseline to gate on.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { readBaseline } from '../../lib/config/baseline-file.ts'

const dir = mkdtempSync(join(tmpdir(), 'conform-empty-baseline-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('an empty baseline file is one to write under --update-baseline, and still no baseline to gate on', () => {
  const file = join(dir, 'empty.json')
  for (const text of ['', '\n', '  \r\n']) {
    writeFileSync(file, text)
    expect(readBaseline(file, true).knownFailures).toEqual([])
    expect(() => readBaseline(file, false)).toThrow(/is not JSON/)
  }
})

test('a baseline saved with a byte order mark (Windows PowerShell 5.1\'s Out-File -Encoding utf8, Notepad) and CRLF is read: it was "not JSON: Unexpected token ⟨BOM⟩"', () => {
  const file = join(dir, 'bom.json')
  const entry = { rule: 'auth-missing-key-401', code: 'UNEXPECTED_STATUS', observed: 'status 403', reason: 'OPS-112' }
  writeFileSync(file, '\uFEFF' + JSON.stringify({ knownFailures: [entry] }, null, 2).replace(/\n/g, '\r\n'))
  expect(readBaseline(file, false).knownFailures).toEqual([entry])
})

test('a baseline saved as UTF-16 with its byte order mark (Windows PowerShell 5.1\'s `>` and Out-File, Notepad\'s UTF-16 BE) is read: it was "not JSON: Unexpected token \'�\'"', () => {
  const entry = { rule: 'auth-missing-key-401', code: 'UNEXPECTED_STATUS', observed: 'status 403', reason: 'OPS-112: the gateway answers 403 — ü' }
  const text = JSON.stringify({ knownFailures: [entry] }, null, 2).replace(/\n/g, '\r\n')
  const little = join(dir, 'utf16le.json')
  writeFileSync(little, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]))
  expect(readBaseline(little, false).knownFailures).toEqual([entry])
  const big = join(dir, 'utf16be.json')
  writeFileSync(big, Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]))
  expect(readBaseline(big, false).knownFailures).toEqual([entry])
})

test('a baseline saved as UTF-16 without a byte order mark (iconv -t UTF-16LE or UTF-16BE), either byte order, is read: it was "not JSON"', () => {
  const entry = { rule: 'auth-missing-key-401', code: 'UNEXPECTED_STATUS', observed: 'status 403', reason: 'OPS-112 — ü' }
  const text = JSON.stringify({ knownFailures: [entry] }, null, 2)
  const little = join(dir, 'utf16le-no-bom.json')
  writeFileSync(little, Buffer.from(text, 'utf16le'))
  expect(readBaseline(little, false).knownFailures).toEqual([entry])
  const big = join(dir, 'utf16be-no-bom.json')
  writeFileSync(big, Buffer.from(text, 'utf16le').swap16())
  expect(readBaseline(big, false).knownFailures).toEqual([entry])
})
