/**
 * A secret as encoders escape it inside a longer text, as patterns: an encoder may escape any
 * subset of its characters, in either case of hex, so a list of fixed forms would miss most
 * (lib/http/redact.ts joins them to the secret's plain forms).
 */
import { escapeRegExp } from './secret-filter.ts'

/** Letters and digits: no JSON or HTML encoder escapes them. */
export const NEVER_ESCAPED_IN_TEXT = /[a-zA-Z0-9]/

/** Each hex digit of `hex` in either case, as a pattern. */
const eitherCase = (hex: string) => [...hex].map((d) => (/[a-fA-F]/.test(d) ? `[${d.toLowerCase()}${d.toUpperCase()}]` : d)).join('')

/**
 * The secret inside a JSON string as encoders write it, each escaping its own set of characters
 * besides " and \: "/" as \/ (PHP's json_encode), "+" as \u002B (.NET's System.Text.Json), "=" as
 * \u003d (Gson), in either hex case. A pattern, not a list: an encoder may escape any subset.
 * Undefined when the secret has only letters and digits, which no encoder escapes.
 */
export function jsonEscapedPattern(secret: string): string | undefined {
  if (Array.from(secret).every((c) => NEVER_ESCAPED_IN_TEXT.test(c))) return undefined
  return Array.from(secret, (c) => {
    if (NEVER_ESCAPED_IN_TEXT.test(c)) return c
    const code = c.codePointAt(0)!
    const units = code > 0xffff ? [c.charCodeAt(0), c.charCodeAt(1)] : [code]
    const hex = units.map((u) => '\\\\u' + eitherCase(u.toString(16).padStart(4, '0'))).join('')
    const named = c === '/' ? ['\\\\/'] : c === '"' ? ['\\\\"'] : c === '\\' ? ['\\\\\\\\'] : []
    return `(?:${[escapeRegExp(c), ...named, hex].join('|')})`
  }).join('')
}

/**
 * Characters no URL encoder escapes: RFC 3986's unreserved but ~, which HTML's form encoding
 * escapes, and so do Java's URLEncoder.encode and PHP's urlencode() (%7E).
 */
export const NEVER_PERCENT_ESCAPED = /[A-Za-z0-9\-_.]/

/**
 * The secret in a URL or form as encoders write it, each escaping its own set of characters in its
 * own case: encodeURIComponent every reserved one in upper case, .NET's WebUtility in lower case
 * (%2f), Python's quote() all but "/" (its default safe character), Java's URLEncoder and PHP's
 * urlencode() ~ too. A pattern, not a list: an encoder may escape any subset, in either case.
 * Escaped once more, or twice (%252B: a URL with the key in its query, put in another URL's query,
 * as a redirect to a login page's ?next=… writes it): the key's pieces between the escapes stood
 * apart, each shorter than the runs hidden (secret-runs.ts), and gave back a base64 key whole.
 * Undefined when the secret has only characters no encoder escapes (NEVER_PERCENT_ESCAPED).
 */
export function percentEscapedPattern(secret: string): string | undefined {
  if (Array.from(secret).every((c) => NEVER_PERCENT_ESCAPED.test(c))) return undefined
  return Array.from(secret, (c) => {
    if (NEVER_PERCENT_ESCAPED.test(c)) return escapeRegExp(c)
    const bytes = [...Buffer.from(c)].map((b) => `%(?:25){0,${PERCENT_ESCAPED_AGAIN}}` + eitherCase(b.toString(16).padStart(2, '0'))).join('')
    return `(?:${escapeRegExp(c)}|${bytes})`
  }).join('')
}

/** How many times more than once an escape of percentEscapedPattern may have been escaped (%2B, %252B, %25252B). */
const PERCENT_ESCAPED_AGAIN = 2

