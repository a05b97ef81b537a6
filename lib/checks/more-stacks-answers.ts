/**
 * The words for ASP.NET Core's defaults, told by Kestrel's Server header: endpoint routing's empty
 * 404 for a path no endpoint takes, JwtBearer's empty 401, and a minimal API's empty 400 to a body
 * it cannot bind; and the error bodies of Phoenix (its ErrorJSON), PostgREST, Micronaut (its
 * JsonError) and Quarkus (its ViolationReport). Emulated from their documented defaults (ASP.NET Core 8, Phoenix 1.7, PostgREST 12,
 * Micronaut 4), none of which could run here. And, measured on Debian 12's packages, a servlet on
 * Jetty 9.4.57 (its ErrorHandler's JSON and HTML pages for response.sendError(), its 404 for a path
 * no servlet takes) and a C++ service on cpp-httplib 0.11.4 with nlohmann::json 3.11.2 (its empty
 * 404, its 500 with EXCEPTION_WHAT for an exception a handler let through).
 */
import type { RecordedRequest, RecordedResponse } from '../http/exchange.ts'

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

/**
 * The change for a problem detail that ASP.NET Core wrote (its traceId, its type links to RFC 9110's
 * or RFC 7231's section of the status), where the words named Spring's alone (measured by
 * stackhunt12 on an emulation of a minimal API's 400 to a body it could not read).
 */
export function aspnetProblem(keys: readonly string[], body: unknown): string | undefined {
  const type = (body as { type?: unknown }).type
  // a traceId beside a type of its own (Spring's about:blank with a traceId set by the service: review56) is not ASP.NET Core's, which writes the RFC's link
  const link = typeof type === 'string' && /^https:\/\/tools\.ietf\.org\/html\/rfc(?:9110|7231)#section-/.test(type)
  if (!link && !(keys.includes('traceId') && !keys.includes('type'))) return undefined
  return (
    "ASP.NET Core, whose traceId and type link it wrote: AddProblemDetails(o => o.CustomizeProblemDetails = c => { c.ProblemDetails.Extensions[\"code\"] = …; c.ProblemDetails.Extensions[\"message\"] = c.ProblemDetails.Detail; }), " +
    'or an exception handler of the service\'s own (UseExceptionHandler, an IExceptionHandler) writing {code, message, status} with Results.Json'
  )
}

