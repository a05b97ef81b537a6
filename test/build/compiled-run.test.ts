/**
 * The compiled run (build/compile.mjs → dist/) is the sources' run, and is used only while it is:
 * the build turns every source into its output and spec/*.yaml into the same data as JSON;
 * bin/conform.mjs runs dist/ while its digest matches the sources and the sources once one changed.
 * Everything happens in a copy of the project in a temporary folder, never in this one's dist/,
 * which other tests' runs are using.
 */
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parse as parseYaml } from 'yaml'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { distIsCurrent, sourceDigest, sourceFiles } from '../../build/source-digest.mjs'
import { parseJsonExact } from '../../lib/json/exact-json.ts'
import { schemaProblems } from '../../lib/spec/schema-registry.ts'
import { cleanEnv, ROOT, runNode } from '../helpers/child-process.ts'

const copy = mkdtempSync(join(tmpdir(), 'conform-build-'))
const dist = join(copy, 'dist')

beforeAll(async () => {
  for (const entry of ['bin', 'build', 'lib', 'suites', 'entry', 'spec', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) {
    cpSync(join(ROOT, entry), join(copy, entry), { recursive: true })
  }
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir')
  const build = await runNode([join(copy, 'build/compile.mjs')], { cwd: copy })
  expect(build.code, build.stderr).toBe(0)
}, 60_000)
afterAll(() => rmSync(copy, { recursive: true, force: true }))

describe('npm run build', () => {
  test('compiles every TypeScript file of lib/, suites/ and entry/ to JavaScript and a declaration, both with .js imports, and copies the others', () => {
    for (const dir of ['lib', 'suites', 'entry']) {
      const files = sourceFiles(copy, dir)
      for (const file of files) {
        const out = join(dist, dir, file.replace(/\.ts$/, '.js'))
        expect(existsSync(out), out).toBe(true)
        if (file.endsWith('.ts')) {
          const declaration = join(dist, dir, file.replace(/\.ts$/, '.d.ts'))
          for (const emitted of [out, declaration]) expect(readFileSync(emitted, 'utf8'), emitted).not.toMatch(/from '\.{1,2}\/[^']*\.ts'/)
        } else expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(copy, dir, file), 'utf8'))
      }
    }
  })

  test('writes each document of spec/ as JSON holding the same data as its YAML', () => {
    const yamlFiles = readdirSync(join(copy, 'spec')).filter((f) => f.endsWith('.yaml'))
    expect(yamlFiles.length).toBeGreaterThan(0)
    for (const file of yamlFiles) {
      const json = JSON.parse(readFileSync(join(dist, 'spec', file.replace('.yaml', '.json')), 'utf8'))
      expect(json).toEqual(parseYaml(readFileSync(join(copy, 'spec', file), 'utf8')))
    }
  })

  test('records the digest of the sources, which any edit of a source, a copied file, a suite or the spec changes', () => {
    expect(distIsCurrent(copy)).toBe(true)
    const before = sourceDigest(copy)
    for (const file of ['lib/checks/response.ts', 'lib/reporters/report.css', 'suites/areas/versioning.ts', 'spec/rules.yaml']) {
      const text = readFileSync(join(copy, file), 'utf8')
      writeFileSync(join(copy, file), text + '\n')
      expect(sourceDigest(copy), file).not.toBe(before)
      writeFileSync(join(copy, file), text)
    }
    expect(sourceDigest(copy)).toBe(before)
  })
})

describe('the schema validators the build generates', () => {
  test('give every body the verdict and the messages of the validators compiled from the sources', async () => {
    type Registry = typeof import('../../lib/spec/schema-registry.ts')
    type ExactJson = typeof import('../../lib/json/exact-json.ts')
    const compiled = (await import(pathToFileURL(join(dist, 'lib/spec/schema-registry.js')).href)) as Registry
    const compiledJson = (await import(pathToFileURL(join(dist, 'lib/json/exact-json.js')).href)) as ExactJson
    expect(existsSync(join(dist, 'spec/schema-validators.cjs'))).toBe(true)
    const bodies = [
      '{"id":1,"name":"a","description":"d"}', '{"id":9223372036854775807,"name":"a"}', '{"id":-9223372036854775808,"name":"a"}',
      '{"id":9223372036854775808,"name":"a"}', '{"id":-9223372036854775809,"name":"a"}', '{"id":12345678901234567890,"name":"n"}',
      '{"id":1.5,"name":"a"}', '{"id":1.0,"name":"a"}', '{"id":1e400,"name":"a"}', '{"id":"1","name":"a"}', '{"name":"a"}', '{"id":1}',
      '[{"id":1,"name":"x"},{"id":2,"name":"y","description":null}]', '[{"id":3,"name":"x"},{"id":9223372036854775808,"name":"y"}]',
      '{"code":"x","message":"m","status":400}', '{"code":"x","message":"m","status":4.5}', '{"code":1}', 'null', '"text"', '[]',
    ]
    let problems = 0
    for (const text of bodies) {
      for (const name of ['Category', 'CategoryList', 'NewCategory', 'Error'] as const) {
        const expected = schemaProblems(name, parseJsonExact(text))
        expect(compiled.schemaProblems(name, compiledJson.parseJsonExact(text)), `${name} ${text}`).toEqual(expected)
        if (expected) problems++
      }
    }
    expect(problems).toBeGreaterThan(40)
  })
})

describe('an installed package', () => {
  test('trusts the dist/ it was packed with: no build config there, and not every source shipped', () => {
    const installed = mkdtempSync(join(tmpdir(), 'conform-installed-'))
    try {
      for (const entry of ['lib', 'suites', 'entry', 'spec', 'dist']) cpSync(join(copy, entry), join(installed, entry), { recursive: true })
      // package.json `files` leaves these out of the tarball; the digest covered them
      for (const left of ['lib/cli/serve.ts', 'lib/server/server-cases.ts']) rmSync(join(installed, left))
      expect(sourceDigest(installed)).not.toBe(sourceDigest(copy))
      expect(distIsCurrent(installed)).toBe(true)
      rmSync(join(installed, 'dist'), { recursive: true })
      expect(distIsCurrent(installed)).toBe(false)
    } finally {
      rmSync(installed, { recursive: true, force: true })
    }
  })
})

describe('bin/conform.mjs', () => {
  const conform = () => runNode([join(copy, 'bin/conform.mjs'), '--report-dir', join(copy, 'reports')], { cwd: copy, env: cleanEnv() })

  test('runs dist/ while it matches the sources, and the sources as soon as one changes', async () => {
    // a dist/ that cannot run, still marked current: the run must be dist/'s
    const cli = join(dist, 'lib/cli/conform.js')
    const compiled = readFileSync(cli, 'utf8')
    writeFileSync(cli, `throw new Error('dist/ ran')\n${compiled}`)
    const fromDist = await conform()
    expect(fromDist.code).not.toBe(0)
    expect(fromDist.stderr).toContain('dist/ ran')

    // an edited source: dist/ no longer matches, the sources run (through tsx) and pass
    appendFileSync(join(copy, 'lib/cli/conform.ts'), '\n// edited after the build\n')
    const fromSources = await conform()
    expect(fromSources.stderr).not.toContain('dist/ ran')
    expect(fromSources.code, fromSources.stdout + fromSources.stderr).toBe(0)
    expect(fromSources.stdout).toContain('Verdict: PASS')
  }, 120_000)
})
