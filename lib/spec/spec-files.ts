/**
 * The documents of spec/ as data. A compiled run (dist/, `npm run build`) reads the JSON that the
 * build wrote from them, so that it loads no YAML parser (about 50 ms of CPU per thread); a run from
 * the sources parses the YAML itself. Both are the same data: the build only re-encodes it.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { CODE_ROOT, PROJECT_ROOT, RUNS_COMPILED } from '../project-root.ts'

export type SpecFile = 'rules' | 'openapi'

/** spec/NAME.yaml, the document as written. */
export const specPath = (name: SpecFile): string => join(PROJECT_ROOT, 'spec', `${name}.yaml`)

/** spec/NAME.yaml, parsed. */
export function readSpecFile(name: SpecFile): unknown {
  if (RUNS_COMPILED) return JSON.parse(readFileSync(join(CODE_ROOT, 'spec', `${name}.json`), 'utf8'))
  const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml')
  return parse(readFileSync(specPath(name), 'utf8'))
}
