/**
 * The layers of ARCHITECTURE.md point one way: lib/ imports nothing from suites/; a conformance run
 * (lib/, suites/, bin/) loads nothing of vitest, a development dependency that runs only the
 * project's tests; and no source file grows past 350 lines.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect, test } from 'vitest'
import { ROOT } from '../helpers/run-conform.ts'

const sourcesUnder = (dir: string) =>
  readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|mjs|css)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))

const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g

test('lib/ imports nothing from suites/ (the entry point hands the suites to the runner)', () => {
  const offenders: string[] = []
  for (const file of sourcesUnder('lib')) {
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2]
      if (/(^|\/)suites\//.test(specifier)) offenders.push(`${relative(ROOT, file)} → ${specifier}`)
    }
  }
  expect(offenders).toEqual([])
})

test('a conformance run imports nothing of vitest: lib/, suites/ and bin/ run where only the dependencies are installed', () => {
  const offenders: string[] = []
  for (const file of ['lib', 'suites', 'bin'].flatMap(sourcesUnder)) {
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2]
      if (/^(vitest|vite|@vitest\/)/.test(specifier)) offenders.push(`${relative(ROOT, file)} → ${specifier}`)
    }
  }
  expect(offenders).toEqual([])
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
  expect(Object.keys(manifest.dependencies)).not.toContain('vitest')
})

test('no source file is over 350 lines', () => {
  const long = ['lib', 'suites', 'scripts', 'test', 'bin', 'build']
    .flatMap(sourcesUnder)
    .map((file) => ({ file: relative(ROOT, file), lines: readFileSync(file, 'utf8').split('\n').length }))
    .filter((f) => f.lines > 350)
  expect(long).toEqual([])
})
