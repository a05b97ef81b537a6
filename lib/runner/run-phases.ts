/**
 * Marks on the process's performance timeline where each phase of a run ends, so that a profile or
 * `npm run bench` (scripts/bench/conform-runs.ts) can say where the time of a run goes. A mark costs
 * microseconds; nothing reads them unless asked. bin/conform.mjs marks the entry and the loaded
 * command line (lib/cli/conform.ts, which loads this runner only once a run is to be made).
 */

/** The marks, in the order a run passes them. */
export const PHASE_MARKS = {
  entry: 'conform:entry',
  loaded: 'conform:loaded',
  /** The options read (command line, environment, files). */
  optionsRead: 'conform:options-read',
  /** The preflight answered (--base-url), or the embedded server listening; the runner loads beside it. */
  targetReady: 'conform:target-ready',
  /** The runner and the suites' manifest loaded (lib/cli/conform.ts awaits both, and the target). */
  runnerLoaded: 'conform:runner-loaded',
  /** The suites, the checks and the HTTP client imported, the embedded server (if any) listening. */
  suitesLoaded: 'conform:suites-loaded',
  /** Every check finished (or the run cut). */
  checksDone: 'conform:checks-done',
  /** Every report file written. */
  reportsWritten: 'conform:reports-written',
} as const

export function markPhase(mark: (typeof PHASE_MARKS)[keyof typeof PHASE_MARKS]): void {
  performance.mark(mark)
}
