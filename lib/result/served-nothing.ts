/**
 * A server that answered no request of the run but with a server fault, or not at all (a gateway
 * with no healthy upstream, a service that is down): confirmation probes nothing again, since a
 * second probe would only wait out the same answers (lib/runner/confirmation.ts), and the reports
 * say that is why its failures are unconfirmed, not --confirm 0, the write budget or the deadline.
 */
import type { JournalEntry } from '../http/journal.ts'

export function servedNothing(journal: readonly JournalEntry[]): boolean {
  return !journal.some((e) => e.onWire && e.status !== undefined && e.status < 500)
}

/** Why its failures were not probed again, in the reports' words. */
export const SERVED_NOTHING_WORDS = 'the server answered no request of the run but with a server fault or not at all, and a second probe would only meet the same'

/**
 * Every request the run put on the wire answered 404 (at least three): nothing is served at the base
 * URL (a wrong path before /v1); the run reaches no verdict (misdirected.ts), and a second probe
 * would only meet the same 404s (a run at `/api/v1` sent 164 POSTs more to confirm them).
 */
export function answeredOnly404(journal: readonly JournalEntry[]): boolean {
  const wire = journal.filter((e) => e.onWire)
  return wire.length >= 3 && wire.every((e) => e.status === 404)
}
