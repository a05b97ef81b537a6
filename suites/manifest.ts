/**
 * What the runner needs to know of the suites before it starts them: the POSTs they may send, in
 * priority order, so that a run can say in its first lines what it may write. The entry point
 * (bin/conform.mjs) hands this to the command line, so lib/ never imports suites/.
 */
import type { SuiteManifest } from '../lib/runner/conform-run.ts'
import { POST_PROBES } from './cases/write-order.ts'

export const manifest: SuiteManifest = { declaredPosts: POST_PROBES }
