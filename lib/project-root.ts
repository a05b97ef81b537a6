/**
 * Where the project's files are, whether this code runs from its sources (lib/) or compiled to
 * dist/lib/ by `npm run build` (build/compile.mjs).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const codeRoot = new URL('../', import.meta.url)

/** The folder holding lib/ and suites/ as this process runs them: the project, or dist/ when compiled. */
export const CODE_ROOT = fileURLToPath(codeRoot)

/** True when this process runs the JavaScript of dist/ (file names end in .js, imports need no transform). */
export const RUNS_COMPILED = import.meta.url.endsWith('.js')

/** The folder holding package.json and spec/. */
export const PROJECT_ROOT = existsSync(new URL('package.json', codeRoot)) ? CODE_ROOT : fileURLToPath(new URL('../', codeRoot))

let version: string | undefined

/** The version in package.json (`--version`, and every report), read once. */
export const toolVersion = (): string => (version ??= (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version)
