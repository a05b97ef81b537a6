/**
 * Marks on the process's performance timeline where each phase of a run ends, so that a profile or
 * `npm run bench` (scripts/bench/conform-runs.ts) can say where the time of a run goes. A mark costs
 * microseconds; nothing reads them unless asked. bin/conform.mjs marks the entry and the loaded
 * command line (lib/cli/conform.ts, which loads this runner only once a run is to be made).
 */
import type { Reporter } from 'vitest/node'

/** The marks, in the order a run passes them. */
export const PHASE_MARKS = {
  entry: 'conform:entry',
  loaded: 'conform:loaded',
  vitestReady: 'conform:vitest-ready',
  firstSuiteImported: 'conform:first-suite-imported',
  checksDone: 'conform:checks-done',
} as const

/** A vitest reporter that marks when vitest is ready, the worker has imported a first suite, and the checks are done. */
export function phaseMarks(): Reporter {
  let collected = false
  return {
    onTestRunStart: () => void performance.mark(PHASE_MARKS.vitestReady),
    onTestModuleCollected: () => {
      if (!collected) performance.mark(PHASE_MARKS.firstSuiteImported)
      collected = true
    },
    onTestRunEnd: () => void performance.mark(PHASE_MARKS.checksDone),
  }
}
