/**
 * What a run needs of the suites before it starts them: the POSTs they may send and the suites
 * themselves. suites/manifest.ts gives it, and the entry point (bin/conform.mjs) hands that to the
 * command line, so lib/ never imports suites/ and suites/ never import the runner.
 */
import type { Suite } from './check.ts'
import type { DeclaredPost } from './write-plan.ts'
import type { Run } from './run-context.ts'

export interface SuiteManifest {
  /** Every POST the suites may send, in priority order. */
  declaredPosts: readonly DeclaredPost[]
  /** The suites, loaded when a run starts (suites/conformance.ts). */
  loadSuites: () => Promise<readonly Suite[]>
  /**
   * Reads the list once, a GET the run's client journals, and hands it to the run's ledger
   * (RunContext.listsRead): after the run's last POSTs, when no list it read followed them
   * (lib/runner/after-checks.ts). `lastWriteAnsweredAt`: when the last of them was answered (ms
   * since the epoch), which a list the run saw lag is read that long after (--list-lag). Absent:
   * the ledger reads only the lists the checks read.
   */
  readListForLedger?: (run: Run, lastWriteAnsweredAt: number) => Promise<unknown>
}
