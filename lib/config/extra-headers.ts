/**
 * --header 'Name: value' (repeatable; CONFORM_HEADERS, one per line): a header every request
 * carries, for a gateway that wants a tenant or a version header. It never replaces what the
 * suite sets per request (Authorization above all), and the value of a header whose name
 * suggests a secret, or that reads as a credential whatever its name, is redacted wherever it
 * would be shown, as the key is.
 */
import { UNHIDEABLE_WORDS, unhideableKind } from './api-key.ts'

export interface ExtraHeader {
  /** Lower case, as the HTTP client sends it. */
  name: string
  value: string
}

/** Headers the suite sets itself, per request: a --header may not replace them. */
const SUITE_SETS = ['authorization', 'content-type', 'content-length', 'transfer-encoding', 'host', 'connection', 'accept', 'accept-encoding', 'traceparent']

/** Names whose values are secrets: they are redacted in every output (X-JWT-Assertion, WSO2's signed claims, X-Signature, X-Session-Id too). */
export const SECRET_NAME = /auth|cookie|token|key|secret|passw|credential|jwt|assertion|signature|session/i

/**
 * A value that reads as a credential whatever its header is called: 16 or more characters of a
 * token (base64, base64url, hex, a JWT's dots) with a letter and a digit, as a subscription key or
 * a signed assertion is; a tenant, a region or a version is shorter or has no digit.
 */
const CREDENTIAL_VALUE = /^(?=[^0-9]*[0-9])(?=[^A-Za-z]*[A-Za-z])[A-Za-z0-9+/_.~=-]{16,}$/

/**
 * Values of that look that are an identifier or a version, no credential: a UUID (a tenant's, a
 * correlation id) and a version that starts with its date (Azure's api-version 2024-02-15-preview,
 * Stripe-Version 2023-10-16.acacia) and a host name in lower case (X-Forwarded-Host
 * api.eu1.petstore.example; a JWT's parts have capitals, a token's last part digits). Hidden, the
 * curl line of every finding sent "[REDACTED]" as the tenant. A secret in a header of such a name
 * is hidden by its name (SECRET_NAME).
 */
const ID_OR_VERSION = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{4}-\d{2}-\d{2}(?:[._-][A-Za-z0-9.]*)?)$/i
const HOST_NAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}$/

/** RFC 9110 §5.1: a field name is a token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
/** RFC 9110 §5.5, as undici checks it: no CR, LF, NUL or other control but tab, nothing past Latin-1. */
const VALUE = /^[\t\x20-\x7e\x80-\xff]*$/

/**
 * A line without a colon, as a message may name it: the name before a space or "=" (`X-Api-Key
 * sk_live_…`, `X-Api-Key=…`), never what follows, which is the value a secret header carries; a
 * line of one word is named by its length (it may be the value alone). Its first 40 characters
 * were quoted, a gateway's key with them, into stderr and every report's reason.
 */
function withoutColon(line: string): string {
  // a value after the name: base64's padding (`c2tf…eA==`) is none, and the value alone is not named
  const name = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?:\s+|=)(?!=*$)/.exec(line.trim())?.[1]
  return name !== undefined ? `${JSON.stringify(name)} and its value without a colon between them` : `a line without a colon (its ${line.trim().length} characters not shown: it may be a secret value)`
}

/** The headers of `given` (each "Name: value", or several lines of them), or a one-line problem that never shows a secret value. */
export function parseExtraHeaders(given: readonly string[], source: string): ExtraHeader[] | { problem: string } {
  const headers: ExtraHeader[] = []
  for (const line of given.flatMap((g) => g.split(/\r?\n/)).filter((l) => l.trim() !== '')) {
    const colon = line.indexOf(':')
    const name = (colon < 0 ? line : line.slice(0, colon)).trim()
    if (colon < 0) return { problem: `${source} takes "Name: value" with a header name of letters, digits and -, got ${withoutColon(line)}` }
    if (!TOKEN.test(name)) return { problem: `${source} takes "Name: value" with a header name of letters, digits and -, got ${JSON.stringify(name)}` }
    const value = line.slice(colon + 1).trim()
    const lower = name.toLowerCase()
    if (lower === 'authorization') return { problem: `${source} cannot set Authorization: the key goes in CONFORM_API_KEY, and the suite writes Authorization itself (and sends it wrong on purpose where a check needs it)` }
    if (SUITE_SETS.includes(lower)) return { problem: `${source} cannot set ${name}: the suite sets it per request` }
    if (!VALUE.test(value)) return { problem: `${source}: the value of ${name} holds a character no HTTP header can carry (a line break or another control character)` }
    if (headers.some((h) => h.name === lower)) return { problem: `${source} gives ${name} twice` }
    headers.push({ name: lower, value })
  }
  // nor one longer or shorter than a key may be, or of punctuation alone: hidden as the key is, `1` blanked every digit 1 of the reports (junit.xml's `<?xml version="[REDACTED].0"`, the base URL's 127.0.0.1)
  for (const h of headers) {
    const kind = secretValues([h]).length > 0 ? unhideableKind(h.value) : undefined
    if (kind !== undefined) return { problem: `${source}: the value of ${h.name} is a secret (by its name) that ${UNHIDEABLE_WORDS[kind]}; give the value issued for it` }
  }
  return headers
}

/** The values to redact wherever they would be shown. */
export const secretValues = (headers: readonly ExtraHeader[]) => headers.filter((h) => h.value !== '' && (SECRET_NAME.test(h.name) || (CREDENTIAL_VALUE.test(h.value) && !ID_OR_VERSION.test(h.value) && !HOST_NAME.test(h.value)))).map((h) => h.value)
