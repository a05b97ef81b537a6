/**
 * The API key never leaves the process in clear: every text that is stored or printed passes
 * through a redactor that knows the key in the forms a server might echo it back in.
 */
import { anchorFilter, escapeRegExp, keptRun, sharedAnchorPass, SHORTEST_WINDOW, textsMet } from './secret-filter.ts'
import { longestPieces, piecesRedactor } from './secret-pieces.ts'
import { longestSpread, spreadRedactor } from './secret-spread.ts'
import { runAnchors, runsRedactor } from './secret-runs.ts'
import { withHexRuns } from './secret-hex-runs.ts'
import { base32Inside } from './secret-base32.ts'
import { dumpsHidden } from './secret-dumps.ts'
import { markupHidden } from './secret-markup.ts'
import { escapedWhole, inPiecesOf, LONG_SECRET, longForms, textsReplaced } from './secret-long.ts'
import { allJsonEscapes, allReferences, base64Decoded, basicInBase64, fullWidth, base64Inside, bytesListed, hexSpaced, htmlEscapedPattern, jsonEscapedPattern, longestHtmlEscaped, longestJsonEscaped, longestPercentEscaped, NEVER_ESCAPED_IN_TEXT, NEVER_PERCENT_ESCAPED, percentEscapedPattern, longestEscapeRun, utf16Encoded, utf16Listed, withEscapeRuns } from './secret-escapes.ts'

export { escapeRegExp, ownCopy } from './secret-filter.ts'
export { FRAGMENT_MIN_SECRET_LENGTH, fragmentLength } from './secret-runs.ts'
export { redactedCut } from './redacted-cut.ts'

export const KEY_PLACEHOLDER = '$CONFORM_API_KEY'
/** The Authorization header with the key, as the suites send it and the evidence records it. */
export const KEY_AUTHORIZATION = `Bearer ${KEY_PLACEHOLDER}`
export const REDACTED = '[REDACTED]'

const swapCase = (text: string) => text.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))

/**
 * Every letter and digit replaced by another of its class, the other characters kept: a wrong key
 * that a check of the key's format alone (length, character classes, a UUID pattern) accepts.
 * Letters turn within a-f and within g-z (in each case), so a hex key stays hex. The tr sets below
 * say the same for the curl line.
 */
export const sameShape = (text: string): string =>
  text.replace(/[a-zA-Z0-9]/g, (c) => {
    const code = c.charCodeAt(0)
    const turn = (first: number, last: number) => String.fromCharCode(code === last ? first : code + 1)
    if (c >= '0' && c <= '9') return turn(48, 57)
    const base = c <= 'Z' ? 65 : 97
    return code - base < 6 ? turn(base, base + 5) : turn(base + 6, base + 25)
  })

/**
 * Stand-ins for the key, and for the near-misses of it that authentication must refuse, in
 * recorded requests. Each is a shell expression, so a curl line that repeats the request works
 * with only CONFORM_API_KEY set; the client puts the real value on the wire (keyOnTheWire).
 * The longer placeholder first: it contains the plain one.
 */
export const KEY_STAND_INS: readonly { placeholder: string; value: (key: string) => string }[] = [
  { placeholder: '$(printf %s "$CONFORM_API_KEY" | tr a-zA-Z A-Za-z)', value: swapCase },
  { placeholder: '$(printf %s "$CONFORM_API_KEY" | tr a-zA-Z0-9 b-fah-zgB-FAH-ZG1-90)', value: sameShape },
  // the last character made an _ (which SQL LIKE reads as any one), an x where it was one: whatever the key, a different key
  {
    placeholder: '${CONFORM_API_KEY%?}$([ "${CONFORM_API_KEY#"${CONFORM_API_KEY%?}"}" = _ ] && echo x || echo _)',
    value: (key) => key.slice(0, -1) + (key.endsWith('_') ? 'x' : '_'),
  },
  { placeholder: '${CONFORM_API_KEY%?}', value: (key) => key.slice(0, -1) },
  // HTTP Basic credentials with the key as the user name and as the password (curl -u KEY:KEY); base64 wraps long lines
  { placeholder: `$(printf %s "$CONFORM_API_KEY:$CONFORM_API_KEY" | base64 | tr -d '\\n')`, value: (key) => Buffer.from(`${key}:${key}`).toString('base64') },
  { placeholder: KEY_PLACEHOLDER, value: (key) => key },
]
export const KEY_SWAPPED_CASE = KEY_STAND_INS[0].placeholder
export const KEY_OF_SAME_SHAPE = KEY_STAND_INS[1].placeholder
export const KEY_LAST_CHARACTER_CHANGED = KEY_STAND_INS[2].placeholder
export const KEY_WITHOUT_LAST_CHARACTER = KEY_STAND_INS[3].placeholder
/** The credentials of HTTP Basic with the key as the user name and the password: base64 of "<key>:<key>". Redacted where a server echoes them as base64Inside finds any key inside base64. */
export const KEY_AS_BASIC_USER_AND_PASSWORD = KEY_STAND_INS[4].placeholder

