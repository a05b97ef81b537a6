/**
 * The layers of ARCHITECTURE.md point one way: lib/ imports nothing from suites/; a conformance run
 * (lib/, suites/, bin/) loads nothing of vitest, a development dependency that runs only the
 * project's tests and, as an optional peer, the package's /vitest entry, whose one file of lib/
 * the command line and the main entry never reach; and no source file grows past 350 lines.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
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

/** The one file of lib/ that imports vitest: what `<package>/vitest` (entry/vitest.ts) declares tests with. */
const VITEST_FRONT_DOOR = 'lib/api/define-conformance.ts'

test('a conformance run imports nothing of vitest: lib/, suites/, entry/ and bin/ run where only the dependencies are installed, but for the /vitest entry', () => {
  const offenders: string[] = []
  for (const file of ['lib', 'suites', 'entry', 'bin'].flatMap(sourcesUnder)) {
    if (relative(ROOT, file) === VITEST_FRONT_DOOR) continue
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2]
      if (/^(vitest|vite|@vitest\/)/.test(specifier)) offenders.push(`${relative(ROOT, file)} → ${specifier}`)
    }
  }
  expect(offenders).toEqual([])
  expect(readFileSync(join(ROOT, VITEST_FRONT_DOOR), 'utf8')).toMatch(/from 'vitest'/)
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; peerDependencies: Record<string, string>; peerDependenciesMeta: Record<string, { optional?: boolean }> }
  expect(Object.keys(manifest.dependencies)).not.toContain('vitest')
  expect(manifest.peerDependencies.vitest).toBeDefined()
  expect(manifest.peerDependenciesMeta.vitest?.optional).toBe(true)
})

/** Every source file a file imports, statically or not, followed to the end (relative imports only). */
function reachableFrom(start: string): Set<string> {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2]
      if (!specifier.startsWith('.')) continue
      // bin/conform.mjs imports dist/ (compiled from lib/) or the sources: either way, the sources
      const target = resolve(dirname(file), specifier).replace(`${join(ROOT, 'dist')}/`, ROOT).replace(/\.js$/, '.ts')
      if (existsSync(target)) visit(target)
    }
  }
  visit(join(ROOT, start))
  return new Set([...seen].map((file) => relative(ROOT, file)))
}

test.each(['bin/conform.mjs', 'entry/index.ts'])('%s never reaches the vitest front door, whatever path it takes', (start) => {
  const reached = reachableFrom(start)
  expect(reached.size).toBeGreaterThan(5)
  expect([...reached].filter((file) => file === VITEST_FRONT_DOOR || file === 'entry/vitest.ts')).toEqual([])
})

test('entry/vitest.ts reaches it (the check above follows imports)', () => {
  expect(reachableFrom('entry/vitest.ts')).toContain(VITEST_FRONT_DOOR)
})

test('no source file is over 350 lines', () => {
  const long = ['lib', 'suites', 'entry', 'scripts', 'test', 'bin', 'build']
    .flatMap(sourcesUnder)
    .map((file) => ({ file: relative(ROOT, file), lines: readFileSync(file, 'utf8').split('\n').length }))
    .filter((f) => f.lines > 350)
  expect(long).toEqual([])
})
