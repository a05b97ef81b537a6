/**
 * Retry-After (RFC 9110 §10.2.3) on 429 (RFC 6585 §4) and 503 (RFC 9110 §15.6.4): how long the
 * server asks the client to wait. Rate limits are not shown in the interface (§8), so a server may
 * have them; a client that waits and sends again is the conforming answer.
 */

/** Milliseconds to wait, or undefined when the header is absent or unreadable. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  if (header === undefined) return undefined
  const value = header.trim()
  if (/^\d+$/.test(value)) return Number(value) * 1000
  const date = Date.parse(value)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now)
}

/**
 * RFC 6585 §4 makes Retry-After optional on 429 (AWS API Gateway's throttling sends none): then
 * the client waits 1 s, doubling with each attempt up to 4 s, as a client of a rate limit would.
 */
export const UNTIMED_429_FIRST_WAIT_MS = 1_000
export const UNTIMED_429_LONGEST_WAIT_MS = 4_000
/** Past the first resends, a 429 is sent again no sooner than this (a Retry-After: 0 answered 429 again is no loop). */
export const REPEATED_429_SHORTEST_WAIT_MS = 1_000

export interface RetryPolicy {
  /** Resends of a 503, and of a 429 when there is no deadline. */
  maxRetries: number
  /** A deadline bounds the resends of a 429 (the run's --deadline). */
  untilDeadline: boolean
}

/**
 * How long to wait before sending again a request answered `status` on its `attempt`-th try, or
 * undefined when it is not to be sent again.
 * - 429: a rate limit lets every request through in time, however low it is (§8 does not show
 *   one), so it is sent again while the run's deadline allows: after Retry-After when readable,
 *   else after a doubling wait; a limit of a few requests a second takes a few rounds of resends.
 * - 503 with Retry-After: maintenance, which ends or does not: at most maxRetries resends. Without
 *   Retry-After it may be a fault, not maintenance, and is judged as it came.
 */
export function retryWaitMs(status: number, header: string | undefined, attempt: number, policy: RetryPolicy, now = Date.now()): number | undefined {
  const asked = retryAfterMs(header, now)
  if (status === 503) return attempt > policy.maxRetries ? undefined : asked
  if (status !== 429) return undefined
  const pastFirstResends = attempt > policy.maxRetries
  if (pastFirstResends && !policy.untilDeadline) return undefined
  const wait = asked ?? Math.min(UNTIMED_429_FIRST_WAIT_MS * 2 ** (attempt - 1), UNTIMED_429_LONGEST_WAIT_MS)
  return pastFirstResends ? Math.max(wait, REPEATED_429_SHORTEST_WAIT_MS) : wait
}