/** A header value as it goes on the wire: every stand-in replaced by what it stands for. */
export function keyOnTheWire(text: string, key: string): string {
  // every stand-in is a shell expansion: most header values have none, and their near-misses of the key are not made
  if (!text.includes('$')) return text
  let out = text
  // the value by a function: as a string, its $$, $& … would be read as replacement patterns (a key with $$ went out with $)
  for (const { placeholder, value } of KEY_STAND_INS) if (out.includes(placeholder)) out = out.replaceAll(placeholder, () => value(key))
  return out
}

/**
 * Keys shorter than this get no near-miss redaction (their near-misses could be ordinary text),
 * so the suite does not send near-misses of them either (suites/cases/credentials.ts).
 */
export const NEAR_MISS_MIN_KEY_LENGTH = 8

/** Near-misses of a key worth redacting too: long enough that they cannot be ordinary text. */
function nearMisses(secret: string): string[] {
  if (secret.length < NEAR_MISS_MIN_KEY_LENGTH) return []
  return [swapCase(secret), sameShape(secret), secret.slice(0, -1)].filter((form) => form !== secret)
}

export type Redactor = (text: string) => string

/** The ways a secret can show up in text we write: as is, URL-encoded, JSON-escaped, base64, hex, backwards, HTML/XML-escaped, every character a reference or a JSON escape, decoded from base64 when it is base64 of text; the escapes of some of its characters are patterns (lib/http/secret-escapes.ts); each in any case where foldsSafely. */
function formsOf(secret: string): string[] {
  const html = (text: string, quote: string) =>
    text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, quote).replace(/'/g, '&#39;')
  return [
    secret,
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    Buffer.from(secret).toString('base64'),
    Buffer.from(secret).toString('base64url'),
    ...base64Inside(secret, NEAR_MISS_MIN_KEY_LENGTH),
    ...bearerInBase64(secret),
    ...writtenOut(secret),
    html(secret, '&quot;'),
    html(secret, '&#34;'),
    ...allReferences(secret),
    ...allJsonEscapes(secret),
    ...base64Decoded(secret, NEAR_MISS_MIN_KEY_LENGTH),
  ]
}

/**
 * The secret's bytes written out, for one of NEAR_MISS_MIN_KEY_LENGTH or more (a shorter one's
 * could be ordinary text): hex in either case (a debug page's dump of the header, which holds the
 * key's hex as it is byte-aligned), every byte percent-escaped in either case (an encoder that
 * escapes letters too), in UTF-16, backwards, in fullwidth forms (fullWidth), its bytes listed (bytesListed). Its case folded is foldsSafely's.
 */
function writtenOut(secret: string): string[] {
  if (secret.length < NEAR_MISS_MIN_KEY_LENGTH) return []
  const hex = Buffer.from(secret).toString('hex')
  return [hex, hex.toUpperCase(), hex.toUpperCase().replace(/../g, '%$&'), hex.replace(/../g, '%$&'), inUtf16(secret), reversed(secret), fullWidth(secret), ...bytesListed(secret)]
}

