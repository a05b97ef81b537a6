/**
 * The headers of one request, twice: as the evidence records them (the key as its placeholder, a
 * secret --header value redacted) and as they go on the wire. Every request carries the run's
 * trace context and a User-Agent naming the run (lib/http/trace-context.ts), and asks for
 * identity: with no Accept-Encoding any coding is acceptable (RFC 9110 12.5.3); a server that
 * compresses anyway is decoded, and advisory-identity-encoding notes it. Both are recorded with the
 * rest, so that the evidence and the journal show every header a request went with (but those of
 * the connection: Host, Connection, the body's length), the User-Agent naming the run among them.
 */
import type { ExtraHeader } from '../config/extra-headers.ts'
import { COOKIES_NOT_SHOWN } from './cookies.ts'
import { keyOnTheWire, type Redactor } from './redact.ts'
import { traceparent, userAgent } from './trace-context.ts'

export interface HeaderContext {
  apiKey: string
  redact: Redactor
  traceId: string
  identity?: { version: string; runId: string }
  extraHeaders?: readonly ExtraHeader[]
}

/** The Accept of every request that names none of its own (§4: every payload is JSON). */
const DEFAULT_ACCEPT = 'application/json'

/** `cookies`: a Cookie header of the service's own cookies, on the wire only (lib/http/cookies.ts). */
export function requestHeaders(
  given: Record<string, string> | undefined,
  spanId: string,
  context: HeaderContext,
  cookies?: string,
): { recorded: Record<string, string>; wire: Record<string, string> } {
  const extra = context.extraHeaders ?? []
  // the --header values first, then the request's own, then its trace context (plain loops: ~130 requests a run)
  const recorded: Record<string, string> = {}
  for (const h of extra) recorded[h.name] = context.redact(h.value)
  if (given) for (const name in given) recorded[name] = given[name] as string
  // the Accept that goes on the wire is recorded, the default one too: a record without one is a
  // request sent without (its curl line then removes curl's own Accept: */*, lib/http/curl.ts)
  if (!Object.keys(recorded).some((name) => name.toLowerCase() === 'accept')) recorded.accept = DEFAULT_ACCEPT
  recorded.traceparent = traceparent(context.traceId, spanId)
  const agent = context.identity ? userAgent(context.identity.version, context.identity.runId) : 'petstore-conform'
  const wire: Record<string, string> = { 'user-agent': agent, accept: DEFAULT_ACCEPT, 'accept-encoding': 'identity' }
  // the defaults the probe did not replace went too: recorded as they went
  const named = new Set(Object.keys(recorded).map((name) => name.toLowerCase()))
  if (!named.has('user-agent')) recorded['user-agent'] = agent
  if (!named.has('accept-encoding')) recorded['accept-encoding'] = 'identity'
  for (const name in recorded) wire[name] = keyOnTheWire(recorded[name] as string, context.apiKey)
  // a secret --header value is recorded redacted: the wire gets the value itself
  for (const { name, value } of extra) if (given?.[name] === undefined) wire[name] = value
  // a header given as '' is not sent at all (a client that sends no Accept), nor recorded
  for (const name in recorded) {
    if (recorded[name] === '') {
      delete recorded[name]
      delete wire[name]
    }
  }
  if (cookies !== undefined) {
    recorded.cookie = COOKIES_NOT_SHOWN
    wire.cookie = cookies
  }
  return { recorded, wire: canonicalNames(wire) }
}

/**
 * Header names on the wire as curl, browsers over HTTP/1.1 and §5.2 write them (`Authorization`,
 * `Content-Type`): names are case-insensitive (RFC 9110 §5.1), but a service that looks its header
 * up by the exact name (PHP's getallheaders()['Authorization']) refused every request of a run
 * that sent them in lower case, which then read as a wrong key. The evidence keeps them in lower case.
 */
function canonicalNames(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name in headers) out[canonicalName(name)] = headers[name] as string
  return out
}

/** Each name written once (a run sends the same dozen names ~130 times; a fleet of ten, ten times that). */
const canonical = new Map<string, string>()

function canonicalName(name: string): string {
  let written = canonical.get(name)
  if (written === undefined) {
    written = name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase())
    // the names a suite or --header sends are few; a caller's stream of distinct names is not kept
    if (canonical.size < 1_000) canonical.set(name, written)
  }
  return written
}
