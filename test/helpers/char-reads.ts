/**
 * How many characters `redact` reads of `text` (String.prototype.charCodeAt counted while it runs),
 * and that it leaves the text as it is: what the redactor's filters cost, counted, not timed.
 */
import { expect } from 'vitest'

export function charReadsOf(redact: (text: string) => string, text: string): number {
  const original = String.prototype.charCodeAt
  let reads = 0
  String.prototype.charCodeAt = function (this: string, at: number) {
    reads++
    return original.call(this, at)
  }
  try {
    expect(redact(text)).toBe(text)
  } finally {
    String.prototype.charCodeAt = original
  }
  return reads
}
