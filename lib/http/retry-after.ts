/**
 * Retry-After (RFC 9110 §10.2.3) on 429 (RFC 6585 §4) and 503 (RFC 9110 §15.6.4): how long the
 * server asks the client to wait. Rate limits are not shown in the interface (§8), so a server may
 * have them; a client that waits and sends again is the conforming answer.
 */

/** Statuses that mean "not processed, try again later" when they carry Retry-After. */
export const RETRYABLE_STATUSES: readonly number[] = [429, 503]

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
 * the client waits 1 s, doubling with each attempt, as a client of a rate limit would.
 */
export const UNTIMED_429_FIRST_WAIT_MS = 1_000

/**
 * How long to wait before sending again a request answered `status` on its `attempt`-th try, or
 * undefined when it is not to be sent again: Retry-After when readable; on a 429 without it, a
 * doubling wait. A 503 without Retry-After may be a fault, not maintenance, and is judged as it came.
 */
export function retryWaitMs(status: number, header: string | undefined, attempt: number, now = Date.now()): number | undefined {
  if (!RETRYABLE_STATUSES.includes(status)) return undefined
  return retryAfterMs(header, now) ?? (status === 429 ? UNTIMED_429_FIRST_WAIT_MS * 2 ** (attempt - 1) : undefined)
}
