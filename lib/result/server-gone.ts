/**
 * A server that stops taking connections during the run: stopped, restarted by a deploy, its
 * process crashed, its port closed. From some request on, every request gets no connection
 * (ECONNREFUSED: nothing listens there any more), its confirmations too. Each check from then on
 * would fail alike for that one cause, and no rule of the document would be the fault: a run
 * against a server that cannot be reached from the start stops with exit 2 before any request, and
 * one that goes away during the run is no different. The run is incomplete (exit 2), says from
 * which request on and which requests were in flight when it went (one of them may have crashed
 * it: a run again says which), and the checks those refused connections fail are not verified.
 * A server that hangs (no answer within --timeout), resets connections or answers garbage still
 * fails: its port was open.
 */
import type { Exchange } from '../http/exchange.ts'
import { notTheServers } from '../http/transport-errors.ts'
import type { RunProblem } from './run-problems.ts'

export const SERVER_GONE = 'the server stopped taking connections during the run'

/** Fewer refused connections than this in the tail say too little (a last request that happened to be refused). */
const ENOUGH = 3

/**
 * How long before the last answer a connection cut still counts as cut by the server going away:
 * the client's own lateness under load (a busy event loop reads a cut and an answer late, in either
 * order), far under the seconds between a worker's crash and the server's.
 */
const SETTLE_MS = 1000

/** When a request ended (ms): its answer, or the error it met. */
const endedAt = (e: Exchange) => Date.parse(e.startedAt) + e.durationMs
const refused = (e: Exchange) => e.response === undefined && e.error?.code === 'CONNECTION_REFUSED'
/** A request on a connection the server dropped as it went: cut, or written to a socket already closed. */
const cut = (e: Exchange) => e.response === undefined && e.error?.code === 'CONNECTION_RESET'
const described = (e: Exchange) => `${e.request.method} ${new URL(e.request.url).pathname}`

export interface ServerGone {
  /** The problem (kind server-gone), its message starting with SERVER_GONE. */
  problem: RunProblem
  /** The exchanges that got no connection, or were cut, from then on: checks failed on one of them are not verified. */
  unanswered: ReadonlySet<string>
  skipReason: string
}

/**
 * Whether the server went away: the run's requests, in the order they ended, end in a run of
 * connections refused (at least ENOUGH, the last request among them) and connections cut as it
 * went. Undefined when any answer came after the first refusal: a server that restarted is judged
 * on what it answered.
 */
export function serverGone(exchanges: readonly Exchange[]): ServerGone | undefined {
  const byId = new Map<string, Exchange>()
  // a request the client never sent (the deadline, a stalled operation) says nothing of the server,
  // and ends after its refusals: in their order, it hid that the run ended in them
  for (const e of exchanges) if (e.response !== undefined || (e.error !== undefined && notTheServers(e.error.code) === undefined)) byId.set(e.id, e)
  const ordered = [...byId.values()].map((e) => ({ e, at: endedAt(e) })).sort((a, b) => a.at - b.at)
  let from = ordered.length
  while (from > 0 && (refused(ordered[from - 1]!.e) || cut(ordered[from - 1]!.e))) from--
  const tail = ordered.slice(from).map(({ e }) => e)
  const refusals = tail.filter(refused)
  if (refusals.length < ENOUGH || !refused(tail[tail.length - 1]!)) return undefined
  // the requests cut as it went, and those answered last before it: the ones in flight when it went
  const firstRefusal = Math.min(...refusals.map((e) => Date.parse(e.startedAt)))
  const lastAnswered = ordered.slice(0, from).reverse().find(({ e }) => e.response !== undefined)?.e
  // a connection cut as it went may end, as the client saw it, just before an answer the server
  // wrote before it went (a busy client reads the two in either order): cut within SETTLE_MS of
  // the last answer, it was in flight too, not a crash of its own (that run failed 4 rules on it)
  const settled = lastAnswered === undefined ? Number.NEGATIVE_INFINITY : endedAt(lastAnswered) - SETTLE_MS
  const inFlight = [...ordered.slice(0, from).filter(({ e, at }) => cut(e) && at >= settled).map(({ e }) => e), ...tail.filter(cut)]
  const since = from > 0 ? `request ${from + 1} on (of ${ordered.length}, in the order they ended)` : 'the first request of the run on'
  const answered = lastAnswered ? `; the last answer came at ${lastAnswered.startedAt} (${described(lastAnswered)}, ${lastAnswered.response!.status})` : '; it answered no request of the run'
  const cutWords = inFlight.length > 0 ? `, and ${inFlight.length} in flight had their connection cut (the first: ${described(inFlight[0]!)}, sent ${inFlight[0]!.startedAt})` : ''
  return {
    problem: {
      kind: 'server-gone',
      message:
        `${SERVER_GONE}: from ${since}, ${refusals.length} requests were refused a connection (nothing listened any more, from ${new Date(firstRefusal).toISOString()})${cutWords}${answered}. ` +
        `It was stopped, restarted or crashed: checks of those requests are not verified. A request that crashes the server is a fault; a run again, once it is up, says whether one does`,
    },
    unanswered: new Set([...inFlight, ...tail].map((e) => e.id)),
    skipReason: `not verified: the server stopped taking connections from ${since}`,
  }
}

/** A failed check whose evidence holds a request the gone server did not answer is not verified instead. */
export function withoutFailuresOfTheGoneServer<C extends { status: string; exchanges: readonly Exchange[] }>(checks: C[], gone: ServerGone): C[] {
  return checks.map((c) =>
    c.status === 'fail' && c.exchanges.some((e) => gone.unanswered.has(e.id)) ? { ...c, status: 'skip', cause: 'server-gone', skipReason: gone.skipReason, failure: undefined, reproduce: [] } : c,
  )
}