/**
 * Whether a secret (or a near-miss of it) is looked for in any case, each of its forms: one of
 * NEAR_MISS_MIN_KEY_LENGTH or more with a digit, which folded reads as no word. A log line
 * upper-cases it, a header name (which HTTP lower-cases) or a URL lower-cased whole holds it
 * escaped (`ab%2bcd%2fef12gh`), a title-casing template capitalises it: "SK_AB12CD34EF5" gave
 * a key of 14 characters back to 2^7 guesses, and a URL lower-cased whole gave it back in full. Without a digit, folded,
 * a key of one word reads as a word ("Categories" is in every report): only its case-blind runs (secret-runs.ts) hide it
 * so; one of 16 or more of words its own characters join (correct-horse-battery-staple) is none: "Correct Horse Battery Staple" stood.
 */
const foldsSafely = (variant: string) => variant.length >= NEAR_MISS_MIN_KEY_LENGTH && (/[0-9]/.test(variant) || (variant.length >= 16 && /[A-Za-z]{2}[^A-Za-z0-9]+[A-Za-z]{2}/.test(variant)))

/** Backwards: no service was seen to echo a key so, but a test server did, and the form costs the search (anchorFilter) nothing. */
const reversed = (text: string) => [...text].reverse().join('')
/** UTF-16 (a body a .NET service wrote with Encoding.Unicode) read as the UTF-8 it should be: a NUL after every character. */
const inUtf16 = (text: string) => [...text].join('\u0000')
/** The key inside base64 (its Basic credentials, KEY_AS_BASIC_USER_AND_PASSWORD) in UTF-16, and those credentials inside base64 again (basicInBase64): not its near-misses', in no Basic credentials, nor base64url (each form more slows every report's search). */
const basicInUtf16 = (secret: string) => [...base64Inside(secret, NEAR_MISS_MIN_KEY_LENGTH).filter((_, i) => i % 2 === 0).map(inUtf16), ...basicInBase64(secret, NEAR_MISS_MIN_KEY_LENGTH)]

/**
 * The Authorization header a server echoes whole, base64-encoded, for a key too short for
 * base64Inside (a longer key's runs inside it are found there). Not for every key: each form more
 * slows the search through every report (a form starting with a character frequent in reports, as
 * every hex digit is, ten times over), and the key's hex is left out for that reason.
 */
function bearerInBase64(secret: string): string[] {
  if (Buffer.byteLength(secret) >= NEAR_MISS_MIN_KEY_LENGTH) return []
  const bearer = Buffer.from(`Bearer ${secret}`)
  return [bearer.toString('base64'), bearer.toString('base64url')]
}

/** One secret's forms as patterns (those in any case first, foldsSafely), the shortest text they match, and texts every match contains in some case (lib/http/secret-filter.ts; undefined: none long enough). */
interface SecretPattern {
  patterns: RegExp[]
  texts?: string[] // a long secret's forms (LONG_SECRET, secret-long.ts), the longest first
  shortest: number
  anchors: string[] | undefined
}

/** A long secret's forms (LONG_SECRET, secret-long.ts) as texts: of it and its near-misses, and its own (Basic credentials, UTF-16, base32). */
function longPatternOf(secret: string, taken: Set<string>): SecretPattern | undefined {
  const variants = [secret, ...nearMisses(secret)].map((v) => ({ forms: [...formsOf(v), ...escapedWhole(v), ...utf16Encoded(v, NEAR_MISS_MIN_KEY_LENGTH)], fold: foldsSafely(v) }))
  const own = [Buffer.from(`${secret}:${secret}`).toString('base64'), ...basicInUtf16(secret), ...utf16Listed(secret, NEAR_MISS_MIN_KEY_LENGTH), ...base32Inside(secret, NEAR_MISS_MIN_KEY_LENGTH, !foldsSafely(secret))]
  const texts = longForms(variants, own, taken, SHORTEST_WINDOW)
  return texts.length === 0 ? undefined : { patterns: [], texts, shortest: texts.at(-1)!.length, anchors: texts }
}