/** The longest text a secret written by percentEscapedPattern can occupy: three characters per byte escaped, two more for each time it was escaped again. */
export const longestPercentEscaped = (secret: string) =>
  Array.from(secret, (c) => (NEVER_PERCENT_ESCAPED.test(c) ? 1 : (3 + 2 * PERCENT_ESCAPED_AGAIN) * Buffer.byteLength(c))).reduce((a, b) => a + b, 0)

/** The longest text a secret written by jsonEscapedPattern can occupy: six characters per escape. */
export const longestJsonEscaped = (secret: string) => Array.from(secret, (c) => (NEVER_ESCAPED_IN_TEXT.test(c) ? 1 : c.length * 6)).reduce((a, b) => a + b, 0)

/**
 * The names HTML5 gives the characters a key may hold besides letters and digits (a key is visible
 * ASCII, lib/config/api-key.ts): PHP's htmlentities() with ENT_HTML5 writes "/" as &sol;, "+" as
 * &plus;, "=" as &equals;. "-" and "~" have none: the names of their look-alikes (&hyphen;, &tilde;)
 * stand for them, as a table written by hand gives them.
 */
const HTML_NAMES: Record<string, readonly string[]> = {
  '!': ['excl'], '"': ['quot', 'QUOT'], '#': ['num'], $: ['dollar'], '%': ['percnt'], '&': ['amp', 'AMP'], "'": ['apos'],
  '(': ['lpar'], ')': ['rpar'], '*': ['ast', 'midast'], '+': ['plus'], ',': ['comma'], '-': ['hyphen', 'dash', 'minus'], '.': ['period'], '/': ['sol'],
  ':': ['colon'], ';': ['semi'], '<': ['lt', 'LT'], '=': ['equals'], '>': ['gt', 'GT'], '?': ['quest'], '@': ['commat'],
  '[': ['lsqb', 'lbrack'], '\\': ['bsol'], ']': ['rsqb', 'rbrack'], '^': ['Hat'], _: ['lowbar', 'UnderBar'],
  '`': ['grave', 'DiacriticalGrave'], '{': ['lcub', 'lbrace'], '|': ['verbar', 'vert', 'VerticalLine'], '}': ['rcub', 'rbrace'], '~': ['tilde'],
}

/** The most zeros an encoder writes before a character reference's digits (&#x002B;). */
const REFERENCE_ZEROS = 4

/**
 * The secret in HTML as encoders write it, each escaping its own set of characters as character
 * references: Go's html/template "+" as &#43;, OWASP ESAPI every character but letters and digits as
 * &#x2b;, PHP's htmlentities() with ENT_HTML5 by name (&sol;), .NET's HtmlEncode the markup ones. A
 * service's HTML error page that quotes the key kept it readable between the references: a key
 * with a character of those every few letters was printed whole. A pattern, not a list: an
 * encoder may escape any subset. Undefined when the secret has only letters and digits.
 */
export function htmlEscapedPattern(secret: string): string | undefined {
  if (Array.from(secret).every((c) => NEVER_ESCAPED_IN_TEXT.test(c))) return undefined
  return Array.from(secret, (c) => {
    if (NEVER_ESCAPED_IN_TEXT.test(c)) return c
    const code = c.codePointAt(0)!
    const references = [`&#0{0,${REFERENCE_ZEROS}}${code};`, `&#[xX]0{0,${REFERENCE_ZEROS}}${eitherCase(code.toString(16))};`, ...(HTML_NAMES[c] ?? []).map((name) => `&${name};`)]
    return `(?:${[escapeRegExp(c), ...references].join('|')})`
  }).join('')
}

/** The longest text a secret written by htmlEscapedPattern can occupy. */
export const longestHtmlEscaped = (secret: string) =>
  Array.from(secret, (c) => {
    if (NEVER_ESCAPED_IN_TEXT.test(c)) return 1
    const code = c.codePointAt(0)!
    const names = (HTML_NAMES[c] ?? []).map((name) => name.length + 2)
    return Math.max(3 + REFERENCE_ZEROS + String(code).length, 4 + REFERENCE_ZEROS + code.toString(16).length, ...names)
  }).reduce((a, b) => a + b, 0)

