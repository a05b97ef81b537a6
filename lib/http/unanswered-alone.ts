/**
 * A request unanswered where no freedom of the server explains it. A server may close a keep-alive
 * connection at any moment (RFC 9112 §9.3.1), and may close connections past a limit of its own: a
 * request written on a connection as it closes gets no byte of an answer, and is not judged
 * (lib/http/lost-answer.ts). Once the run is down to one request at a time, a POST lost so goes
 * again alone: every connection of the run closed first, then written as the first request on a
 * fresh connection, the only one open to the server, its body written whole. Closed under it
 * before any byte of an answer, neither the race (which needs a connection that carried an earlier
 * request) nor a limit of its own (which this one connection cannot pass) explains it. A limit shared
 * with other clients (a busy service's maxConnections) or a replica that drops connections would drop
 * the list read at once after it too: a try counts only when that list, on a connection opened since,
 * was answered on its first attempt (review34: a service of four connections at most,
 * others' traffic filling them 40 % of the time, failed one run in four, each POST's three tries
 * alone closed at the door). Three times so, it is the server's, and the checks of its answer fail (NO_RESPONSE). Measured: a Java service on a bare
 * ServerSocket that reads Content-Length characters never answers a body of wider ones
 * (lib/result/wide-bodies.ts), and the run passed with each such POST skipped as lost in transit.
 * The tries are resends the run makes anyway (within its bound of them), not more.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { ConnectionPools } from './connection-pools.ts'
import type { Exchange } from './exchange.ts'
import { firstOnItsConnection } from './first-requests.ts'
import { lostInTransit } from './lost-answer.ts'
import type { HttpResult } from './client-options.ts'
import { bodyWrittenWhole, connectionsTo } from './open-connections.ts'

/**
 * Times a request must go unanswered alone before its checks fail: once, and twice more to confirm
 * it, as --confirm 2 probes a failure (a server that drops one connection in twenty at random drops
 * two in a row one time in 400, three one time in 8,000: at --concurrency 1, where every lost POST
 * goes alone, a run of 97 POSTs would fail one time in 80 with two, one in 1,600 with three).
 */
export const ALONE_CONFIRMATIONS = 3

/** The longest wait for the run's connections to close before a request goes alone; past it, it goes as any resend. */
const CLOSE_WAIT_MS = 1_000

/**
 * The wait, once the run's connections have closed, before a request goes alone: a server counts a
 * connection closed only once it has read its end, a moment after the client closed it. Without it,
 * the kill matrix's server of one connection at most (at-most-1-connection, three runs in one busy
 * process) closed three tries alone in a row as soon as they came, still counting the one before.
 */
const SETTLE_MS = 250

/** A request's try alone: `opened`, the connections opened to the server before it, once every one had closed (none: it could not go alone). */
export interface AloneTry {
  opened?: number
}

/**
 * Once the try holds its slot: every connection of the run closed, and waited for (a socket's
 * close is heard a moment after), so that the request goes on the only connection open to the
 * server. Other requests of the run still under way keep theirs open: then it is not alone.
 */
export async function clearTheWire(pools: ConnectionPools, origin: string, alone: AloneTry, signal?: AbortSignal): Promise<void> {
  // the request's end (--timeout, --deadline, a signal) ends the wait too: up to 2.25 s past the deadline before (review34)
  await Promise.race([pools.closeEveryConnection(CLOSE_WAIT_MS), sleep(CLOSE_WAIT_MS, undefined, { signal })])
  const until = performance.now() + CLOSE_WAIT_MS
  while (connectionsTo(origin).open > 0 && performance.now() < until) await sleep(5, undefined, { signal })
  if (connectionsTo(origin).open > 0) return
  await sleep(SETTLE_MS, undefined, { signal })
  const now = connectionsTo(origin)
  if (now.open === 0) alone.opened = now.opened
}

/**
 * Whether a try went unanswered alone: the connection closed under it before any byte of an
 * answer, it was the first request on that connection, its body was written whole, and that was
 * the one connection opened to the server while it was under way.
 */
export function unansweredAlone(exchange: Exchange, alone: AloneTry | undefined, origin: string): boolean {
  if (alone?.opened === undefined || !lostInTransit(exchange) || exchange.sent !== true) return false
  const traceparent = exchange.request.headers.traceparent
  return firstOnItsConnection(traceparent) && bodyWrittenWhole(traceparent) && connectionsTo(origin).opened === alone.opened + 1
}

/**
 * A POST's tries alone so far (client.ts keeps one per request sent). `pending`: the try just lost
 * went unanswered alone (unansweredAlone); it counts once the list read after it (afterTheRace) was
 * answered at once: on its first attempt, on a connection opened since the try (the pools were
 * replaced before it, clearTheWire), so the server took a connection of the run's and answered it
 * at that moment, as one dropping connections at a limit others fill, or at random, would not
 * have every time.
 */
export class AloneTries {
  counted = 0
  pending = false
  /** Whether the try just lost may be the one that confirms it (then no pause as after a refusal). */
  get last(): boolean {
    return this.pending && this.counted + 1 >= ALONE_CONFIRMATIONS
  }
  /** The list read after the pending try: the tries counted once they reach ALONE_CONFIRMATIONS, else undefined. */
  confirmed(list: HttpResult): number | undefined {
    const { exchange } = list
    if (this.pending && exchange.response !== undefined && exchange.attempt === undefined) this.counted++
    this.pending = false
    return this.counted >= ALONE_CONFIRMATIONS ? this.counted : undefined
  }
}