/** Every form of one secret and of its near-misses, as patterns; undefined when it has none. */
function patternOf(secret: string, taken: Set<string>): SecretPattern | undefined {
  if (secret.length >= LONG_SECRET) return longPatternOf(secret, taken)
  // the forms and escaped patterns of the variants looked for in any case, and of the others
  const blind = { forms: new Set<string>(), escaped: new Set<string>() }
  const exact = { forms: new Set<string>(), escaped: new Set<string>() }
  // the shortest text any form or pattern matches (an escape only lengthens what it stands for)
  let shortest = Infinity
  let anchors: string[] | undefined = []
  for (const variant of [secret, ...nearMisses(secret)]) {
    const { forms, escaped } = foldsSafely(variant) ? blind : exact
    for (const form of [...formsOf(variant), ...utf16Encoded(variant, NEAR_MISS_MIN_KEY_LENGTH), ...(variant === secret ? [...basicInUtf16(secret), ...utf16Listed(secret, NEAR_MISS_MIN_KEY_LENGTH), ...base32Inside(secret, NEAR_MISS_MIN_KEY_LENGTH, !foldsSafely(secret))] : [])]) {
      // a form another secret's pattern already has is replaced there
      if (form.length === 0 || taken.has(form)) continue
      forms.add(form)
      taken.add(form)
      shortest = Math.min(shortest, form.length)
      // pushed, not concatenated: a copy of the list at each form was quadratic in a key's forms
      anchors?.push(form)
    }
    const escapes = [[jsonEscapedPattern(variant), NEVER_ESCAPED_IN_TEXT], [percentEscapedPattern(variant), NEVER_PERCENT_ESCAPED], [htmlEscapedPattern(variant), NEVER_ESCAPED_IN_TEXT]] as const
    for (const [pattern, kept] of escapes) {
      if (!pattern) continue
      escaped.add(pattern)
      shortest = Math.min(shortest, variant.length)
      // every match keeps the characters no encoder escapes as they are
      const run = keptRun(variant, kept)
      if (run === undefined) anchors = undefined
      else anchors?.push(run)
    }
  }
  // a form of a short key (three characters) is no anchor: the key is looked for in every text
  if (anchors?.some((anchor) => anchor.length < SHORTEST_WINDOW)) anchors = undefined
  // longest first, so that a form containing another is replaced whole; the escaped
  // patterns (JSON, URL, HTML) last, as each of them also matches the plain form; those in any
  // case first, as the secret's forms contain its near-miss without the last character's
  const patterns = ([[blind, 'gi'], [exact, 'g']] as const).flatMap(([{ forms, escaped }, flags]) => {
    if (forms.size === 0 && escaped.size === 0) return []
    const source = [...[...forms].sort((a, b) => b.length - a.length).map(escapeRegExp), ...escaped].join('|')
    return [new RegExp(secret.length < NEAR_MISS_MIN_KEY_LENGTH ? standingApart(source) : source, flags)]
  })
  return patterns.length === 0 ? undefined : { patterns, shortest, anchors }
}

const WORD = '[A-Za-z0-9]'

/**
 * `source` matched only where it stands apart: not inside a longer run of letters and digits. A key
 * shorter than NEAR_MISS_MIN_KEY_LENGTH could be ordinary text (a development key "test", "dev",
 * "secret"), and matched anywhere it was also hidden inside the reports' own words: junit.xml's
 * `<testsuite>` became `<[REDACTED]suite>`, which no CI could read, and a one-letter key blanked
 * every word. Where a server echoes such a key it stands apart (`Bearer test`, `"test"`, `key=test`)
 * and is hidden; glued to a word it is not. A key of 8 characters or more is hidden wherever it is.
 */
const standingApart = (source: string) => `(?:(?<!${WORD})(?=${WORD})|(?!${WORD}))(?:${source})(?:(?<=${WORD})(?!${WORD})|(?<!${WORD}))`

/**
 * A redactor for one or more secrets (the key from the environment, from --api-key, each key of a
 * fleet, …). One pattern per secret, applied in turn, the longest secret first (a key that contains
 * another is replaced whole), not one pattern of them all: V8 compiles a large
 * alternation without its fast paths (from the third key on, 1.4 ms became 9 ms over a 1.4 MB
 * results.json) and, past about 20 KB of pattern, into one that took 840 ms for twenty keys, where
 * twenty patterns in turn take 22 ms. One pass over a text first tells whether it may hold any
 * of them (lib/http/secret-filter.ts), for one key as for many.
 */
