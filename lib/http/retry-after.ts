/**
 * Retry-After (RFC 9110 §10.2.3) on 429 (RFC 6585 §4) and 503 (RFC 9110 §15.6.4): how long the
 * server asks the client to wait. Rate limits are not shown in the interface (§8), so a server may
 * have them; a client that waits and sends again is the conforming answer.
 */
import type { Exchange } from './exchange.ts'

/**
 * The time an answer was made by the server's own clock (its Date header, RFC 9110 §6.6.1), or
 * `now` when it has none or an unreadable one. A Retry-After written as a date is the server's
 * clock too: measured against the client's, a server whose clock runs 30 s ahead asked for 35 s
 * where it meant 5, and a run ended INCOMPLETE waiting (found by flakehunt3).
 */
export function serverNow(dateHeader: string | undefined, now = Date.now()): number {
  const date = dateHeader === undefined ? Number.NaN : Date.parse(dateHeader)
  return Number.isNaN(date) ? now : date
}

/** Milliseconds to wait, or undefined when the header is absent or unreadable; `now` by the clock its date was written on (serverNow). */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  if (header === undefined) return undefined
  const value = header.trim()
  if (/^\d+$/.test(value)) return Number(value) * 1000
  const date = Date.parse(value)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now)
}

/**
 * RFC 6585 §4 makes Retry-After optional on 429 (AWS API Gateway's throttling sends none), and
 * RFC 9110 §15.6.4 on 503 (nginx's limit_req and limit_conn answer 503 without it by default):
 * then the client waits about 1 s, doubling with each attempt up to about 4 s, as a client of a
 * rate limit would. "About": each wait is drawn between half and one and a half times that, so
 * that the requests a burst had refused come back spread out, not all at once; nginx's limit_req
 * without a burst lets one through per interval, and 100 resends at the same instant got one
 * through a second (a run took 94 s at 10 a second).
 */
const UNTIMED_FIRST_WAIT_MS = 1_000
const UNTIMED_LONGEST_WAIT_MS = 4_000
/**
 * A 503's Retry-After is waited, and then up to half as long again (at most this much more), drawn
 * at random: a server that sheds load (a pool of one, busy: 503 with Retry-After: 2 to the rest)
 * refuses a burst at once, and resends that each waited the same met one request in progress again
 * as they had, a few served a round: against a Go net/http service with a pool of one (50 to 300
 * ms a request) and Retry-After: 3, beside two busy loops, 3 runs of 4 outlasted --deadline (exit
 * 2, 122 to 126 s); spread, 4 of 4 passed in 73 to 86 s (with Retry-After: 2, 1,900 to 2,800
 * requests a run against 980 to 1,100). RFC 9110 §10.2.3 asks the client to wait at least that
 * long. A 429's hold (lib/http/rate-hold.ts) paces the client as a whole instead.
 */
const ASKED_SPREAD_MAX_MS = 1_000
/**
 * A limiter lets some requests through every second or few, but not always the one just sent: a
 * 503's try counts as unserved when the server served no request from this long before it was
 * sent until its resend (lib/http/client.ts).
 */
export const SERVED_LOOKBACK_MS = 4_000
/** Past the first resends, a 429 or 503 is sent again no sooner than this (a Retry-After: 0 answered again is no loop). */
const REPEATED_SHORTEST_WAIT_MS = 1_000
/**
 * Resends of POSTs in one run, at most, for each POST it may send: a limiter's 429 or 503 stored
 * nothing, but a server that creates the record and answers 503 or 429 anyway would otherwise get
 * a record for every resend (11,565 records at --max-writes 3, in a review; the list is now read
 * before such a POST goes again, and under --max-writes none goes again: stored-despite-unavailable.ts).
 * 40: nginx at 5 requests a second with no burst took about 600 resends of the suite's 53 POSTs.
 */
export const POST_RESENDS_PER_WRITE = 40

export interface RetryPolicy {
  /** Resends of a 503 while the server serves nothing else, and of a 429 when there is no deadline. */
  maxRetries: number
  /** A deadline bounds the resends of a 429 (the run's --deadline). */
  untilDeadline: boolean
}

