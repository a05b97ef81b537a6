/**
 * Whether dist/ holds the code of the sources beside it. `npm run build` (build/compile.mjs) writes a
 * digest of every source it compiled next to the output, and bin/conform.mjs runs dist/ only while
 * the digest of the sources still matches, so that an edited suite or rule is never run stale.
 * Plain JavaScript: it runs before anything is compiled.
 */
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * What dist/ is made from: every file of lib/, suites/ and entry/ (the TypeScript compiled by
 * tsconfig.build.json, anything else, such as a stylesheet, copied) and the YAML of spec/.
 */
export const SOURCES = [
  { dir: 'lib', ext: '' },
  { dir: 'suites', ext: '' },
  { dir: 'entry', ext: '' },
  { dir: 'spec', ext: '.yaml' },
]
export const DIST_DIR = 'dist'
export const DIGEST_NAME = 'source-digest.txt'
/** The build's own configuration: in a clone, never in a packed tarball (package.json `files`). */
export const BUILD_CONFIG = 'tsconfig.build.json'

/** The files under root/dir, as sorted relative paths with forward slashes. */
export function sourceFiles(root, dir) {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name).slice(join(root, dir).length + 1).replaceAll('\\', '/'))
    .sort()
}

/** SHA-256 over the path and content of every source file, in a fixed order. */
export function sourceDigest(root) {
  const hash = createHash('sha256')
  for (const { dir, ext } of SOURCES) {
    const files = sourceFiles(root, dir).filter((file) => file.endsWith(ext))
    for (const file of files) {
      hash.update(`${dir}/${file}\0`)
      hash.update(readFileSync(join(root, dir, file)))
      hash.update('\0')
    }
  }
  return hash.digest('hex')
}

/**
 * True when root/dist/ was compiled from exactly the sources now under `root`. In an installed
 * package (its tarball ships dist/ and not the build's tsconfig, nor some sources such as the
 * mutations) nothing can rebuild dist/ and not every source is there to compare: dist/ is what was
 * packed, current whenever it was built.
 */
export function distIsCurrent(root) {
  if (!existsSync(join(root, BUILD_CONFIG))) return existsSync(join(root, DIST_DIR, DIGEST_NAME))
  try {
    return readFileSync(join(root, DIST_DIR, DIGEST_NAME), 'utf8').trim() === sourceDigest(root)
  } catch {
    return false // never built, or no sources to compare with
  }
}
