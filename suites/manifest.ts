/**
 * What the runner needs of the suites: the POSTs they may send, in priority order, so that a run can
 * say in its first lines what it may write, and the suites themselves, loaded when the run starts.
 * The entry point (bin/conform.mjs) hands this to the command line, so lib/ never imports suites/,
 * and the type comes from lib/suite-kit (suites/ never import the runner).
 */
import type { SuiteManifest } from '../lib/suite-kit/manifest.ts'
import { POST_PROBES } from './cases/write-order.ts'

export const manifest: SuiteManifest = {
  declaredPosts: POST_PROBES,
  loadSuites: () => import('./conformance.ts').then((m) => m.SUITES),
  readListForLedger: (run, lastWriteAnsweredAt) => import('./categories/probes.ts').then((m) => m.listForLedger(run, lastWriteAnsweredAt)),
}
