/** A long text redacted and cut to a limit: the evidence a client keeps of a body (lib/http/client.ts). */
import { ownCopy } from './secret-filter.ts'

type Redactor = (text: string) => string

/**
 * `text` redacted and cut to `limit` characters. Only the part kept is redacted (a 60 MB body is
 * not copied to cut 4 KB out of it): it is cut `margin` (longestForm) past the limit, redacted,
 * and the last `margin` dropped, so that no cut can leave part of a secret behind.
 */
export function redactedCut(text: string, limit: number, margin: number, redact: Redactor): { body: string; truncated: boolean } {
  if (text.length <= limit) return { body: redact(text), truncated: false }
  const redacted = redact(text.slice(0, limit + margin))
  // taken whole, no secret was cut at its end: nothing to drop (a margin past its end, secret-spread.ts's, made the end negative: 345 characters kept of 64)
  // copied: V8 makes a slice of a long text a view of it (a sliced string), which would keep the whole body (a 14 MB list) alive as long as its evidence
  return { body: ownCopy(redacted.slice(0, text.length <= limit + margin ? limit : Math.max(0, Math.min(limit, redacted.length - margin)))), truncated: true }
}
