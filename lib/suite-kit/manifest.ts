/**
 * What a run needs of the suites before it starts them: the POSTs they may send and the suites
 * themselves. suites/manifest.ts gives it, and the entry point (bin/conform.mjs) hands that to the
 * command line, so lib/ never imports suites/ and suites/ never import the runner.
 */
import type { Suite } from './check.ts'
import type { DeclaredPost } from './write-plan.ts'

export interface SuiteManifest {
  /** Every POST the suites may send, in priority order. */
  declaredPosts: readonly DeclaredPost[]
  /** The suites, loaded when a run starts (suites/conformance.ts). */
  loadSuites: () => Promise<readonly Suite[]>
}
