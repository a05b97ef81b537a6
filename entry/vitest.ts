/**
 * `import { defineConformance } from 'petstore-categories-conformance/vitest'`: the suites inside a
 * service's own vitest (docs/library.md). vitest is an optional peer dependency, needed by this
 * entry only; the command line and the main entry never load it.
 */
import { declareConformance } from '../lib/api/define-conformance.ts'
import type { ConformanceOptions } from '../lib/api/options.ts'
import { SUITES } from '../suites/conformance.ts'
import { manifest } from '../suites/manifest.ts'

export { ConformanceConfigError, ConformanceError, ConformanceRunError } from '../lib/api/errors.ts'
export { ConformanceCheckFailure } from '../lib/api/define-conformance.ts'
export { startReferenceServer, type ReferenceService, type ReferenceServiceOptions } from '../lib/api/reference-server.ts'
export type { BaseUrl, ConformanceOptions } from '../lib/api/options.ts'

/**
 * Declares, in the calling test file, one describe() per rule of the catalogue (`rule` selects
 * some) and one test() per check; the run is made once, in a beforeAll, with the command line's
 * options and defaults. `baseUrl` may be a function or a promise, for a service the test file
 * starts itself. A bad option throws here, with the command line's message.
 */
export function defineConformance(options: ConformanceOptions = {}): void {
  declareConformance(SUITES, manifest, options)
}
