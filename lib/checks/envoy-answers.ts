/**
 * What Envoy answers itself, as plain text, before a request reaches the service: its jwt_authn
 * filter ("Jwt is missing", "Jwt verification fails", "Jwt is expired"), its RBAC filter ("RBAC:
 * access denied", which Istio's AuthorizationPolicy and RequestAuthentication answer through), and
 * its local rate limit ("local_rate_limited"). Measured against an emulation of Envoy's local replies
 * in front of the reference server: "the 401 body is not valid JSON … body starts "Jwt is missing"",
 * with nothing to say whose text it is. The verdict and the failure code never depend on these words.
 */
import type { RecordedResponse } from '../http/exchange.ts'

const ENVOY_TEXT = /^(?:Jwt (?:is missing|verification fails|is expired|is not yet valid|issuer is not configured|header is malformed)|RBAC: access denied)\b/

const LOCAL_REPLY =
  "a local_reply_config on the HTTP connection manager (a mapper for its status, with body_format json_format {code, message, status: '%RESPONSE_CODE%'} and content_type application/json) writes the Error record"

/** Why a body that is not JSON came with this answer, where Envoy's filters wrote it. */
export function envoyTextBody(response: Pick<RecordedResponse, 'body'>): string | undefined {
  const text = ENVOY_TEXT.exec(response.body)?.[0]
  if (!text) return undefined
  const filter = text.startsWith('RBAC') ? "its RBAC filter's (Istio's AuthorizationPolicy)" : "its jwt_authn filter's (Istio's RequestAuthentication)"
  return `"${text}" is Envoy's own answer, ${filter}, given before the service sees the request, as text/plain; ${LOCAL_REPLY}`
}

/** Why a 403 came where §5.3 asks 401, where Envoy's RBAC filter denied a request without a valid token. */
export function envoyStatus(response: Pick<RecordedResponse, 'status' | 'body'>, expected: number): string | undefined {
  if (expected !== 401 || response.status !== 403 || !response.body.startsWith('RBAC: access denied')) return undefined
  return "Envoy's RBAC filter answers 403 to a request its policy does not allow (Istio: an AuthorizationPolicy requiring a request principal, where the token is missing); §5.3 asks 401 of a key that is missing or invalid: a local_reply_config mapper can answer it 401 with the Error record"
}
