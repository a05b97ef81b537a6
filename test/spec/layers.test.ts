/**
 * The layers of ARCHITECTURE.md point one way: each folder of lib/ imports only its own layer and
 * those below it (LAYERS, in the order ARCHITECTURE.md lists them), so no two import each other
 * (as lib/result and lib/suite-kit once did); lib/ imports nothing from suites/, and suites/ only
 * what a suite needs (never the runner, as suites/manifest.ts once did); a conformance run (lib/,
 * suites/, bin/) loads nothing of vitest, a development dependency that runs only the project's
 * tests and, as an optional peer, the package's /vitest entry, whose one file of lib/ the command
 * line and the main entry never reach; and no source file grows past 350 lines.
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

/** lib/'s layers, lowest first: ARCHITECTURE.md lists them in this order. `project-root` is lib/project-root.ts. */
const LAYERS = ['project-root', 'json', 'spec', 'config', 'http', 'checks', 'result', 'suite-kit', 'reporters', 'runner', 'server', 'fleet', 'api', 'cli'] as const
/** What suites/ may use of lib/: how to declare and judge checks, never the runner, the reports or the reference server. */
const FOR_SUITES = new Set(['json', 'spec', 'http', 'checks', 'suite-kit'])

/** The layer of a file of lib/ (undefined: not in lib/). */
function layerOf(file: string): string | undefined {
  const path = relative(join(ROOT, 'lib'), file)
  if (path.startsWith('..')) return undefined
  return path.split('/')[0].replace(/\.ts$/, '')
}

/** Every relative import of the sources under `dir`: the importing file and the file imported. */
function importsUnder(dir: string): { from: string; to: string }[] {
  return sourcesUnder(dir).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(IMPORT)]
      .map((match) => match[1] ?? match[2])
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => ({ from: file, to: resolve(dirname(file), specifier) })),
  )
}

test('ARCHITECTURE.md lists the layers of lib/ in the order the imports keep', () => {
  const doc = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8')
  const listed = [...doc.slice(doc.indexOf('## The layers'), doc.indexOf('## The path of a rule')).matchAll(/^ {2}([a-z-]+)\/ /gm)].map((m) => m[1])
  expect(listed).toEqual(LAYERS.filter((layer) => layer !== 'project-root'))
  expect(new Set(sourcesUnder('lib').map(layerOf))).toEqual(new Set(LAYERS))
})

test('each layer of lib/ imports only itself and the layers below it: no cycle, no upward import', () => {
  const rank = (layer: string | undefined) => LAYERS.indexOf(layer as (typeof LAYERS)[number])
  const upward = importsUnder('lib')
    .filter(({ to }) => layerOf(to) !== undefined)
    .filter(({ from, to }) => rank(layerOf(to)) > rank(layerOf(from)))
    .map(({ from, to }) => `${relative(ROOT, from)} → ${relative(ROOT, to)}`)
  expect(upward).toEqual([])
})

test('suites/ use of lib/ only what a suite needs: never the runner, the reporters, the command line or the reference server', () => {
  const offenders = importsUnder('suites')
    .filter(({ to }) => layerOf(to) !== undefined && !FOR_SUITES.has(layerOf(to)!))
    .map(({ from, to }) => `${relative(ROOT, from)} → ${relative(ROOT, to)}`)
  expect(offenders).toEqual([])
})

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
