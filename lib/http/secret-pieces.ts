/**
 * A secret's letters and digits in order, whatever stands for the other characters between them
 * (lib/http/redact.ts joins this pattern to the secret's forms). A key of `openssl rand -base64 32`
 * has a "+", "/" or "=" every ten characters or so, and a server that writes those in a way no form
 * knows (a header name built from the key, "/" and "=" made "-"; escaped twice, %252B; JSON in
 * JSON, \\\/; stripped) left its pieces apart, each shorter than the runs hidden (secret-runs.ts):
 * the key whole, to anyone who reads them in order.
 */
import { escapeRegExp } from './secret-filter.ts'

/** The letters and digits a secret needs for this pattern: fewer in order could be ordinary text ("v1", "api", "2024"). */
export const PIECES_MIN_LETTERS_AND_DIGITS = 16

/**
 * The most characters that may stand for one character of the secret that is not a letter or digit:
 * its longest escape seen (&#x0002B; is 9, &amp;#43; 9, %25252B 7, \\u002B 7), with room; none (stripped) too.
 */
const STAND_IN_PER_CHARACTER = 12

/** The pattern, the shortest and the longest text it matches; undefined for a secret of one run of letters and digits, or too few of them. */
export function piecesPattern(secret: string): { pattern: string; shortest: number; longest: number } | undefined {
  const runs = secret.match(/[A-Za-z0-9]+|[^A-Za-z0-9]+/g) ?? []
  // what stands before the first letter or digit, and after the last, as it is or not at all ("==" of base64, as much of it as is there)
  const before = runs.length > 0 && /^[^A-Za-z0-9]/.test(runs[0]!) ? `(?:${escapeRegExp(runs.shift()!)})?` : ''
  const after = runs.length > 0 && /^[^A-Za-z0-9]/.test(runs[runs.length - 1]!) ? [...runs.pop()!].reduceRight((rest, c) => `(?:${escapeRegExp(c)}${rest})?`, '') : ''
  const pieces = runs.filter((run) => /^[A-Za-z0-9]/.test(run))
  const letters = pieces.reduce((sum, piece) => sum + piece.length, 0)
  if (pieces.length < 2 || letters < PIECES_MIN_LETTERS_AND_DIGITS) return undefined
  let longest = letters
  const pattern = runs
    .map((run) => {
      if (/^[A-Za-z0-9]/.test(run)) return escapeRegExp(run)
      const most = STAND_IN_PER_CHARACTER * [...run].length
      longest += most
      return `[\\s\\S]{0,${most}}?`
    })
    .join('')
  return { pattern: before + pattern + after, shortest: letters, longest: longest + secret.length }
}
