/**
 * The package's entries (entry/) as a user's import gets them: dist/, the compiled code the
 * package ships, while it matches the sources (npm test builds it first), else the sources, as
 * test/helpers/run-conform.ts loads the command line.
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { distIsCurrent } from '../../build/source-digest.mjs'
import { ROOT } from '../helpers/run-conform.ts'

type MainEntry = typeof import('../../entry/index.ts')

let main: Promise<MainEntry> | undefined
/** `import … from 'petstore-categories-conformance'`. */
export function mainEntry(): Promise<MainEntry> {
  main ??= distIsCurrent(ROOT) ? (import(/* @vite-ignore */ pathToFileURL(join(ROOT, 'dist/entry/index.js')).href) as Promise<MainEntry>) : import('../../entry/index.ts')
  return main
}

/** What a test file written for a child vitest imports for `<package>/vitest`, and for the servers of lib/server (by path: no package is installed there). */
export function entryFiles(): { vitest: string; serverCases: string; mutations: string; variants: string } {
  const compiled = distIsCurrent(ROOT)
  const file = (path: string) => pathToFileURL(join(ROOT, compiled ? `dist/${path}.js` : `${path}.ts`)).href
  return { vitest: file('entry/vitest'), serverCases: file('lib/server/server-cases'), mutations: file('lib/server/mutations'), variants: file('lib/server/variants') }
}
