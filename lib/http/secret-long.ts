/**
 * A long secret (a JWT of Azure AD or Keycloak with many claims, 2 to 4 KB): its forms looked for
 * as texts (indexOf), not as patterns, and spread out a piece at a time (lib/http/redact.ts). One
 * pattern of every form of a key of 3,000 characters was more than V8 takes ("Invalid regular
 * expression: … too large", thrown when a text first reached it): every run that redacted an echo
 * of it stopped; the escaped patterns (a JSON `\/`, a `%2F` anywhere) and the pattern of it spread
 * out (secret-spread.ts, too large from 8 KB on) grow with the key too. Its forms in the cases a
 * server folds text to are texts of their own; what an escape breaks up leaves runs of the key,
 * which secret-runs.ts hides in any case (securehunt12 refused keys over 2,048 characters; review53).
 */

/** A secret this long or longer is looked for so. */
export const LONG_SECRET = 1024

/** A long secret's escaped forms written whole: JSON with `\/` (PHP's json_encode), percent-escapes in lower case. */
export const escapedWhole = (secret: string): string[] => [JSON.stringify(secret).slice(1, -1).replaceAll('/', '\\/'), encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())]

/**
 * The texts to look for: each variant's forms (in lower and upper case too where it `fold`s), and `own` forms, none
 * shorter than `shortest` or `taken` by another secret; the longest first, so that a form containing another is replaced whole.
 */
export function longForms(variants: readonly { forms: readonly string[]; fold: boolean }[], own: readonly string[], taken: Set<string>, shortest: number): string[] {
  const texts = new Set<string>()
  for (const { forms, fold } of variants) for (const form of forms) for (const cased of fold ? [form, form.toLowerCase(), form.toUpperCase()] : [form]) texts.add(cased)
  for (const form of own) texts.add(form)
  const kept = [...texts].filter((form) => form.length >= shortest && !taken.has(form)).sort((a, b) => b.length - a.length)
  for (const form of kept) taken.add(form)
  return kept
}

/** `text` with every one of `texts` (the longest first) replaced by `replacement`. */
export function textsReplaced(text: string, texts: readonly string[], replacement: string): string {
  let out = text
  for (const form of texts) if (out.length >= form.length && out.includes(form)) out = out.split(form).join(replacement)
  return out
}

/** `text` in consecutive pieces of `length` characters, the last one up to half as long again: a long secret spread out, a piece at a time. */
export function inPiecesOf(text: string, length: number): string[] {
  const count = Math.max(1, Math.round(text.length / length))
  return Array.from({ length: count }, (_, i) => text.slice(i * length, i === count - 1 ? text.length : (i + 1) * length))
}
