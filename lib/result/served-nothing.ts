/**
 * A server that answered no request of the run but with a server fault, or not at all (a gateway
 * with no healthy upstream, a service that is down): confirmation probes nothing again, since a
 * second probe would only wait out the same answers (lib/runner/confirmation.ts), and the reports
 * say that is why its failures are unconfirmed, not --confirm 0, the write budget or the deadline.
 */
import type { Exchange } from '../http/exchange.ts'
import type { JournalEntry } from '../http/journal.ts'
import { KEY_AUTHORIZATION } from '../http/redact.ts'

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

/**
 * The statuses of the answers other than 404 when the categories are not routed at the base URL
 * behind a front that refuses before it routes, else undefined: every GET the run sent with the
 * key (at least one) and at least two requests answered 404 (lib/runner/list-first.ts stops the run's
 * sending there), none served (2xx), redirected or failed by the server (5xx): the other answers are refusals that come before the route is looked
 * up, 401 to a request without the key, 400 to a body the framework could not parse. A gateway that
 * checks the key first, Fastify's onRequest hook, Express middleware mounted before the router
 * answer a wrong path so: a run at `/api/v1` of a Fastify service was a FAIL of 5 rules, 62
 * checks "answered 404", with 114 POSTs sent again to confirm them, no word of the address
 * (userplay9). `exchanges`: the run's, which tell the requests sent with the key.
 */
export function notRoutedBehindRefusals(journal: readonly JournalEntry[], exchanges: readonly Exchange[]): number[] | undefined {
  const statuses = journal.flatMap((e) => (e.onWire && e.status !== undefined ? [e.status] : []))
  if (statuses.filter((status) => status === 404).length < 2 || !statuses.every((status) => status >= 400 && status < 500)) return undefined
  const listed = exchanges.filter((e) => e.request.method === 'GET' && e.request.headers.authorization === KEY_AUTHORIZATION && e.response !== undefined)
  if (listed.length === 0 || !listed.every((e) => e.response!.status === 404)) return undefined
  return statuses.filter((status) => status !== 404)
}
