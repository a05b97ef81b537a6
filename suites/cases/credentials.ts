/** Credentials that must be refused with 401 (§5.2, §5.3). */
import {
  KEY_AS_BASIC_USER_AND_PASSWORD,
  KEY_AUTHORIZATION,
  KEY_LAST_CHARACTER_CHANGED,
  KEY_OF_SAME_SHAPE,
  KEY_PLACEHOLDER,
  KEY_SWAPPED_CASE,
  KEY_WITHOUT_LAST_CHARACTER,
  NEAR_MISS_MIN_KEY_LENGTH,
} from '../../lib/http/redact.ts'
import type { WritePriority } from './write-priority.ts'

/** Each case but the near-misses is also a POST of a valid body (the priority is that POST's). */
export interface CredentialCase extends WritePriority {
  key: string
  label: string
  rule: 'auth-missing-key-401' | 'auth-invalid-key-401'
  /** The Authorization header, or undefined for none; $CONFORM_API_KEY stands for the real key. */
  authorization: (runId: string) => string | undefined
  /**
   * Tried on the GET operations only, to keep the write bound: every near-miss of the key but three,
   * the case-swapped key, the key without its last character and the key with one added, which a
   * create route with a key check of its own (case-insensitive, or by prefix either way) would take.
   */
  readsOnly?: boolean
  /**
   * Tried on the list only (a read): a fault of the token parsing that every operation shares, which
   * one operation shows; the others would add requests, and round trips, for nothing new.
   */
  listOnly?: boolean
  /** Why this case cannot be made with this key (then its checks do not apply). */
  unusableWith?: (key: string) => string | undefined
  /** Other headers the request carries (on the list only). */
  headers?: Record<string, string>
  /** The statuses an HTTP server or a front may answer before the service sees the request (then its checks do not apply, nor where the connection closed unanswered), and why. */
  refusedBeforeTheService?: { refused: (status: number) => boolean; why: string }
}

export const VALID_AUTHORIZATION = KEY_AUTHORIZATION

/** The key of the POST of a valid body under a credential case, which must be refused (suites/categories/probes.ts). */
export const unauthenticatedCreateKey = (credential: string) => `create-auth-${credential}`

/** A near-miss of a short key could not be redacted if a server echoed it, so none is sent. */
const tooShort = (key: string) =>
  key.length < NEAR_MISS_MIN_KEY_LENGTH ? `the key is shorter than ${NEAR_MISS_MIN_KEY_LENGTH} characters; a near-miss of it could not be kept out of the reports` : undefined

/**
 * RFC 9562 §4: the hex digits of a UUID are case-insensitive on input, so a server may take a
 * hex key (a UUID, a hex token) in either case; the case-swapped near-miss is then not wrong.
 */
const hexLetters = (key: string) =>
  /[a-fA-F]/.test(key) && !/[g-zG-Z]/.test(key) ? 'every letter of the key is a hex digit, which RFC 9562 lets a server read in either case (a UUID or hex key)' : undefined