/**
 * Every character of the secret a JSON escape, letters and digits too (`\u0041\u0062…`), in either
 * hex case: a server that escapes every character of a text it echoes, as a hostile one or an
 * encoder that hides a text from scrapers does. jsonEscapedPattern leaves letters and digits as
 * they are (no common encoder escapes them), so report.html and results.json showed such a key.
 */
export const allJsonEscapes = (secret: string): string[] => {
  const lower = secret.split('').map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')
  return [lower, lower.toUpperCase().replace(/\\U/g, '\\u')]
}

/**
 * Every character of the secret a numeric character reference, letters and digits too, as PHP's
 * mb_encode_numericentity() writes a text it hides from scrapers: in decimal, and in hex.
 */
export const allReferences = (secret: string): string[] => [
  Array.from(secret, (c) => `&#${c.codePointAt(0)};`).join(''),
  Array.from(secret, (c) => `&#x${c.codePointAt(0)!.toString(16)};`).join(''),
]

/**
 * A key that is the base64 (or base64url) of printable text, as that text: a service that reads
 * the token as base64 (a Basic-style decode, a token library quoting what it decoded in its error)
 * and echoes what it read gives the key back, as anyone who encodes the text again has it. Empty
 * for a key that is not such base64 (most), or whose text is shorter than `shortest`.
 */
export function base64Decoded(secret: string, shortest: number): string[] {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(secret) || (/[+/]/.test(secret) && /[-_]/.test(secret))) return []
  const bytes = Buffer.from(secret, /[-_]/.test(secret) ? 'base64url' : 'base64')
  const text = bytes.toString('utf8')
  // the key is this text's encoding, byte for byte (Buffer skips what is not base64), and the text has no control
  const again = /[-_]/.test(secret) ? bytes.toString('base64url') : bytes.toString('base64')
  if (again.replace(/=+$/, '') !== secret.replace(/=+$/, '') || !Buffer.from(text).equals(bytes) || text.length < shortest || /[\x00-\x1f\x7f-\x9f]/.test(text)) return []
  return [text]
}

/**
 * The secret's bytes listed one by one, as a debug page or an error message prints a byte array:
 * hex with a space, a colon or a dash between bytes (Node's `<Buffer 73 6b …>`, .NET's
 * BitConverter.ToString `73-6B-…`, Go's `% x`, Java's HexFormat), and decimal in a list (Node's
 * JSON of a Buffer, `"data":[115,107,…]`, Java's Arrays.toString `[115, 107, …]`, Go's
 * fmt.Println of a []byte `[115 107 …]`), and Go's `%#v` of one (`[]byte{0x73, 0x6b, …}`). Each in lower-
 * and upper-case hex: the redactor folds the case of a secret with a digit only.
 */
export function bytesListed(secret: string | Uint8Array): string[] {
  const bytes = [...Buffer.from(secret)]
  const hex = bytes.map((b) => b.toString(16).padStart(2, '0'))
  return [...[' ', ':', '-'].flatMap((between) => [hex.join(between), hex.join(between).toUpperCase()]), bytes.join(','), bytes.join(', '), bytes.join(' '), hex.map((h) => `0x${h}`).join(', ')]
}

/** The Basic credentials the suite sends (the key as user and password) inside base64 again: a server that echoes the Authorization header base64-encoded (`base64("Basic c2tf…")`) gave the key back in two decodings. */
export const basicInBase64 = (secret: string, shortest: number) => (secret.length < shortest ? [] : base64Inside(Buffer.from(`${secret}:${secret}`).toString('base64'), shortest).filter((_, i) => i % 2 === 0))

/**
 * The secret in fullwidth forms (U+FF01 to U+FF5E for `!` to `~`): a Japanese service that widens every field it shows
 * (PHP's `mb_convert_kana($text, 'RNAS')`, a form normalizer's zenkaku step) echoed `ｓｋ＿ｌｉｖｅ＿…`, which no other form matched.
 */
