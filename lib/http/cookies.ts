/**
 * Cookies a service sets. A Set-Cookie value is the service's own credential (a session), so the
 * evidence keeps each cookie's name and attributes and never its value; the suite sends the
 * cookies back, once, to see that they do not stand in for the key (§5.3), and records that
 * request's Cookie header as COOKIES_NOT_SHOWN.
 */
import { REDACTED } from './redact.ts'

export const COOKIES_NOT_SHOWN = '(the cookies the service set; their values are not shown)'

/** What follows the ", " of an Expires date (Wed, 21 Oct 2026 07:28:00 GMT): no cookie. */
const EXPIRES_REST = /^\d{1,2}[ -][A-Za-z]{3}[ -]\d{2,4} \d{1,2}:\d{2}:\d{2}(?: GMT)?$/i

/** Set-Cookie as the evidence shows it: `name=(not shown); Path=/; HttpOnly`. */
export function hideCookieValues(setCookie: string): string {
  // each cookie starts the header or follows ", "; its first name=value pair is the secret, and
  // without "=" the whole pair is the value, of a cookie without a name (RFC 6265bis §5.6, which
  // browsers keep): `s3cr3t; Path=/`, `=s3cr3t` and `sid =s3cr3t` stood whole in every report
  return setCookie.replace(/(^|, )([^;]*?)(?=;|, |$)/g, (pair: string, before: string, nameValue: string) => {
    const equals = nameValue.indexOf('=')
    if (equals >= 0) return `${before}${nameValue.slice(0, equals).trim()}=(not shown)`
    return before !== '' && EXPIRES_REST.test(nameValue.trim()) ? pair : `${before}(not shown)`
  })
}

/** The Cookie header a browser would send back: the name=value pair of each Set-Cookie; undefined when none. */
export function cookieHeaderOf(setCookie: string | string[] | undefined): string | undefined {
  if (setCookie === undefined) return undefined
  const pairs = (Array.isArray(setCookie) ? setCookie : [setCookie]).map((c) => c.split(';')[0]?.trim() ?? '').filter((pair) => /^[^=\s]+=/.test(pair))
  return pairs.length > 0 ? pairs.join('; ') : undefined
}

/** An answer's headers as the evidence shows them: redacted (across folds and repeated lines too), each repeated header joined, cookies' values hidden. */
export function evidenceHeaders(headers: Record<string, string | string[] | undefined>, redact: (text: string) => string): Record<string, string> {
  const shown: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) shown[name] = (name === 'set-cookie' ? hideCookieValues : String)(redactedAcrossPieces(value, redact))
  }
  return redactedAcrossHeaders(headers, shown, redact)
}

/**
 * A value of a few digits alone reads as a number, as a run of them does (secret-runs.ts): two headers of counts in a row
 * (`content-length: 1234`, `x-total-count: 5678`) glued read as a key of digits (12345678) and hid both.
 */
const readsAsNumber = (value: string) => /^[0-9]{1,6}$/.test(value)

/**
 * `shown` with the values of two headers in a row hidden where a secret spans them: a server that
 * echoed the key split over two headers (`x-a: 0sk_live_4`, `x-b: eC39…`) had the first piece, too
 * short to be hidden alone, shown in every report. A value the redaction left whole is hidden
 * where, read glued to its neighbour's, it no longer stands whole at its end (or start).
 */
function redactedAcrossHeaders(headers: Record<string, string | string[] | undefined>, shown: Record<string, string>, redact: (text: string) => string): Record<string, string> {
  const names = Object.keys(shown)
  const raw = (name: string) => String(headers[name])
  for (let i = 0; i + 1 < names.length; i++) {
    const [first, second] = [raw(names[i]!), raw(names[i + 1]!)]
    const firstWhole = shown[names[i]!] === first
    const secondWhole = shown[names[i + 1]!] === second
    if (!firstWhole && !secondWhole) continue
    const glued = redact(first + second)
    if (glued === first + second) continue
    if (firstWhole && !readsAsNumber(first) && !glued.startsWith(first)) shown[names[i]!] = REDACTED
    if (secondWhole && !readsAsNumber(second) && !glued.endsWith(second)) shown[names[i + 1]!] = REDACTED
  }
  return shown
}

/** Two blanks or more: what a fold leaves (its CR and LF made spaces, then the blank that continues the line: lib/http/folded-headers.ts). */
const FOLD = /[ \t]{2,}/g

const redactions = (text: string) => text.split(REDACTED).length - 1

/**
 * A header value redacted, and redacted again with its pieces glued where a secret spans them: a
 * server that folds the key it echoes (`x-token: Bearer Ab3%Zq\r\n +/x=9(`) had it read as
 * `Ab3%Zq   +/x=9(`, or that splits it over two lines of one name had them joined with ", ", each
 * piece too short to be hidden alone, and the reports showed the key whole but for the blanks. A
 * key holds no blank (lib/config/api-key.ts), so no fold stands inside one.
 */
function redactedAcrossPieces(value: string | string[], redact: (text: string) => string): string {
  const shown = redact(Array.isArray(value) ? value.join(', ') : value)
  if (!Array.isArray(value) && !/[ \t]{2}/.test(value)) return shown
  const hidden = redact((Array.isArray(value) ? value : [value]).map((piece) => piece.replace(FOLD, '')).join(''))
  return redactions(hidden) > redactions(shown) ? hidden : shown
}
