/**
 * Whether the API key can be sent at all. The key goes on the wire as `Authorization: Bearer
 * <key>` (§5.2), and a bearer token is visible ASCII (RFC 6750 §2.1, token68): a character an
 * HTTP header cannot carry (RFC 9110 §5.5: CR, LF, NUL and other controls, anything past
 * Latin-1) must not reach the HTTP client, where undici refuses it deep in its connection pool.
 *
 * Surrounding whitespace is trimmed, with a note: secret files end in a newline
 * (`kubectl create secret --from-file`, Docker secrets, many .env writers), and no token68 key
 * begins or ends in whitespace, so the trimmed key is the one that was meant. Everything else is
 * refused before any request. No message here ever holds the key or a piece of it.
 */
export interface CheckedKey {
  key: string
  /** Said once on stderr when the key was changed (trimmed). */
  note?: string
}

/** Names a character by position and class, never by its value. */
function describe(char: string): string {
  const code = char.codePointAt(0) as number
  if (code < 0x20 || code === 0x7f) return `a control character (U+${code.toString(16).toUpperCase().padStart(4, '0')})`
  if (code === 0x20) return 'a space'
  return code > 0xff ? 'a character outside Latin-1' : 'a character outside visible ASCII'
}

/** The fewest characters of a key the reports can hide (one of 3, `key`, is hidden where it stands apart, as a word of 4, `test`: docs/reports.md). */
export const SHORTEST_KEY = 3
/**
 * The most characters of a key (or a secret --header value) the reports can hide: 16 KiB, what Node takes of an answer's
 * whole head (--max-http-header-size), so that no server can echo a longer one in a header, and more than any bearer token
 * seen (a JWT of Azure AD or Keycloak with many claims, 2 to 4 KB). A key from 1 KiB on has its forms looked for as texts
 * (LONG_SECRET, lib/http/redact.ts); one of 16 KiB makes its redactor in about 3 s, one of 64 KiB in 36 s, for its runs.
 */
export const LONGEST_KEY = 16384
const SHORTEST_KEY_WORD = 'three'

/** A key of JSON's numbers and literals with a `,`, `:`, `[`, `]`, `{` or `}` among them, nothing else. */
export const JSON_STRUCTURE_ONLY = /^(?=.*[,:[\]{}])(?:[-+.0-9eE,:[\]{}]|true|false|null)+$/

/** Why a secret (the key, or a secret --header value) cannot be hidden in the reports, if it cannot: said once here for both (checkApiKey, lib/config/extra-headers.ts). */
export type UnhideableKind = 'short' | 'long' | 'punctuation' | 'json-structure'

export function unhideableKind(value: string): UnhideableKind | undefined {
  if (value.length < SHORTEST_KEY) return 'short'
  if (value.length > LONGEST_KEY) return 'long'
  if (!/[A-Za-z0-9]/.test(value)) return 'punctuation'
  // nor one of JSON's numbers and literals joined by its punctuation (`1,2`, `200,`, `0:1`): results.json and journal.ndjson, redacted in their values only, kept it in their structure (`[1,2]`, `"status":200,`)
  return JSON_STRUCTURE_ONLY.test(value) ? 'json-structure' : undefined
}

/** What each kind is, after "<source> " or "the value of <header> ". */
export const UNHIDEABLE_WORDS: Record<UnhideableKind, string> = {
  short: `is shorter than ${SHORTEST_KEY_WORD} characters: a secret that short is a piece of the reports' own text (a digit of every count, a letter of every word), which no report can hide without hiding that text, and one anyone can guess`,
  long: `is longer than ${LONGEST_KEY} characters: more than a server takes of a request's head (Node's limit of a whole head, twice nginx's of a header line), and the reports hide a longer one only slowly (36 s to get ready for one of 64 KiB)`,
  punctuation: "holds no letter or digit: a secret of punctuation alone is a piece of the reports' own markup (JSON, XML, Markdown), which no report can hide without breaking it",
  'json-structure': "is made of JSON's numbers, literals and punctuation (, : [ ] { }) alone: a piece of every JSON report's own structure, which no report can hide without breaking it",
}

