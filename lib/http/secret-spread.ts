/**
 * A secret's letters and digits one by one, with characters that are no letter or digit between
 * any two of them (lib/http/redact.ts hides them after the pieces, before the runs). A server that
 * echoes the key as one JSON string per character (`["s","k","_","9",…]`, Go's []string(key),
 * a Python list(key)), with a zero-width space, a zero-width joiner or a soft hyphen after each
 * (a template that lets a long word wrap anywhere), or with a space between its characters left it
 * whole to anyone who reads it: no form holds it, its pieces (secret-pieces.ts) are no longer
 * whole, and no run of it stands together (secret-runs.ts).
 *
 * One regular expression per secret and its near-misses: each letter or digit, then at most
 * SPREAD_GAP characters that are no letter or digit (more where the secret has its own between
 * them): a walk from each place of the first character, as deep as the text follows the secret,
 * 0.5 to 2.5 ms a megabyte (measured 2026-11-27, beside 3 to 10 ms of the other steps together),
 * per pattern: a fleet's every deployment redacts its reports with every key, and ten keys' patterns
 * over a run's texts took 30 ms, the largest part of its redaction. The patterns run only on a text
 * whose letters and digits, the rest taken out, hold a secret's but its last in a row
 * (lettersInOrderFilter, one pass for every key): most texts hold none, and the pass costs about
 * 2 ms a megabyte for ten keys however many there are.
 */
import { escapeRegExp, lettersInOrderFilter } from './secret-filter.ts'

/** Letters and digits a secret needs for this: fewer, spread out, could be ordinary text ("a, b, c"). */
export const SPREAD_MIN_LETTERS_AND_DIGITS = 8

/** The most characters between two of the secret's letters and digits: `",\n        "` of a JSON list indented eight spaces is 12. */
const SPREAD_GAP = 16

/** What may stand for each character of the secret that is not a letter or digit: its longest escape, with room (secret-pieces.ts). */
const STAND_IN_PER_CHARACTER = 12

/**
 * Whether a text can follow the secret deep from many places at once: a secret whose letters and
 * digits repeat a prefix of themselves (aaaa…, abab…) made a text of that prefix a walk from every
 * place as deep as the secret. A random key's longest such repeat is a character or two.
 */
function repeatsItself(folded: string): boolean {
  const border = new Array<number>(folded.length).fill(0)
  for (let i = 1, k = 0; i < folded.length; i++) {
    while (k > 0 && folded[i] !== folded[k]) k = border[k - 1]!
    if (folded[i] === folded[k]) k++
    border[i] = k
    if (k > 3) return true
  }
  return false
}

/** The secret spread out, as a source; undefined when it is too short or repeats itself. */
function spreadSource(secret: string): string | undefined {
  const parts = secret.match(/[A-Za-z0-9]|[^A-Za-z0-9]+/g) ?? []
  const letters = parts.filter((part) => /^[A-Za-z0-9]$/.test(part))
  if (letters.length < SPREAD_MIN_LETTERS_AND_DIGITS || repeatsItself(letters.join('').toLowerCase())) return undefined
  const gaps: string[] = []
  let own = 0
  for (const part of parts) {
    if (/^[A-Za-z0-9]$/.test(part)) {
      gaps.push(`[^A-Za-z0-9]{0,${SPREAD_GAP + STAND_IN_PER_CHARACTER * own}}`)
      own = 0
    } else if (gaps.length > 0) own += [...part].length
  }
  // each gap greedy, and no letter or digit in it: a match that fails goes back at most SPREAD_GAP characters at each
  const source = letters.map((letter, i) => (i === 0 ? '' : gaps[i]!) + escapeRegExp(letter))
  // the secret without its last letter or digit too (the wrong key the suite sends), spread as the secret is
  return `${source.slice(0, -1).join('')}(?:${source.at(-1)})?`
}

/**
 * Replaces each secret's letters and digits spread out with `replacement`: each group (a secret and
 * its near-misses, each with whether it is looked for in any case) one pattern of those looked for
 * in any case and one of the others. Secrets with too few letters and digits, or that repeat themselves, are left to their forms.
 */
export function spreadRedactor(groups: readonly (readonly { secret: string; fold: boolean }[])[], replacement: string, prefiltered = true): (text: string) => string {
  const needles: string[] = []
  const patterns = groups.flatMap((group) =>
    [true, false].flatMap((fold) => {
      const sources = group.filter((v) => v.fold === fold).flatMap(({ secret }) => {
        const source = spreadSource(secret)
        // every match holds the secret's letters and digits but its last in a row, once the rest is taken out
        if (source !== undefined) needles.push(secret.replace(/[^A-Za-z0-9]+/g, '').slice(0, -1))
        return source ?? []
      })
      return sources.length === 0 ? [] : [new RegExp([...new Set(sources)].join('|'), fold ? 'gi' : 'g')]
    }),
  )
  if (patterns.length === 0) return (text) => text
  // a text without any of them is left as it is by every pattern: one pass for every key, not a pattern's each, from
  // three patterns on (the pass, about 2 ms a megabyte, costs more than one key's pattern, 0.9 ms, and less than three)
  const holds = prefiltered && patterns.length >= 3 ? lettersInOrderFilter(needles) : () => true
  return (text) => (text.length < SPREAD_MIN_LETTERS_AND_DIGITS - 1 || !holds(text) ? text : patterns.reduce((redacted, pattern) => redacted.replace(pattern, replacement), text))
}

/** The longest text a secret's letters and digits can occupy spread out. */
export const longestSpread = (secret: string): number => secret.length * (SPREAD_GAP + 1) + STAND_IN_PER_CHARACTER * secret.replace(/[A-Za-z0-9]/g, '').length
