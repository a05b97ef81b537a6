/**
 * The POSTs a run sent beyond its plan: a declared POST probe (suites/cases/write-order.ts) goes
 * out once in the run's own checks; the same probe on the wire again is a confirmation attempt
 * (--confirm, lib/runner/confirmation.ts) or a further round (--repeat), each in a scope of its
 * own. Resends of one POST (after a 429 or 503, or on a fresh connection after the connection
 * race) are the same write and are not counted. Read from the journal, so the reports say it from
 * what was sent, not from what was meant.
 */
import type { JournalEntry } from '../http/journal.ts'

/**
 * `later`: whether a body names its records with a prefix of a later scope's, not the run's own
 * (run-result.ts). A probe first on the wire in a confirmation attempt (a create's plain-ASCII
 * control, which the run did not send: lib/suite-kit/confirmation-writes.ts) is a write again too.
 */
export function writesAgain(journal: readonly JournalEntry[], later?: (body: string) => boolean): number {
  const seen = new Set<string>()
  let again = 0
  for (const entry of journal) {
    if (entry.outcome === 'refused' || !entry.onWire || entry.method !== 'POST' || entry.probe === undefined) continue
    if ((entry.attempt ?? 1) > 1 || entry.freshConnection) continue
    if (seen.has(entry.probe) || later?.(entry.body ?? '') === true) again++
    seen.add(entry.probe)
  }
  return again
}
