/**
 * Whether dist/ holds the code of the sources beside it. `npm run build` (build/compile.mjs) writes a
 * digest of every source it compiled next to the output, and bin/conform.mjs runs dist/ only while
 * the digest of the sources still matches, so that an edited suite or rule is never run stale.
 * Plain JavaScript: it runs before anything is compiled.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** What dist/ is made from: the TypeScript of lib/ and suites/ (tsconfig.build.json), the YAML of spec/. */
export const SOURCES = [
  { dir: 'lib', ext: '.ts' },
  { dir: 'suites', ext: '.ts' },
  { dir: 'spec', ext: '.yaml' },
]
export const DIST_DIR = 'dist'
export const DIGEST_NAME = 'source-digest.txt'

/** SHA-256 over the path and content of every source file, in a fixed order. */
export function sourceDigest(root) {
  const hash = createHash('sha256')
  for (const { dir, ext } of SOURCES) {
    const files = readdirSync(join(root, dir), { recursive: true })
      .map((file) => String(file).replaceAll('\\', '/'))
      .filter((file) => file.endsWith(ext))
      .sort()
    for (const file of files) {
      hash.update(`${dir}/${file}\0`)
      hash.update(readFileSync(join(root, dir, file)))
      hash.update('\0')
    }
  }
  return hash.digest('hex')
}

/** True when `outDir` (default dist/) was compiled from exactly the sources now under `root`. */
export function distIsCurrent(root, outDir = join(root, DIST_DIR)) {
  try {
    return readFileSync(join(outDir, DIGEST_NAME), 'utf8').trim() === sourceDigest(root)
  } catch {
    return false // never built, or no sources to compare with
  }
}