/** The key to send, or a one-line reason (without the key) why it cannot be sent. */
export function checkApiKey(raw: string, source: string): CheckedKey | { problem: string } {
  const key = raw.trim()
  if (key.length === 0) return { problem: `${source} is empty${raw.length > 0 ? ' (only whitespace)' : ''}: set it to the key issued for the account` }
  if (/^bearer\s/i.test(key)) return { problem: `${source} begins with "Bearer ": give the key alone; the suite writes the Authorization header itself` }
  // a quote mark is no character of a token68 key: one a .env line left open (KEY="abc), or that docker's --env-file keeps (KEY="abc" is "abc" with its quotes)
  const quote = /^["'`]|["'`]$/.exec(key)?.[0]
  if (quote !== undefined) {
    const how = key.length > 1 && key.startsWith(quote) && key.endsWith(quote) ? `is wrapped in quotes (${quote}…${quote})` : `${key.startsWith(quote) ? 'begins' : 'ends'} with a quote mark (${quote}) that is not closed`
    return { problem: `${source} ${how}, which no bearer key holds (RFC 6750 §2.1): quotes of a .env line left in the value (one not closed, or docker's --env-file, which keeps them); give the key alone` }
  }
  const chars = [...key]
  const at = chars.findIndex((c) => !/^[\x21-\x7e]$/.test(c))
  if (at >= 0) {
    return { problem: `${source} holds ${describe(chars[at] as string)} at position ${at + 1} of ${chars.length}: a bearer key is visible ASCII (RFC 6750 §2.1), so it cannot be sent` }
  }
  // a key this short, or of punctuation alone, is a piece of every report's own text (a count, an escape, `:` or `-->`): hidden, it hid that text and broke the reports; shown, it showed the key
  const kind = unhideableKind(key)
  if (kind !== undefined) return { problem: `${source} ${UNHIDEABLE_WORDS[kind]}; give the key issued for the account` }
  if (key === raw) return { key }
  const where = key === raw.trimEnd() ? 'ended in whitespace' : key === raw.trimStart() ? 'began with whitespace' : 'had whitespace around it'
  return { key, note: `${source} ${where} (as a secret file's trailing newline does); trimmed before sending` }
}

/** What a key variable set but empty most often is: "set, but empty" alone left a CI user sure the secret was set. */
export const EMPTY_SECRET_WORDS = "A CI secret that does not exist, or that the job is not given (GitHub Actions gives none to a pull request from a fork, nor an environment's secrets to a job without `environment:`), reaches the job as an empty variable"

/**
 * Why there is no key when CONFORM_API_KEY is set but empty (read as none, where "set
 * CONFORM_API_KEY" told a CI user whose job did not get the secret nothing); `hiddenIn`: the .env
 * file whose key it hides, since the environment comes first (the words of CI secrets alone sent a
 * developer with an empty variable in the shell looking for a secret).
 */
export function emptyKeyProblem(hiddenIn: string | true): string {
  if (hiddenIn === true) return `no API key: CONFORM_API_KEY is set, but empty. ${EMPTY_SECRET_WORDS}: give it the key issued for the account (or --api-key)`
  return `no API key: CONFORM_API_KEY is set, but empty, in the environment, which comes before ${hiddenIn}: the key ${hiddenIn} sets is not read. Unset the variable (unset CONFORM_API_KEY), or give it the key`
}

/**
 * A base URL that holds a run of the key the reports hide (a key named after its service,
 * petstore-production-api-key for https://petstore-production-api.example.com): every report
 * showed the base URL, and the evidence of a passing run, with [REDACTED] in its place, and
 * nothing said why. Hiding less would give back a key echoed cut short.
 * A secret --header's value (a gateway key) is hidden as the key is: the note said "the API key" of a URL that held none of it.
 */
export const KEY_IN_BASE_URL = 'the base URL holds part of the API key or of a secret header\'s value (a secret named after its service): the reports hide that part wherever it stands, the base URL too, and show [REDACTED] there; a secret that shares no words with the service\'s address hides nothing else'

/**
 * A key that is a word the reports write themselves ("key", "token", "json", "petstore"): the
 * reports hide it wherever it stands apart, and rule ids read `auth-missing-[REDACTED]-401`, the
 * tool's name `[REDACTED]-categories-conformance`, every content type `application/[REDACTED]`,
 * with nothing said why. The run says it once, before any request (ownWordsOf gives the words).
 */
export const KEY_IN_OWN_WORDS = 'the API key (or a secret header\'s value) is a word the reports write themselves (a rule id, the tool\'s name, a content type, a property of results.json, which keeps its names): they hide it wherever it stands apart, their own words too, and show [REDACTED] there; a key that common is one anyone can guess'

/** The words every run's reports write, whatever the service answers: the tool's names, the content type, the rules' ids and titles. */
export const ownWordsOf = (rules: readonly { id: string; title: string }[]) =>
  ['petstore-categories-conformance', 'Pet Store categories conformance', 'petstore-conform', 'application/json', ...RESULT_PROPERTIES, ...rules.flatMap((r) => [r.id, r.title])].join('\n')

/** results.json's properties at its top, which every report names too (a key "verdict" hid the word in report.html's styles and summary.md; results.json keeps its names: lib/reporters/json-report.ts). */
const RESULT_PROPERTIES = ['tool', 'runId', 'traceId', 'baseUrl', 'embeddedServer', 'startedAt', 'durationMs', 'options', 'verdict', 'exitCode', 'summary', 'notVerified', 'rules', 'ledger', 'journal', 'problems', 'observed', 'exchanges']

/**
 * Why there is no key when --api-key was given empty (`--api-key "$PETSTORE_API_KEY"` of a variable
 * not set): "set CONFORM_API_KEY" told a user whose CONFORM_API_KEY was set nothing, since the flag,
 * empty, had come before it. `envKey`: CONFORM_API_KEY's value.
 */
export function emptyFlagKeyProblem(envKey: string | undefined): string {
  const hidden = envKey ? ', and a flag comes before the environment: the key CONFORM_API_KEY holds is not read (leave --api-key out to use it)' : ''
  return `no API key: --api-key was given an empty value (\`--api-key "$VARIABLE"\` of a variable that is not set?)${hidden}; give the key issued for the account, best in CONFORM_API_KEY`
}