export const fullWidth = (secret: string) => secret.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0))

/** The secret's bytes as hex with a space between them, whose runs are hidden too: Node's `<Buffer …>` shows 50 bytes and cuts the rest (`… 14 more bytes>`). */
export const hexSpaced = (secret: string) => bytesListed(secret)[0]!

/**
 * The secret inside base64 of a longer text (a server echoing `base64("Bearer <key>")`, or Basic
 * credentials): the base64 characters that only the secret's bytes decide, at each of the three
 * alignments the secret can start at. Only for secrets long enough that these runs (about 4/3 of
 * the key's length, less two) cannot be ordinary text.
 */
export function base64Inside(secret: string | Uint8Array, shortest: number): string[] {
  const bytes = Buffer.from(secret)
  if (bytes.length < shortest) return []
  return [0, 1, 2].flatMap((offset) => {
    const padded = Buffer.concat([Buffer.alloc(offset), bytes])
    // character i holds bits [6i, 6i + 6); the secret's bits are [8 offset, 8 (offset + length))
    const from = Math.ceil((8 * offset) / 6)
    const to = Math.floor((8 * (offset + bytes.length)) / 6)
    return [padded.toString('base64').slice(from, to), padded.toString('base64url').slice(from, to)]
  })
}

/**
 * The secret's UTF-16 bytes, little- and big-endian, in base64 (inside a longer text too, as
 * base64Inside finds it) and in hex: a .NET service's Convert.ToBase64String(Encoding.Unicode.GetBytes(token))
 * or its hex dump, which hold none of the key's UTF-8 forms (nor the decoded steps of withEscapeRuns).
 * Not their base64url: each form more slows every report's search. Empty for a secret of fewer than `shortest` characters.
 */
export function utf16Encoded(secret: string, shortest: number): string[] {
  if (secret.length < shortest) return []
  const little = Buffer.from(secret, 'utf16le')
  const big = Buffer.from(little).swap16()
  return [little, big].flatMap((bytes) => [...base64Inside(bytes, shortest).filter((_, i) => i % 2 === 0), bytes.toString('hex')])
}

/**
 * The secret's UTF-16 (little-endian) bytes listed one by one (bytesListed): .NET's hex dump of
 * Encoding.Unicode.GetBytes(token) is BitConverter.ToString, `73-00-6B-00-…`, and Node's inspect of
 * such a Buffer `<Buffer 73 00 6b 00 …`, its first NODE_INSPECT_BYTES only (`… 14 more bytes>`):
 * neither is a UTF-8 form, nor decoded by withEscapeRuns. And its hex in upper case, little- and big-endian (.NET's
 * Convert.ToHexString), which utf16Encoded's lower-case hex matched only for a key with a digit (one looked for in any case).
 * Only the key's, not its near-misses' (each form more slows every report's search).
 */
export function utf16Listed(secret: string, shortest: number): string[] {
  if (secret.length < shortest) return []
  const little = Buffer.from(secret, 'utf16le')
  const cut = little.length > NODE_INSPECT_BYTES ? [bytesListed(little.subarray(0, NODE_INSPECT_BYTES))[0]!] : []
  return [...bytesListed(little), ...cut, little.toString('hex').toUpperCase(), Buffer.from(little).swap16().toString('hex').toUpperCase()]
}
/**
 * The longest text withEscapeRuns hides for a secret, a backslash percent-encoded twice (`%255Cu0073`, 10
 * characters) for each of its UTF-16 bytes, or for each character of its Basic credentials' base64:
 * what a cut (redactedCut) must look past its end. The second was longer than every form of a key
 * of 15 letters (264 against 255).
 */
export const longestEscapeRun = (secret: string) => 10 * Math.max(2 * secret.length, 4 * Math.ceil((2 * Buffer.byteLength(secret) + 1) / 3))
/** The bytes Node's inspect shows of a Buffer. */
const NODE_INSPECT_BYTES = 50