/**
 * How long to wait before sending again a request answered `status`, or undefined when it is not
 * to be sent again. `tries.attempt` counts the tries so far; `tries.unserved`, those after which
 * the server served no other request (the caller counts them: lib/http/client.ts).
 * - 429: a rate limit lets every request through in time, however low it is (§8 does not show
 *   one), so it is sent again while the run's deadline allows: after Retry-After when readable,
 *   else after a doubling wait; a limit of a few requests a second takes a few rounds of resends.
 * - 503: the server is "currently unable to handle the request" (RFC 9110 §15.6.4): maintenance,
 *   or a gateway's rate or connection limit, which lets other requests through meanwhile. It is
 *   sent again after Retry-After (and up to half as long again, drawn: ASKED_SPREAD_MAX_MS), or
 *   the doubling wait, as long as the server keeps serving other
 *   requests, and at most maxRetries times when it serves nothing: a service whose fault is a
 *   503 is judged on its answer after about 7 s. (A server that has served nothing yet is not
 *   taken for one that is down: nginx at 1 request a second serves its first after a second.)
 * Past maxRetries tries, neither is sent again sooner than REPEATED_SHORTEST_WAIT_MS.
 */
export function retryWaitMs(
  status: number,
  header: string | undefined,
  tries: { attempt: number; unserved: number },
  policy: RetryPolicy,
  now = Date.now(),
  random = Math.random,
): number | undefined {
  if (status !== 429 && status !== 503) return undefined
  // a 503's waits double with the tries the server served nothing else; a 429's with every try
  const step = status === 503 ? tries.unserved + 1 : tries.attempt
  const asked = retryAfterMs(header, now)
  const spread = asked !== undefined && status === 503 ? Math.round(Math.min(asked / 2, ASKED_SPREAD_MAX_MS) * random()) : 0
  const wait = asked !== undefined ? asked + spread : Math.round(Math.min(UNTIMED_FIRST_WAIT_MS * 2 ** (step - 1), UNTIMED_LONGEST_WAIT_MS) * (0.5 + random()))
  if (step > policy.maxRetries && (status === 503 || !policy.untilDeadline)) return undefined
  return tries.attempt > policy.maxRetries ? Math.max(wait, REPEATED_SHORTEST_WAIT_MS) : wait
}

/**
 * Why the run is incomplete although it finished, when the server's `status` answers (a rate limit
 * or a pause) outlasted its deadline, or its resends of POSTs: no verdict on the server (§8 leaves
 * limits free), so the checks of those requests are not verified.
 */
export function outlastedWords(status: number | undefined, by: 'deadline' | 'post-resends'): string {
  const outlasted =
    by === 'deadline'
      ? `outlasted --deadline: checks whose requests were still answered ${status} are not verified; raise --deadline, or set --rate-limit under the server's limit`
      : `outlasted the run's resends of POSTs (${POST_RESENDS_PER_WRITE} for each POST the run may send, so that a server that creates records while it answers ${status} gets no more): checks whose POSTs were still answered ${status} are not verified; set --rate-limit under the server's limit`
  return `the server's ${status} answers (a rate limit or a pause) ${outlasted}`
}

/**
 * The answers that outlasted the run (above): a request answered 429 or 503 that the client would
 * wait out and send again but for the run's deadline or its resends is cut there, its checks not
 * verified, and the run incomplete, not failed (the first reason is the one said).
 */
export class OutlastedAnswers {
  private why: string | undefined

  /** The exchange of such a request, its answer taken off and the reason in its place. */
  cut(exchange: Exchange, by: 'deadline' | 'post-resends', what: string): { exchange: Exchange } {
    const status = exchange.response?.status
    this.why ??= outlastedWords(status, by)
    return { exchange: { ...exchange, response: undefined, error: { code: 'DEADLINE', message: `answered ${status} and ${what}` } } }
  }

  /** Why the run is incomplete although it finished, if it is: `heldAtTheEnd`, a 429 still held requests back. */
  words(heldAtTheEnd: boolean): string | undefined {
    return this.why ?? (heldAtTheEnd ? outlastedWords(429, 'deadline') : undefined)
  }
}
