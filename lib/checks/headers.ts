/**
 * Advisory checks: HTTP conventions the interface document does not state. They return a note
 * instead of failing, and never change the verdict.
 */
import type { HttpResult } from '../http/client.ts'

/** RFC 9110 §11.6.1 and RFC 6750 §3: a 401 names the scheme the client should use. */
export function wwwAuthenticateNote(result: HttpResult): string | undefined {
  const response = result.exchange.response
  if (!response || response.status !== 401) return undefined
  const header = response.headers['www-authenticate']
  if (header && /(^|,)\s*bearer\b/i.test(header)) return undefined
  // AWS API Gateway's REST APIs rename a proxy integration's WWW-Authenticate (Server, Date …) so: the service sent one, no client reads it
  const remapped = response.headers['x-amzn-remapped-www-authenticate']
  if (header === undefined && remapped !== undefined) {
    return `401 whose WWW-Authenticate (${remapped}) AWS API Gateway renamed x-amzn-Remapped-WWW-Authenticate, as a REST API does to a proxy integration's answer: the service sent one, and a client reads none (RFC 9110 asks for one naming the Bearer scheme)`
  }
  return header === undefined
    ? '401 without a WWW-Authenticate header (RFC 9110 asks for one naming the Bearer scheme)'
    : `401 with WWW-Authenticate: ${header}, which does not name the Bearer scheme`
}

/** RFC 9745 (Deprecation) and RFC 8594 (Sunset) on a deprecated operation. */
export function deprecationNote(result: HttpResult): string | undefined {
  const response = result.exchange.response
  if (!response) return undefined
  const missing = ['deprecation', 'sunset'].filter((name) => response.headers[name] === undefined)
  if (missing.length === 0) return undefined
  return `GET /pets/{petId} is deprecated with a sunset date, but the response has no ${missing.map((m) => m[0].toUpperCase() + m.slice(1)).join(' or ')} header`
}
