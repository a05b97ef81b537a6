/**
 * A create that took far longer than the run's others (from its write to its answer): a front may
 * have sent it again when the service had not answered in time (HAProxy's retry-on
 * response-timeout, Envoy's retry_policy), the first attempt storing its record after that answer.
 * The list after the POSTs is then read once more, --list-lag after the last create
 * (suites/categories/list-lag.ts), and the reports say why the run waited (lib/result/observed-behaviour.ts).
 */

/** A create answered at least this long after it was written may have passed a front's timeout and been sent again. */
export const RESENT_AFTER_MS = 1_000
/** And at least this many times as long as the median create. */
const TIMES_THE_MEDIAN = 4

/** The slowest create and the median of all, when the slowest took far longer than the others; else undefined. */
export function farSlowerCreate(tookMs: readonly number[]): { slowestMs: number; medianMs: number } | undefined {
  const took = [...tookMs].sort((a, b) => a - b)
  const slowestMs = took.at(-1) ?? 0
  const medianMs = took[Math.floor(took.length / 2)] ?? 0
  return slowestMs >= RESENT_AFTER_MS && slowestMs >= TIMES_THE_MEDIAN * medianMs ? { slowestMs, medianMs } : undefined
}
