/**
 * A connection refused during the run (ECONNREFUSED: nothing listened on the port at that moment)
 * carried nothing: the server took no byte of the request, so sending it again writes nothing twice,
 * a POST included. A server restarted by a deploy, its process manager (pm2, systemd, a container's
 * restart policy) or its own graceful reload refuses connections for the second or so it takes to
 * listen again; each request sent in that second failed its checks as "no complete response"
 * (measured: a proxy that stopped listening for 0.5 to 1.5 s mid-run, its in-flight requests
 * answered, failed 11 runs of 12 as "intermittent", a FAIL with every rule it met). Such a request
 * waits and goes again, as a 503 does, while the server has been refusing for less than
 * refusedWindowMs since it last answered; past that it is taken as gone, and its refusals end the
 * run as lib/result/server-gone.ts says (exit 2), that window later than before.
 */
import type { Exchange } from './exchange.ts'

/** How long a server may refuse every connection, since it last answered, before its refusals are taken as final: at least. */
export const REFUSED_WINDOW_MS = 5000

/**
 * The window for a run's --timeout: as long as the server may leave a request unanswered, and at
 * least REFUSED_WINDOW_MS. A restart is that long a silence: a JVM service's container restarted
 * by its orchestrator listens again after 5 to 15 s, and with a fixed 5 s every request it refused
 * past them failed its checks; a longer --timeout now waits it out, and a server gone ends the
 * run that much later (10 s by default, where it was 5).
 */
export const refusedWindowMs = (timeoutMs: number) => Math.max(REFUSED_WINDOW_MS, timeoutMs)
/** The first wait before a refused request goes again, doubled for each refusal it met, up to REFUSED_WAIT_MAX_MS. */
const REFUSED_WAIT_MS = 100
const REFUSED_WAIT_MAX_MS = 1000
/** At most this many resends of one request (about 16 s of waits), more for a longer window: a server that answers others keeps the window open. */
export const REFUSED_RESENDS = 20
const resendsFor = (windowMs: number) => Math.max(REFUSED_RESENDS, Math.ceil(windowMs / REFUSED_WAIT_MAX_MS) + 4)

export function connectionRefused(exchange: Exchange): boolean {
  return exchange.sent !== true && exchange.response === undefined && exchange.error?.code === 'CONNECTION_REFUSED'
}

/** The refusals of a run's client: when the server began to refuse, counted from its latest answer. */
export class RefusedConnections {
  /** When (performance.now()) the first refusal since the server's latest answer came. */
  private since: number | undefined

  /** answeredSince: whether the server answered any request since a time (lib/http/answer-clock.ts); timeoutMs: the run's --timeout (refusedWindowMs). */
  constructor(
    private readonly answeredSince: (at: number) => boolean,
    private readonly timeoutMs: () => number = () => 0,
  ) {}

  /**
   * The wait before `exchange`, refused its connection for the `refusals`th time, goes again; undefined
   * when it was not refused, was refused more times than the window allows resends, the server has
   * refused for refusedWindowMs, or the wait would pass the run's deadline.
   */
  waitBefore(exchange: Exchange, refusals: number, msLeft: number, now = performance.now()): number | undefined {
    const windowMs = refusedWindowMs(this.timeoutMs())
    if (!connectionRefused(exchange) || refusals > resendsFor(windowMs)) return undefined
    if (this.since === undefined || this.answeredSince(this.since)) this.since = now
    const wait = Math.min(REFUSED_WAIT_MAX_MS, REFUSED_WAIT_MS * 2 ** (refusals - 1))
    if (now + wait - this.since > windowMs || wait >= msLeft) return undefined
    return wait
  }
}
