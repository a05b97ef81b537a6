/**
 * The words for ASP.NET Core's defaults, told by Kestrel's Server header: endpoint routing's empty
 * 404 for a path no endpoint takes, JwtBearer's empty 401, and a minimal API's empty 400 to a body
 * it cannot bind. Emulated from the documented defaults of ASP.NET Core 8 (no .NET here).
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