export const CREDENTIAL_CASES: readonly CredentialCase[] = [
  { key: 'no-header', label: 'no Authorization header', rule: 'auth-missing-key-401', priority: 7, authorization: () => undefined },
  { key: 'empty-token', label: 'an empty bearer token', rule: 'auth-missing-key-401', authorization: () => 'Bearer ' },
  { key: 'wrong-key', label: 'a wrong key', rule: 'auth-invalid-key-401', priority: 8, authorization: (runId) => `Bearer conform-${runId}-not-a-key` },
  { key: 'basic-scheme', label: 'the key under the Basic scheme', rule: 'auth-invalid-key-401', authorization: () => `Basic ${KEY_PLACEHOLDER}` },
  { key: 'no-scheme', label: 'the key without a scheme', rule: 'auth-invalid-key-401', authorization: () => KEY_PLACEHOLDER },
  // keys compared loosely: case-insensitively (a database collation), as a prefix, or a prefix of
  { key: 'key-case-swapped', label: 'the key with its letters in the other case', rule: 'auth-invalid-key-401',
    authorization: () => `Bearer ${KEY_SWAPPED_CASE}`,
    unusableWith: (key) => tooShort(key) ?? (/[a-zA-Z]/.test(key) ? hexLetters(key) : 'the key has no letters, so swapping their case changes nothing') },
  // a key checked by its format alone (length, character classes, a UUID pattern), never looked up
  { key: 'key-of-same-shape', label: 'a wrong key of the same shape', rule: 'auth-invalid-key-401', readsOnly: true,
    authorization: () => `Bearer ${KEY_OF_SAME_SHAPE}`,
    unusableWith: (key) => tooShort(key) ?? (/[a-zA-Z0-9]/.test(key) ? undefined : 'the key has no letters or digits, so a key of its shape is the key itself') },
  { key: 'key-with-extra-character', label: 'the key with one character added', rule: 'auth-invalid-key-401',
    authorization: () => `Bearer ${KEY_PLACEHOLDER}x` },
  // a token taken as the second word of the header (header.split(' ')[1] === key): what follows is never looked at
  { key: 'key-then-another-word', label: 'the key followed by a space and another word', rule: 'auth-invalid-key-401', readsOnly: true, listOnly: true,
    authorization: () => `Bearer ${KEY_PLACEHOLDER} x` },
  // a key looked up in a map and compared as text: a missing entry reads as "undefined" (JavaScript) or "null"
  { key: 'token-undefined', label: 'the token "undefined"', rule: 'auth-invalid-key-401', readsOnly: true, listOnly: true, authorization: () => 'Bearer undefined',
    unusableWith: (key) => (key === 'undefined' ? 'the key is "undefined"' : undefined) },
  { key: 'token-null', label: 'the token "null"', rule: 'auth-invalid-key-401', readsOnly: true, listOnly: true, authorization: () => 'Bearer null',
    unusableWith: (key) => (key === 'null' ? 'the key is "null"' : undefined) },
  // a key compared as a number when both read as one (PHP's ==: "0739…" == "739…"), or by what
  // follows its first character
  { key: 'key-with-zero-before', label: 'the key with a 0 before it', rule: 'auth-invalid-key-401', readsOnly: true, listOnly: true,
    authorization: () => `Bearer 0${KEY_PLACEHOLDER}` },
  // a comparison with an off-by-one that never looks at the last character; and the character it
  // is changed to is _ (x where the key ends in _), which SQL's LIKE reads as any one character: a key
  // looked up with WHERE key LIKE ?, where = was meant, takes it
  { key: 'key-last-character-changed', label: 'the key with its last character changed', rule: 'auth-invalid-key-401', readsOnly: true, listOnly: true,
    authorization: () => `Bearer ${KEY_LAST_CHARACTER_CHANGED}`,
    unusableWith: tooShort },
  // no key, but headers that say the request comes from inside (a filter that trusts X-Forwarded-For
  // or nginx's X-Real-IP for internal callers: any client can send them)
  { key: 'internal-forwarded-for', label: 'no Authorization header, and X-Forwarded-For and X-Real-IP: 127.0.0.1', rule: 'auth-missing-key-401', readsOnly: true, listOnly: true,
    authorization: () => undefined, headers: { 'x-forwarded-for': '127.0.0.1', 'x-real-ip': '127.0.0.1' } },
  { key: 'key-without-last-character', label: 'the key without its last character', rule: 'auth-invalid-key-401',
    authorization: () => `Bearer ${KEY_WITHOUT_LAST_CHARACTER}`,
    unusableWith: tooShort },
  // a token read as what follows the header's first seven characters ('Bearer '.length), whatever the scheme
  { key: 'key-under-digest-scheme', label: 'the key under the Digest scheme', rule: 'auth-invalid-key-401', readsOnly: true, listOnly: true,
    authorization: () => `Digest ${KEY_PLACEHOLDER}` },
  // echo's KeyAuth and JWT middlewares compare the header's first six characters to "Bearer" and
  // take the token from its eighth on, whatever the seventh ("Bearer:" is no scheme, RFC 9110 §11.4)
  { key: 'key-after-bearer-colon', label: 'the key after "Bearer:" (a colon where the space goes)', rule: 'auth-invalid-key-401', readsOnly: true, listOnly: true,
    authorization: () => `Bearer:${KEY_PLACEHOLDER}` },
  // a hand-written pattern that lets the space after the scheme go (/^Bearer\s*(\S+)$/, written to take "Bearer<token>"
  // too): the key right after "Bearer" is the token it reads. "Bearer:" puts a character there, which such a pattern keeps
  { key: 'key-right-after-bearer', label: 'the key right after "Bearer", without the space', rule: 'auth-invalid-key-401', readsOnly: true, listOnly: true,
    authorization: () => `Bearer${KEY_PLACEHOLDER}` },
  // Rails' token parser (token_and_options) takes what precedes a comma, a semicolon or a tab for the
  // token and the rest for its options, so the key and another word after a comma is let in
  { key: 'key-then-comma-word', label: 'the key followed by a comma and another word', rule: 'auth-invalid-key-401', readsOnly: true, listOnly: true,
    authorization: () => `Bearer ${KEY_PLACEHOLDER},x` },
  // the scheme of Rails' token authentication, which reads the key under Token as under Bearer
  // (authenticate_with_http_token), and of Django REST framework's TokenAuthentication: a scheme §5.2 does not name
  { key: 'key-under-token-scheme', label: 'the key under the Token scheme', rule: 'auth-invalid-key-401', readsOnly: true, listOnly: true,
    authorization: () => `Token ${KEY_PLACEHOLDER}` },
  // HTTP Basic taken too, with the key as the user name (Stripe's API takes it so: curl -u KEY:) or as
  // the password, whatever the user (Heroku's curl -u :KEY, Mailgun's api:KEY): the key as both
  // catches either; the key under Basic as it is (basic-scheme) is no such credential. Redacted as any
  // key inside base64, which a key shorter than the near-misses' floor is not
  { key: 'key-as-basic-credentials', label: 'the key as the user name and the password of HTTP Basic credentials (curl -u KEY:KEY)', rule: 'auth-invalid-key-401', readsOnly: true, listOnly: true,
    authorization: () => `Basic ${KEY_AS_BASIC_USER_AND_PASSWORD}`, unusableWith: tooShort },
  // a token with a character outside ASCII (é, the byte E9: obs-text, RFC 9110 §5.5), which Python's
  // hmac.compare_digest and secrets.compare_digest refuse to compare as text with a TypeError (a 500
  // where aiohttp, Starlette and Werkzeug hand the header on as a str). A server or a front may refuse
  // the byte itself, which the document never mentions: only what the service's key check alone
  // answers is judged, a 401, a 2xx (the wrong key taken) or a 500 (its own fault); a service's own
  // refusal of the token as malformed (Hono's bearerAuth's 400) meets the other malformed headers above, judged there
  { key: 'token-outside-ascii', label: 'a wrong key with a character outside ASCII (é, the byte E9)', rule: 'auth-invalid-key-401', readsOnly: true, listOnly: true,
    authorization: (runId) => `Bearer conform-${runId}-cl\u00e9`,
    refusedBeforeTheService: {
      refused: (status) => status !== 401 && status !== 500 && (status < 200 || status > 299),
      why:
        "a server or a front may refuse a header value outside ASCII before the service sees it (ASP.NET Core's Kestrel answers 400, ModSecurity's Core Rule Set at paranoia level 3 answers 403 (rule 920272), " +
        'a server may close the connection on the byte unanswered, and a gateway in front of it answer 502); RFC 9110 §5.5 lets a field value hold such bytes (obs-text), which the document does not mention: ' +
        "only a 401, a 2xx (the wrong key taken) or a 500 (the service's own fault) is judged",
    } },
  // a key of the framework's example or a developer's, left in beside the account's
  ...['changeme', 'test'].map(
    (token): CredentialCase => ({ key: `token-${token}`, label: `the token "${token}"`, rule: 'auth-invalid-key-401', readsOnly: true, listOnly: true, authorization: () => `Bearer ${token}`,
      unusableWith: (key) => (key === token ? `the key is "${token}"` : undefined) }),
  ),
]
