/**
 * The type declarations are found by a TypeScript that does not read `exports`: a service whose
 * tsconfig says `"moduleResolution": "node"` (TypeScript 5's node10, common in Express services
 * started before node16 existed) found neither entry ("Cannot find module
 * 'petstore-categories-conformance/vitest' or its corresponding type declarations"), though its
 * tests ran. `types` names the main entry's and `typesVersions` the `./vitest` entry's, the same
 * files `exports` names (tried with TypeScript 5.9.3 under node10, strict, skipLibCheck off: no
 * error; TypeScript 7, which this project builds with, has no node10 to test it with).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { ROOT } from '../helpers/run-conform.ts'

test('every entry of exports has its declarations named where moduleResolution node looks', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    types?: string
    typesVersions?: Record<string, Record<string, string[]>>
    exports: Record<string, string | { types?: string }>
  }
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'string' || target.types === undefined) continue
    const named = subpath === '.' ? pkg.types : pkg.typesVersions?.['*']?.[subpath.replace(/^\.\//, '')]?.[0]
    expect(named, subpath).toBe(target.types)
  }
  // and the files are the build's (npm run build writes them; the packed tarball holds dist/)
  if (existsSync(join(ROOT, 'dist/entry'))) expect(existsSync(join(ROOT, pkg.types ?? ''))).toBe(true)
})
