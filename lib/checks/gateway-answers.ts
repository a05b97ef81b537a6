/**
 * What gateways answer themselves, before a request reaches the service. Envoy, as plain text: its jwt_authn
 * filter ("Jwt is missing", "Jwt verification fails", "Jwt is expired"), its RBAC filter ("RBAC:
 * access denied", which Istio's AuthorizationPolicy and RequestAuthentication answer through; its
 * local rate limit's 429 "local_rate_limited" is waited out, never judged). Measured against an emulation of Envoy's local replies
 * in front of the reference server: "the 401 body is not valid JSON … body starts "Jwt is missing"",
 * with nothing to say whose text it is. And what proto3's JSON mapping writes behind Envoy's gRPC-JSON
 * transcoder or grpc-gateway (below). The verdict and the failure code never depend on these words.
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

/**
 * A value quoted twice ("message":""Unauthorized""), as an AWS API Gateway gateway response template
 * writes "$context.error.messageString": API Gateway gives that variable already quoted. Measured by
 * stackhunt12 on an emulation of such a template for UNAUTHORIZED: "the 401 body is not valid JSON", no more.
 */
const QUOTED_TWICE = /:\s*""[^\s",}\]]/

/** A body that reads as a JSON object (a template's), not a page or a script that may hold :""x (review56: an HTML page's `{label:""+name}`). */
const JSON_LIKE = /^\s*\{\s*"/

/** Why a body that is not JSON came, where a gateway wrote it (Envoy's texts, a template's value quoted twice). */
export function gatewayTextBody(response: Pick<RecordedResponse, 'body'>): string | undefined {
  const envoy = envoyTextBody(response)
  if (envoy || !JSON_LIKE.test(response.body) || !QUOTED_TWICE.test(response.body)) return envoy
  return (
    'it holds a value quoted twice (""…""), as an AWS API Gateway gateway response template writes "$context.error.messageString" (or "$context.error.validationErrorString") in quotes: API Gateway gives those values already quoted; ' +
    'write them without quotes ("message": $context.error.messageString), or "$context.error.message" in quotes'
  )
}

/**
 * A gateway's own 404 for a path it routes nowhere, answered before any key is looked at: AWS API
 * Gateway's HTTP APIs ({"message":"Not Found"}, echo's body too), Kong ({"message":"no Route matched
 * with those values"}), Traefik ("404 page not found", Go's net/http's and gin's too), Envoy (an empty
 * 404, server: envoy). Measured against
 * emulations: a team that routes the categories alone fails the auth rules for GET /store/orders and
 * /pets/{petId}, which "GET answered 404, expected 401" did not say why.
 */
function gatewayNotFound(response: Pick<RecordedResponse, 'status' | 'body' | 'headers'>): string | undefined {
  const body = response.body.trim()
  if (body === '{"message":"Not Found"}') return "AWS API Gateway's HTTP APIs and echo's router"
  if (/"no Route matched with those values"/.test(body)) return 'Kong'
  if (body === '404 page not found') return "Traefik, Go's net/http and gin"
  if (body === '' && /^envoy$/i.test(response.headers?.server ?? '')) return 'Envoy'
  return undefined
}

/**
 * AWS API Gateway's REST API to a path or method it has no route for: 403 "Missing Authentication
 * Token", and, where the request carries an Authorization header that is no AWS signature (the
 * service's bearer key), its signature parser's "Invalid key=value pair (missing equal-sign) in
 * Authorization header" or "Authorization header requires 'Credential' parameter".
 */
export const AWS_NO_ROUTE = /Missing Authentication Token|Invalid key=value pair \(missing equal-sign\) in Authorization header|Authorization header requires 'Credential' parameter/

/**
 * AWS API Gateway's REST API, where a Lambda authorizer's policy does not allow the request: 403
 * {"Message": "User is not authorized to access this resource"} ("… with an explicit deny" for a Deny).
 * Measured by stackhunt12 against an emulation: a 403 to a POST with an empty bearer token was put
 * down to Spring Security's CSRF protection first, and a key refused on its creates alone to "a key
 * without write permission", where the authorizer's cached policy named the first route it saw.
 */
const AWS_AUTHORIZER_DENY = /User is not authorized to access this resource/

/**
 * Whether API Gateway wrote the 403: its body ({"Message": …} alone) or its x-amzn-ErrorType. The
 * sentence alone is no evidence: services write it themselves (a role check's 403, serverless-offline's
 * Boom.forbidden), and review56 found an Error record of the service's own put down to API Gateway.
 */
function awsAuthorizerDenied(response: Pick<RecordedResponse, 'status' | 'body'> & { headers?: Record<string, string> }): boolean {
  if (response.status !== 403 || !AWS_AUTHORIZER_DENY.test(response.body)) return false
  return /^\s*\{\s*"[Mm]essage"\s*:\s*"User is not authorized to access this resource(?: with an explicit deny)?"\s*\}\s*$/.test(response.body) || /AccessDeniedException/i.test(response.headers?.['x-amzn-errortype'] ?? '')
}

/** Why every create sent with the key was refused where its GETs were served, when AWS API Gateway's authorizer refused them; undefined otherwise. */
export function awsPolicyCached(response: Pick<RecordedResponse, 'status' | 'body' | 'headers'>): string | undefined {
  // an explicit deny is the policy's own Deny, for this key and route, not an Allow cached for another route (review56)
  if (!awsAuthorizerDenied(response) || /explicit deny/.test(response.body)) return undefined
  return (
    "it is AWS API Gateway's refusal where a Lambda authorizer's policy does not allow the request: an authorizer whose Allow names the method and path it was called for (Resource: event.methodArn) " +
    "has that policy cached by the token (300 s, the TTL's default), which then refuses the same key every other method and path; its policy names every route the key may use (arn:…/v1/*/*), or its cache is off (TTL 0)"
  )
}

/** Why a gateway's own answer came where §5.3 asks 401: Envoy's RBAC filter's 403, a gateway's 404 for a path it routes nowhere. */
export function gatewayStatus(response: Pick<RecordedResponse, 'status' | 'body' | 'headers'>, expected: number): string | undefined {
  const gateway = expected === 401 && response.status === 404 ? gatewayNotFound(response) : undefined
  if (gateway) {
    return (
      `it is the 404 that ${gateway} give a path they route nowhere, before any key is looked at; §1 names GET /pets/{petId} and GET /store/orders, and §5 asks 401 of every operation without a valid key: ` +
      "route them (a catch-all route, API Gateway's $default route) to what answers 401 without a key, or check the key for every path before routing"
    )
  }
  if (expected === 401 && awsAuthorizerDenied(response)) {
    return (
      `AWS API Gateway answers 403 itself where a Lambda authorizer's policy does not allow the request${/explicit deny/.test(response.body) ? " (an explicit deny: the policy's Effect is Deny)" : ''}; §5.3 asks 401 of a key that is missing or invalid: ` +
      "an authorizer fails with the error \"Unauthorized\" for a key it does not know (throw new Error('Unauthorized'), raise Exception('Unauthorized')), which API Gateway answers 401, and its gateway responses UNAUTHORIZED and ACCESS_DENIED can give the Error record"
    )
  }
  if (expected !== 401 || response.status !== 403 || !response.body.startsWith('RBAC: access denied')) return undefined
  return "Envoy's RBAC filter answers 403 to a request its policy does not allow (Istio: an AuthorizationPolicy requiring a request principal, where the token is missing); §5.3 asks 401 of a key that is missing or invalid: a local_reply_config mapper can answer it 401 with the Error record"
}

/**
 * What proto3's JSON mapping writes (protojson: grpc-gateway's default marshaler, Envoy's gRPC-JSON
 * transcoder, Connect's JSON): every int64 as a string, a string field holding "" (its default) left
 * out, and a gRPC error as google.rpc.Status, {code, message, details} with the gRPC code as a number.
 * Measured against an emulation of grpc-gateway's default marshaler in front of the reference server:
 * an id as text worded as Jackson's, PHP's and Node drivers', and 103 Error records "lacking status".
 */
export const PROTO_JSON_INT64 =
  "proto3's JSON mapping writes every int64 as a string (grpc-gateway's default marshaler, protojson; Envoy's gRPC-JSON transcoder; Connect's JSON): " +
  'grpc-gateway writes it as a number with runtime.WithMarshalerOption(runtime.MIMEWildcard, &runtime.JSONBuiltin{})'

export const PROTO_JSON_EMPTY = 'proto3\'s JSON mapping leaves out a string field holding "", its default (grpc-gateway, protojson), unless the field is declared optional or EmitUnpopulated is set'

/** Why an error body is google.rpc.Status, where a gRPC error was written as JSON. */
export function grpcStatusBody(keys: readonly string[], body: unknown): string | undefined {
  if (!keys.includes('details') || typeof (body as { code?: unknown }).code !== 'number') return undefined
  return (
    "it is google.rpc.Status, as grpc-gateway's default error handler and Envoy's gRPC-JSON transcoder write a gRPC error: code is the gRPC code as a number (3 INVALID_ARGUMENT, 16 UNAUTHENTICATED), and there is no status; " +
    'an error handler of the service\'s own (grpc-gateway: runtime.WithErrorHandler) writes the Error record, code as text and status the HTTP status'
  )
}