/**
 * An escape of one character or byte: JSON's and JavaScript's \u, \x and octal escapes (their backslash escaped once more too: a JSON line of a log), a percent- or Q-encoded byte, a numeric character reference.
 * A percent-escape or character reference escaped once more too (`%2500`, a query encoded twice; `&amp;#115;`, markup escaped twice): each
 * was a run of three characters between two escapes, `00k`, and the key in UTF-16 or one reference a character stood.
 * And escapes no form knew, each of which stood whole: JSON's escaped twice more (`\\\\u0073`, JSON inside a JSON string inside
 * another), or percent-encoded (`%5Cu0073`, a JSON text in a query), ES2015's, Rust's and Swift's `\u{73}`, the old
 * `%u0073` of JavaScript's escape() and IIS, CSS's `\73 ` and `\000073` (a style an error page writes).
 * Quoted-printable's soft line break (`=` at a line's end, which stands for nothing: every 76 characters of a
 * MIME body) and a character reference without its `;` (which browsers read alike): a key's Q-encoded bytes
 * over several lines, or `&#x63&#x6e…`, stood whole.
 */
const ESCAPE = String.raw`(?:(?:\\{1,4}|%(?:25)?5[cC])(?:u[0-9a-fA-F]{4}|u\{[0-9a-fA-F]{1,6}\}|x[0-9a-fA-F]{2})|\\{1,2}(?:[0-9a-fA-F]{1,6} |[0-9a-fA-F]{6}|[0-7]{1,3})|%(?:25)?(?:u[0-9a-fA-F]{4}|[0-9a-fA-F]{2})|=[0-9a-fA-F]{2}|=\r?\n|&(?:amp;)?#[xX][0-9a-fA-F]{1,6};?|&(?:amp;)?#[0-9]{1,7};?)`
const NEXT_ESCAPE = new RegExp(ESCAPE, 'g')
const ESCAPE_HERE = new RegExp(ESCAPE, 'y')
/** Every escape, for decoding: apart from NEXT_ESCAPE, whose place a replace() would reset. */
const EVERY_ESCAPE = new RegExp(ESCAPE, 'g')
/** A character as it is beside an escape (one that starts none: a key's "=" or "%" may stand so): no space, no quote mark or angle bracket, which end a value in JSON, a header's parameter or markup. */
const KEPT = /[^\s'"<>]/

/** Fewer escapes in a run are not a secret's escapes: a key shorter than 8 characters is hidden only standing apart and whole. */
const SHORTEST_RUN = 4
/** The most characters as they are between two escapes of a run: the key's own between the NULs of UTF-16 is one. */
const KEPT_BETWEEN = 2

/** The end of the escape at `at`, or -1. */
function escapeEnd(text: string, at: number): number {
  ESCAPE_HERE.lastIndex = at
  return ESCAPE_HERE.test(text) ? ESCAPE_HERE.lastIndex : -1
}

/**
 * The run of escapes that starts with the escape at `start` (ending at `end`): its end, at most
 * KEPT_BETWEEN characters as they are between two escapes and one after the last (the key's last
 * character after a NUL of UTF-16 big-endian), and its count of escapes. A loop, not a pattern: a
 * pattern's repetition of a megabyte of escapes overflowed V8's stack.
 */
function runFrom(text: string, end: number): { end: number; escapes: number } {
  let escapes = 1
  for (let at = end, kept = 0; at < text.length; ) {
    const next = escapeEnd(text, at)
    if (next >= 0) {
      escapes++
      end = at = next
      kept = 0
    } else if (kept < KEPT_BETWEEN && KEPT.test(text.charAt(at))) (at++, kept++)
    else break
  }
  return { end: end < text.length && escapeEnd(text, end) < 0 && KEPT.test(text.charAt(end)) ? end + 1 : end, escapes }
}

/** The characters a run of escapes stands for, NULs (of UTF-16) dropped. */
function decoded(run: string): string {
  return run
    .replace(EVERY_ESCAPE, (escape) => {
      if (escape.startsWith('&')) {
        const reference = escape.replace(/^&amp;/, '&').replace(/;$/, '')
        const code = /^&#[xX]/.test(reference) ? parseInt(reference.slice(3), 16) : parseInt(reference.slice(2), 10)
        return code <= 0x10ffff ? String.fromCodePoint(code) : escape
      }
      // a backslash percent-encoded (%5C, %255C) is one
      const body = escape.replace(/^(?:\\+|%(?:25)?5[cC])/, '')
      if (body !== escape || !/^[%=]/.test(escape)) {
        if (body.startsWith('u{')) return codePoint(parseInt(body.slice(2, -1), 16), escape)
        if (body.startsWith('u') || body.startsWith('x')) return String.fromCharCode(parseInt(body.slice(1), 16))
        // CSS's hex, ended by a space or six digits long; octal else
        return body.endsWith(' ') || body.length === 6 || /[89a-fA-F]/.test(body) ? codePoint(parseInt(body, 16), escape) : String.fromCharCode(parseInt(body, 8))
      }
      if (/^=\r?\n$/.test(escape)) return ''
      const percent = escape.replace(/^%(?:25)?/, '')
      return percent.startsWith('u') ? String.fromCharCode(parseInt(percent.slice(1), 16)) : String.fromCharCode(parseInt(escape.slice(-2), 16))
    })
    .replaceAll('\u0000', '')
}

/** The character of a code point, or `escape` as it is where there is none. */
const codePoint = (code: number, escape: string) => (code <= 0x10ffff ? String.fromCodePoint(code) : escape)

/**
 * A secret written one character or one byte at a time as escapes, with at most two characters as
 * they are between two escapes (lib/http/redact.ts hides such a run after its other steps).
 * A .NET service's UTF-16 key read as bytes and written into JSON (`s\u0000k\u0000_\u0000…`, or
 * every byte an escape), Python's repr() of those bytes (`b'\xff\xfes\x00k\x00…'`), every byte
 * percent-escaped or as quoted-printable (`=73=6B…`, an RFC 2047 encoded-word), every character a
 * character reference in upper-case hex or with leading zeros (`&#x0073;`): each form of the key
 * the redactor knows holds the key's characters side by side, and each of these had a NUL, or an
 * escape made of letters and digits, between any two of them. The run is decoded, its NULs
 * dropped, and the decoded text given to `redact`: a run that holds a secret there (the key, or
 * base64 of Basic credentials every character of which was escaped) is replaced by
 * `replacement`, in the text `redact` gave.
 */
export function withEscapeRuns(redact: (text: string) => string, replacement: string): (text: string) => string {
  // one pass over the text, each run as found from its first escape (a pattern that starts with the characters before it
  // is tried at every character: 32 ms over a run's results.json, against 2)
  const hidden = (text: string) => {
    let out = ''
    let from = 0
    NEXT_ESCAPE.lastIndex = 0
    for (let first = NEXT_ESCAPE.exec(text); first !== null; first = NEXT_ESCAPE.exec(text)) {
      const run = runFrom(text, first.index + first[0].length)
      NEXT_ESCAPE.lastIndex = run.end
      if (run.escapes < SHORTEST_RUN) continue
      // up to two characters before the first escape (the key's first character, then a NUL escaped)
      let start = first.index
      while (start > Math.max(from, first.index - KEPT_BETWEEN) && KEPT.test(text.charAt(start - 1))) start--
      const plain = decoded(text.slice(start, run.end))
      if (redact(plain) === plain) continue
      out += text.slice(from, start) + replacement
      from = run.end
    }
    return from === 0 ? text : out + text.slice(from)
  }
  // after the other steps: a form of a secret they hide is hidden as they hide it (a run would take the characters around it); four escapes are 12 characters or more
  return (text) => {
    const redacted = redact(text)
    return redacted.length >= 3 * SHORTEST_RUN ? hidden(redacted) : redacted
  }
}