export function createRedactor(...secrets: (string | undefined)[]): Redactor {
  const ordered = orderedSecrets(secrets)
  for (const secret of ordered) givenSecrets.delete(secret), givenSecrets.add(secret)
  for (const older of givenSecrets) if (givenSecrets.size > GIVEN_SECRETS) givenSecrets.delete(older)
  // a fleet's deployments each make one of the same keys: its patterns are made once (17 ms for ten)
  const key = JSON.stringify(ordered)
  const redactor = recentRedactors.get(key) ?? redactorOf(ordered)
  recentRedactors.delete(key)
  recentRedactors.set(key, redactor)
  // a few, for the fleet's own and its deployments'; not every set of secrets a long-lived process (a vitest run) ever redacted
  for (const older of recentRedactors.keys()) if (recentRedactors.size > RECENT_REDACTORS) recentRedactors.delete(older)
  return redactor
}

/** The distinct secrets to hide, the longest first; of the same length, in one order whatever order they were given in. */
function orderedSecrets(secrets: readonly (string | undefined)[]): string[] {
  const distinct = new Set<string>()
  for (const given of secrets) {
    // a key from a secret file is sent trimmed (lib/config/api-key.ts); whitespace alone is no key
    // to hide, and hiding it would blank every space of the output
    for (const secret of [given, given?.trim()]) if (secret && secret.trim().length > 0) distinct.add(secret)
  }
  return [...distinct].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0))
}
const RECENT_REDACTORS = 4

/**
 * The secrets redactors were made for in this process (the latest GIVEN_SECRETS, a fleet's every
 * key): the command line's last resort hides them in a fault that escaped every run
 * (lib/cli/conform.ts), where it knew only CONFORM_API_KEY and --api-key, and printed a key from a
 * .env file, a targets entry's variable or a --header.
 */
const givenSecrets = new Set<string>()
const GIVEN_SECRETS = 1024
export const secretsGiven = (): string[] => [...givenSecrets]
const recentRedactors = new Map<string, Redactor>()
/**
 * What createRedactor does, in its steps: every form of every secret (`forms`), its letters and digits in order whatever
 * stands between them (`pieces`, secret-pieces.ts) or one by one (`spread`, secret-spread.ts), every run of a long secret's characters left (`runs`).
 */
export function redactorSteps(...secrets: (string | undefined)[]): { forms: Redactor; pieces: Redactor; spread: Redactor; runs: Redactor } {
  const ordered = orderedSecrets(secrets)
  const taken = new Set<string>()
  const patterns = ordered.flatMap((secret) => patternOf(secret, taken) ?? [])
  // and the runs of the wrong key of the same shape the suite sends, which gives the key back letter
  // by letter; and of the key inside base64 (Basic credentials, curl -u KEY:KEY), echoed from one
  // character too far in by a service that cuts "Basic " short (or base32 of it cut short): the rest decodes to the key once a
  // character is guessed in front, and no whole form matched it; and of its bytes in spaced hex, which Node's inspect cuts at 50
  const runSecrets = ordered.flatMap((secret) => [secret, sameShape(secret), ...base64Inside(secret, NEAR_MISS_MIN_KEY_LENGTH), ...base32Inside(secret, NEAR_MISS_MIN_KEY_LENGTH, false), hexSpaced(secret)])
  // the forms' anchors and the runs' in one pass: a text it finds clean, unchanged by the steps between, is not passed over again for the runs
  const formsAnchors = patterns.flatMap((p) => p.anchors ?? [])
  const shared = formsAnchors.length === 0 ? undefined : sharedAnchorPass([...formsAnchors, ...runAnchors(runSecrets)])
  const forms: Redactor = patterns.length === 0 ? (text) => text : formsRedactor(patterns, shared?.holdsAny)
  const runs = runsRedactor(runSecrets, REDACTED, shared?.knownClean)
  const variants = (secret: string) => [secret, ...nearMisses(secret)].map((v) => ({ secret: v, fold: foldsSafely(v) }))
  // spread out, the secret's pattern takes the near-miss without its last character, and one in any case its case swapped
  // a long secret (LONG_SECRET) spread a piece of LONG_SECRET at a time: spread whole, its pattern was more than V8 takes from 8 KB on
  const spreadGroups = ordered.map((secret) => variants(secret).filter((v, i) => i === 0 || (v.secret !== secret.slice(0, -1) && !(v.fold && v.secret === swapCase(secret)))))
  const spread = spreadRedactor(spreadGroups.flatMap((group) => (group[0]!.secret.length < LONG_SECRET ? [group] : group.flatMap((v) => inPiecesOf(v.secret, LONG_SECRET).map((secret) => [{ secret, fold: v.fold }])))), REDACTED)
  return { forms, pieces: piecesRedactor(ordered.flatMap(variants), REDACTED), spread, runs }
}

