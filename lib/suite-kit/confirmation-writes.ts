/**
 * What a confirmation attempt (lib/runner/confirmation.ts) may write: only the POSTs the failures
 * were found on, each with a fresh name, and no more than an explicit --max-writes leaves. Without
 * --max-writes, the default budget includes confirmation: at most one create per failed create and
 * attempt, so at most N (--confirm) more per failed create.
 */
export interface ConfirmationWrites {
  /** The declared POST probes (suites/cases/write-order.ts) the failed checks sent. */
  probes: ReadonlySet<string>
  /** POSTs still allowed over the whole confirmation: what an explicit --max-writes leaves, else --confirm for each failed POST (Infinity: a --repeat round, bounded by its plan). */
  left: number
  /** Why a POST was not sent when `left` ran out. */
  exhausted: string
  /** Why a POST not in `probes` was not sent. */
  notNeeded: string
  /** True in an attempt that probes the run's failures again (--confirm), false in a further round (--repeat), which runs every check. */
  reprobesFailures: boolean
}

/** Why this POST may not go out in a confirmation attempt, or undefined when it may (and is counted). */
export function confirmationRefusal(writes: ConfirmationWrites, key: string): { reason: 'not-needed' | 'write-budget'; detail: string } | undefined {
  if (!writes.probes.has(key)) return { reason: 'not-needed', detail: writes.notNeeded }
  if (writes.left <= 0) return { reason: 'write-budget', detail: writes.exhausted }
  writes.left--
  return undefined
}