/** Whether a body is a problem detail ASP.NET Core wrote (aspnetProblem). */
function aspnetProblemBody(response: RecordedResponse): boolean {
  let body: unknown
  try {
    body = JSON.parse(response.body)
  } catch {
    return false
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false
  return aspnetProblem(Object.keys(body), body) !== undefined
}

/** An Error record's shape as Phoenix, PostgREST, Micronaut or Quarkus writes its own errors, and the change. */
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
  // Quarkus (RESTEasy Reactive with quarkus-hibernate-validator): its mapper's ViolationReport for a Bean Validation failure (measured by stackhunt12 on an emulation: no words);
  // it copies Zalando's constraint-violation problem but writes no type, which Zalando's (problem-spring-web, a Spring service's) has: that one is a problem detail (review56)
  if (keys.includes('title') && keys.includes('violations') && Array.isArray((body as { violations?: unknown }).violations) && !keys.includes('code') && !keys.includes('type')) {
    return (
      "it is Quarkus' ViolationReport (title \"Constraint Violation\", status, violations: [{field, message}]), which its built-in exception mapper writes where Bean Validation refuses a body (@Valid with @NotBlank, @Size); " +
      'an ExceptionMapper<ConstraintViolationException> of the service\'s own (or a @ServerExceptionMapper method) answers {code, message, status}'
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

/** Jetty's ErrorHandler page (response.sendError()), HTML unless the request's Accept ranks JSON first. */
const isJettyPage = (response: RecordedResponse) => response.body.includes('Powered by Jetty://')
const JETTY_SEND_ERROR =
  'a servlet that answers with response.sendError(status, message) has Jetty\'s ErrorHandler write the body: HTML (text/html;charset=iso-8859-1, "HTTP ERROR 401 …", Powered by Jetty://) to an Accept of */* or text/html, ' +
  'and {"servlet", "message", "url", "status": "401"} (the status as text) to one that ranks application/json first; ' +
  'write the Error record instead (response.setStatus(status), setContentType("application/json"), the body from Jackson; an ErrorHandler of the server\'s own, server.setErrorHandler(…), for the answers Jetty gives itself)'

/** Why a status came instead of the one expected, where Jetty or cpp-httplib answers it so. */
export function servletCppStatus(response: RecordedResponse, expected: number): string | undefined {
  if (response.status === 404 && expected === 401 && (/^Jetty\(/.test(response.headers.server ?? '') || response.body.includes('Default404Servlet') || isJettyPage(response))) {
    return (
      "a 404 from Jetty to a request without a valid key is its ServletHandler answering a path that no servlet mapping takes (Default404Servlet), where a filter mapped to the servlet's path alone " +
      '(addFilter(KeyFilter.class, "/v1/categories", …), a <filter-mapping> by <servlet-name>) never runs; §1 rule 2 and §5.1 require authentication for every operation the document names: map the key filter to /*'
    )
  }
  // cpp-httplib writes Keep-Alive: timeout=…, max=… on every answer it keeps the connection open after
  const cppHttplib = /^timeout=\d+, max=\d+$/.test(response.headers['keep-alive'] ?? '')
  if (response.status === 404 && expected === 401 && cppHttplib && response.bodyBytes === 0 && response.headers['content-type'] === undefined) {
    return (
      "an empty 404 without a Content-Type, with Keep-Alive: timeout=5, max=5, is cpp-httplib answering a path no handler takes (a key checked in each handler); " +
      '§1 rule 2 and §5.1 require authentication for every operation the document names: check the key in set_pre_routing_handler, which runs for every path and answers 401 with the Error record (HandlerResponse::Handled)'
    )
  }
  const what = response.headers.exception_what
  if (response.status === 500 && what !== undefined) {
    const nlohmann = what.startsWith('[json.exception.')
      ? " (here nlohmann::json's: json::parse throws parse_error for a body that is not JSON unless given allow_exceptions = false, and get<std::string>() and value(\"name\", \"\") throw type_error.302 for a value of another type)"
      : ''
    return (
      `an empty 500 with an EXCEPTION_WHAT header is cpp-httplib's answer to an exception a handler let through, the header holding its what()${nlohmann}; ` +
      'parse with json::parse(req.body, nullptr, false) and answer 400 when is_discarded(), check is_string() before reading a field, and set_exception_handler(…) to answer the Error record for the rest'
    )
  }
  return undefined
}

/** Why an answer is an HTML page (not JSON, not declared application/json), where Jetty writes it. */
export function jettyPage(response: RecordedResponse): string | undefined {
  return isJettyPage(response) ? `it is Jetty's HTML error page: ${JETTY_SEND_ERROR}` : undefined
}

/** Jetty's ErrorHandler JSON (servlet, message, url, and status as text): not the Error record. */
export function jettyErrorBody(keys: readonly string[], body: unknown): string | undefined {
  if (!['url', 'message', 'status'].every((k) => keys.includes(k)) || typeof (body as { status?: unknown }).status !== 'string') return undefined
  return `it is Jetty's ErrorHandler JSON: ${JETTY_SEND_ERROR}`
}

/**
 * Servant's own answers (measured: servant-server 0.19.1 on warp 3.3.21, aeson 2.0, Debian 12), told
 * by Warp's Server header and no Content-Type: its ServerError values carry an empty body and no
 * headers, a body its ReqBody cannot decode is answered 400 with aeson's message as text, and a
 * path its API type has no route for an empty 404.
 */
const SERVANT_ANSWERS =
  "an answer of Servant's own, without a Content-Type (Warp's Server header): its ServerError values (err401, err400 …) have an empty body and no headers, a body its ReqBody cannot decode is answered 400 with aeson's message as text (Error in $: …), " +
  "and a path its API type has no route for gets an empty 404; §4 and §7 ask the Error record as JSON: errBody = encode (the Error record) with errHeaders = [(hContentType, \"application/json\")], " +
  'and ErrorFormatters (bodyParserErrorFormatter, notFoundErrorFormatter) in the Context given to serveWithContext'

const isServant = (response: RecordedResponse) => /^Warp\//.test(response.headers.server ?? '') && response.headers['content-type'] === undefined

/** Why Servant answered without a Content-Type, or with no body, or with text. */
export const servantPage = (response: RecordedResponse): string | undefined => (isServant(response) && [400, 401, 404].includes(response.status) ? SERVANT_ANSWERS : undefined)

/** Why Servant answered 404 where 401 was expected: no route, so no handler's key check. */
export function servantStatus(response: RecordedResponse, expected: number): string | undefined {
  if (expected !== 401 || response.status !== 404 || response.bodyBytes !== 0 || !isServant(response)) return undefined
  return (
    "an empty 404 from Warp is Servant's answer to a path its API type has no route for, given before any handler runs, so a key read with Header \"Authorization\" in each handler is never checked there; " +
    '§1 rule 2 and §5.1 require authentication for every operation the document names: a WAI Middleware around the application checks the key for every path, or the operation is routed'
  )
}

/**
 * Why an answer is declared application/problem+json. Spring negotiates a ProblemDetail's media
 * type by the request's Accept: application/problem+json first where it allows it (*\/*, none, a
 * browser's), application/json only where the request names it; so a service tried with an Accept
 * of application/json alone answers the others (curl, fetch, a browser) with the other media type.
 */
export function problemJsonWords(request?: RecordedRequest, response?: RecordedResponse): string {
  if (response && aspnetProblemBody(response)) {
    // measured by stackhunt12 on an emulation of AddProblemDetails(): Spring's negotiation and change were named alone; not "whatever the Accept": its writer declines an Accept without JSON (review56)
    return (
      "application/problem+json is the media type ASP.NET Core gives the problem details it writes (AddProblemDetails, a minimal API's 400 to a body it could not read), to an Accept of application/json too (its DefaultProblemDetailsWriter writes for any Accept that takes JSON, none or */* among them, always as application/problem+json); " +
      '§4 names application/json for every payload, so the error handler writes the Error record with Results.Json(error, statusCode: …), whose media type is application/json'
    )
  }
  const accept = request?.headers.accept
  const asked = accept === undefined || accept === '' ? 'with no Accept' : /application\/json/i.test(accept) ? undefined : `with Accept: ${accept.length > 40 ? `${accept.slice(0, 40)}…` : accept}`
  // review52: one answer does not show whether the service negotiates it: said of both, Spring's negotiation and a type given to every Accept
  const negotiated = asked
    ? `; asked ${asked}: where errors asked with Accept: application/json come as application/json, the service negotiates as Spring does a ProblemDetail (application/problem+json wherever the Accept allows it, ` +
      'application/json only to a request that names it), so a client that sends */* (curl, fetch, a browser) gets it; where they come as application/problem+json too, it is given to every Accept (ASP.NET Core\'s ProblemDetails, a produces of problem+json)'
    : ''
  return (
    `application/problem+json is the media type Spring (ProblemDetail, ErrorResponse) and ASP.NET Core give a problem detail${negotiated}; §4 names application/json for every payload, ` +
    'so the error handler sets it (Spring: ResponseEntity.status(…).contentType(MediaType.APPLICATION_JSON))'
  )
}
