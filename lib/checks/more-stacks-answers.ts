/**
 * The words for ASP.NET Core's defaults, told by Kestrel's Server header: endpoint routing's empty
 * 404 for a path no endpoint takes, JwtBearer's empty 401, and a minimal API's empty 400 to a body
 * it cannot bind; and the error bodies of Phoenix (its ErrorJSON), PostgREST and Micronaut (its
 * JsonError). Emulated from their documented defaults (ASP.NET Core 8, Phoenix 1.7, PostgREST 12,
 * Micronaut 4), none of which could run here.
 */
import type { RecordedResponse } from '../http/exchange.ts'

const isKestrel = (response: RecordedResponse) => /^Kestrel\b/.test(response.headers.server ?? '')

/** Why a status came instead of the one expected, where ASP.NET Core answers it so. */
export function aspnetStatus(response: RecordedResponse, expected: number): string | undefined {
  if (!isKestrel(response) || response.status !== 404 || expected !== 401 || response.bodyBytes !== 0) return undefined
  return (
    "an empty 404 from Kestrel is ASP.NET Core's endpoint routing finding no endpoint for the path, where RequireAuthorization() and [Authorize] (an endpoint's metadata) never run; " +
    '§1 rule 2 and §5.1 require authentication for every operation the document names: a fallback policy challenges every request without an endpoint too ' +
    '(AddAuthorization(o => o.FallbackPolicy = new AuthorizationPolicyBuilder().RequireAuthenticatedUser().Build())), or the operation is routed'
  )
}

/** Why an answer came with no body (and so no media type), where ASP.NET Core answers it so. */
export function aspnetEmptyBody(response: RecordedResponse): string | undefined {
  if (!isKestrel(response) || response.bodyBytes !== 0) return undefined
  if (response.status === 401) {
    return (
      "an empty 401 from Kestrel is ASP.NET Core's JwtBearer handler (AddJwtBearer), whose challenge writes WWW-Authenticate: Bearer and no body; " +
      'JwtBearerEvents.OnChallenge writes the Error record (context.HandleResponse(), then context.Response.WriteAsJsonAsync(new { code, message, status = 401 }))'
    )
  }
  if (response.status === 400) {
    return (
      "an empty 400 from Kestrel is an ASP.NET Core minimal API refusing a body it could not bind (not JSON, a value of another type, no body) with no body of its own; " +
      'app.UseStatusCodePages(…) writes the Error record as JSON for an answer that has none, or the handler takes the HttpRequest and reads the body with JsonSerializer itself'
    )
  }
  return undefined
}

/** An Error record's shape as Phoenix, PostgREST or Micronaut writes its own errors, and the change. */
export function beamJvmErrorBody(keys: readonly string[], body: unknown): string | undefined {
  const errors = (body as { errors?: unknown } | undefined)?.errors
  if (keys.length === 1 && keys[0] === 'errors' && errors !== null && typeof errors === 'object' && !Array.isArray(errors)) {
    const detail = 'detail' in errors
    return (
      `it is ${detail ? "Phoenix's ErrorJSON ({\"errors\": {\"detail\": …}}, for Plug.Parsers' 400 to a body that is not JSON, and every error a controller raises)" : "a Phoenix changeset's errors as its generated ChangesetJSON renders them ({\"errors\": {field: [messages]}})"}; ` +
      'ErrorJSON.render/2 and the FallbackController answer {code, message, status} instead (render(conn, :error, …) with put_status)'
    )
  }
  // PostgREST: {code: "PGRST…" or an SQLSTATE, details, hint, message}, for its own errors and the database's
  if (['code', 'details', 'hint', 'message'].every((k) => keys.includes(k)) && !keys.includes('status')) {
    return (
      "it is PostgREST's error body (code, details, hint, message: PGRST… codes for its own errors, an SQLSTATE for the database's), which has no status; " +
      "a database function's RAISE sets its own (RAISE sqlstate 'PGRST' USING message = '{\"code\": …, \"message\": …}', detail = '{\"status\": 400}'), and a proxy in front adds status to PostgREST's own"
    )
  }
  if (keys.includes('_links') && keys.includes('message') && !keys.includes('code')) {
    return (
      "it is Micronaut's default JsonError (message, _links, _embedded.errors), from its HateoasErrorResponseProcessor; " +
      'an ErrorResponseProcessor of the service\'s own, or an ExceptionHandler per exception, answers {code, message, status}'
    )
  }
  return undefined
}