function redactorOf(ordered: readonly string[]): Redactor {
  const { forms, pieces, spread, runs } = redactorSteps(...ordered)
  // the runs after every secret's forms, so that a key that shares a run with another is still replaced whole; then a run of escapes that holds one (withEscapeRuns)
  // and a run of hex whose bytes hold a run of one (withHexRuns: a key's hex cut short)
  // or the whole of one of NEAR_MISS_MIN_KEY_LENGTH or more, as writtenOut's hex and bytesListed hide it: a key whose runs read as a word or a
  // number (12345678, CATEGORIES) has none hidden, and stood whole listed with semicolons, as glued 0x hex, wrapped hex, in a dump
  const whole = ordered.filter((secret) => secret.length >= NEAR_MISS_MIN_KEY_LENGTH)
  const holds = (bytes: string) => runs(bytes) !== bytes || whole.some((secret) => bytes.includes(secret))
  const hidden = withHexRuns(withEscapeRuns((text) => runs(spread(pieces(forms(text)))), REDACTED), holds, REDACTED, ordered.some((secret) => /[^\x00-\x7f]/.test(secret)))
  // a dump's lines first (secret-dumps.ts), as the other steps' replacements leave them no dump lines; UTF-16's NULs dropped, as withHexRuns drops them; before them, what markup breaks up, read as shown (secret-markup.ts); a short text met again (a fleet's deployments share this redactor) answered as the first time (textsMet)
  const plain = (text: string) => hidden(dumpsHidden(text, (bytes) => holds(bytes.toString('latin1').replaceAll('\u0000', '')), REDACTED))
  const reach = longestForm(...ordered)
  return textsMet((text) => plain(markupHidden(text, plain, REDACTED, reach)))
}

function formsRedactor(patterns: readonly SecretPattern[], holdsAny: (text: string) => boolean = () => true): Redactor {
  // a text shorter than every form holds none: most of a result's strings (statuses, header
  // values, names) are, and a report's copy walks thousands of them
  const shortest = patterns.reduce((least, p) => Math.min(least, p.shortest), Infinity)
  // one pass tells the texts that may hold a secret with anchors, as most hold none: cheaper than
  // the pattern of every form of even one key, and than one per key of a fleet (a run's four
  // reports, 0.9 MB, redacted whole: one key 2.5 ms against 3.3, ten keys 2.6 against 8.8 before
  // secret-filter.ts hashed four characters at once); a secret without (no four characters no
  // encoder escapes) is always looked for
  const holds = anchorFilter(patterns.flatMap((p) => p.anchors ?? []), true)
  const anchored = holds === undefined ? [] : patterns.filter((p) => p.anchors !== undefined)
  const always = patterns.filter((p) => !anchored.includes(p))
  return (text) => {
    if (text.length < shortest) return text
    let out = text
    // the secrets in the order given (the longest first), as a key that contains another is replaced whole
    const looked = anchored.length > 0 && holdsAny(text) && holds?.(text) ? patterns : always
    for (const p of looked) if (out.length >= p.shortest) out = textsReplaced(p.patterns.reduce((o, pattern) => o.replace(pattern, REDACTED), out), p.texts ?? [], REDACTED)
    return out
  }
}

/** The longest text a redacted secret can occupy: how far a cut must look past its end. Each secret's once: a fleet's every client asks for every key's. */
export function longestForm(...secrets: (string | undefined)[]): number {
  let longest = 0
  for (const secret of secrets) {
    if (!secret) continue
    const own = longestForms.get(secret) ?? [secret, ...nearMisses(secret)].reduce((most, v) => Math.max(most, longestJsonEscaped(v), longestPercentEscaped(v), longestHtmlEscaped(v), longestPieces(v), longestSpread(v), longestEscapeRun(v), ...formsOf(v).map((f) => f.length)), 0)
    if (!longestForms.has(secret) && longestForms.size < GIVEN_SECRETS) longestForms.set(secret, own)
    longest = Math.max(longest, own)
  }
  return longest
}
const longestForms = new Map<string, number>()
