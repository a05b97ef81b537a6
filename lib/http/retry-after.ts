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
