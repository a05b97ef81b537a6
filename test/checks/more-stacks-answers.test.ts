/**
 * A failure names ASP.NET Core's default behind an empty answer from Kestrel and how it is changed
 * (lib/checks/more-stacks-answers.ts), as emulated from ASP.NET Core 8's documented defaults (no .NET on
 * this machine): endpoint routing's empty 404, JwtBearer's empty 401, a minimal API's empty 400.
 * Before, the 404 was named as Bun.serve's and the 401 as Spring Security's; the 400 had no words.
 * And the error bodies, empty strings, query parameters and 422 of Phoenix (ErrorJSON, Ecto),
 * PostgREST and Micronaut, from their documented defaults, which had no words. And, measured on
 * Debian 12's Jetty 9.4.57 and cpp-httplib 0.11.4 with nlohmann::json 3.11.2 (docs/adoption.md),
 * Jetty's ErrorHandler pages and 404, and cpp-httplib's empty 404 (named as Bun's before) and its
 * 500 with EXCEPTION_WHAT, which had no words.
 */
import { expect, test } from 'vitest'
import { expectErrorRecord } from '../../lib/checks/error-record.ts'
import { changedTextOrigin } from '../../lib/checks/known-answers.ts'
import { expectJsonContentType, expectStatus, jsonBodyOf } from '../../lib/checks/response.ts'
import { INVALID_BODIES } from '../../suites/cases/invalid-bodies.ts'
import { makeResponse, verdictOf } from './make-response.ts'

const failureOf = (check: () => unknown) => {
  const verdict = verdictOf(check)
  if (!('code' in verdict)) throw new Error(`expected a failure, got ${JSON.stringify(verdict)}`)
  return verdict
}
const kestrel = (status: number, headers: Record<string, string> = {}) => makeResponse({ status, headers: { server: 'Kestrel', ...headers }, body: '', path: status === 404 ? '/store/orders' : '/categories' })

test("an empty 404 from Kestrel where §5 asks 401: endpoint routing without a fallback policy, not Bun's", () => {
  const message = failureOf(() => expectStatus(kestrel(404), 401)).message
  expect(message).toMatch(/expected 401: an empty 404 from Kestrel is ASP\.NET Core's endpoint routing .*FallbackPolicy/)
  expect(message).not.toMatch(/Bun/)
  expect(failureOf(() => expectStatus(makeResponse({ status: 404, headers: {}, body: '' }), 401)).message).toMatch(/Bun\.serve/)
})

test("an empty 401 from Kestrel: JwtBearer's challenge, by the body check and the media type check alike, not Spring's", () => {
  const result = kestrel(401, { 'www-authenticate': 'Bearer' })
  for (const message of [failureOf(() => jsonBodyOf(result)).message, failureOf(() => expectJsonContentType(result)).message]) {
    expect(message).toMatch(/an empty 401 from Kestrel is ASP\.NET Core's JwtBearer handler .*OnChallenge/)
    expect(message).not.toMatch(/Spring/)
  }
})

test('an empty 400 from Kestrel: a minimal API that could not bind the body; another server\'s empty 400 is not', () => {
  expect(failureOf(() => jsonBodyOf(kestrel(400))).message).toMatch(/^the 400 body is not valid JSON; an empty 400 from Kestrel is an ASP\.NET Core minimal API .*UseStatusCodePages/)
  expect(failureOf(() => jsonBodyOf(makeResponse({ status: 400, headers: {}, body: '' }))).message).not.toMatch(/Kestrel/)
})

test("Phoenix's ErrorJSON and changeset errors, PostgREST's error body and Micronaut's JsonError are named, with their changes", () => {
  const record = (body: string) => failureOf(() => expectErrorRecord(makeResponse({ status: 400, body, method: 'POST' }))).message
  expect(record('{"errors":{"detail":"Bad Request"}}')).toMatch(/lacks required property "code"; it is Phoenix's ErrorJSON .*ErrorJSON\.render\/2 and the FallbackController/)
  expect(record('{"errors":{"name":["can\'t be blank"]}}')).toMatch(/it is a Phoenix changeset's errors as its generated ChangesetJSON renders them/)
  expect(record('{"code":"PGRST102","details":null,"hint":null,"message":"Empty or invalid json"}')).toMatch(/lacks required property "status"; it is PostgREST's error body .*RAISE sqlstate 'PGRST'/)
  expect(record('{"message":"Bad Request","_links":{"self":{"href":"/v1/categories","templated":false}},"_embedded":{"errors":[{"message":"Invalid JSON"}]}}')).toMatch(/it is Micronaut's default JsonError .*ErrorResponseProcessor/)
  // a body of errors as a list (JSON:API) is none of these
  expect(record('{"errors":[{"detail":"Bad Request"}]}')).not.toMatch(/Phoenix/)
})

// measured by stackhunt12 on an emulation of Quarkus' RESTEasy Reactive with quarkus-hibernate-validator: no words before
test("Quarkus' ViolationReport is named, with its change; a problem detail with violations beside code is not", () => {
  const record = (body: string) => failureOf(() => expectErrorRecord(makeResponse({ status: 400, body, method: 'POST' }))).message
  expect(record('{"title":"Constraint Violation","status":400,"violations":[{"field":"create.body.name","message":"must not be blank"}]}')).toMatch(
    /lacks required property "code"; it is Quarkus' ViolationReport \(title "Constraint Violation", status, violations: \[\{field, message\}\]\).*ExceptionMapper<ConstraintViolationException>/,
  )
  expect(record('{"title":"Bad Request","status":400,"violations":"none"}')).not.toMatch(/Quarkus/)
  // review56: Zalando's constraint-violation problem (problem-spring-web: a Spring service), which Quarkus' copies, has a type
  const zalando = record('{"type":"https://zalando.github.io/problem/constraint-violation","title":"Constraint Violation","status":400,"violations":[{"field":"name","message":"must not be blank"}]}')
  expect(zalando).not.toMatch(/Quarkus/)
  expect(zalando).toMatch(/it is an RFC 9457 problem detail/)
})

test("an empty string made nil (Ecto's cast), the name taken from the query (Phoenix's conn.params), 422 (its FallbackController): Phoenix named beside the others", () => {
  expect(changedTextOrigin('', undefined, 0)).toMatch(/Ecto's cast\/4 makes it nil \(its empty_values; Phoenix: cast\(…, empty_values: \[\]\)\)/)
  expect(INVALID_BODIES.find((c) => c.key === 'missing-name-named-in-query')?.acceptedMeans).toMatch(/Phoenix's conn\.params .*Phoenix: conn\.body_params/)
  expect(failureOf(() => expectStatus(makeResponse({ status: 422, body: '{"errors":{"name":["can\'t be blank"]}}', method: 'POST' }), 400)).message).toMatch(/Phoenix's generated FallbackController/)
})

const JETTY_HTML =
  '<html>\n<head>\n<meta http-equiv="Content-Type" content="text/html;charset=ISO-8859-1"/>\n<title>Error 401 missing or invalid API key</title>\n</head>\n' +
  '<body><h2>HTTP ERROR 401 missing or invalid API key</h2>\n<hr/><a href="https://jetty.org/">Powered by Jetty:// 9.4.57.v20241219</a><hr/>\n\n</body>\n</html>\n'

test("Jetty's ErrorHandler pages for response.sendError(): its JSON (status as text) and its HTML page, by the body, text and media type checks", () => {
  const jetty = { server: 'Jetty(9.4.57.v20241219)' }
  const json = makeResponse({ status: 401, headers: { ...jetty, 'content-type': 'application/json' }, body: '{\n"servlet":"Svc$Categories-7ba18f1b",\n"message":"missing or invalid API key",\n"url":"/v1/categories",\n"status":"401"\n}' })
  expect(failureOf(() => expectErrorRecord(json)).message).toMatch(/lacks required property "code"; it is Jetty's ErrorHandler JSON: a servlet that answers with response\.sendError\(status, message\) .*setStatus/)
  // the same keys with status as a number are not Jetty's
  expect(failureOf(() => expectErrorRecord(makeResponse({ status: 401, body: '{"url":"/v1/categories","message":"no","status":401}' }))).message).not.toMatch(/Jetty/)
  const html = makeResponse({ status: 401, headers: { ...jetty, 'content-type': 'text/html;charset=iso-8859-1' }, body: JETTY_HTML })
  for (const message of [failureOf(() => jsonBodyOf(html)).message, failureOf(() => expectJsonContentType(html)).message]) expect(message).toMatch(/; it is Jetty's HTML error page: .*sendError/)
})

test("a 404 from Jetty where §5 asks 401: a key filter mapped to the servlet's path alone", () => {
  const page = makeResponse({ status: 404, headers: { server: 'Jetty(9.4.57.v20241219)', 'content-type': 'application/json' }, body: '{"servlet":"org.eclipse.jetty.servlet.ServletHandler$Default404Servlet-3d36e4cd","message":"Not Found","url":"/v1/store/orders","status":"404"}', path: '/store/orders' })
  expect(failureOf(() => expectStatus(page, 401)).message).toMatch(/expected 401: a 404 from Jetty .*Default404Servlet.*map the key filter to \/\*/)
})

test("cpp-httplib's empty 404 (its Keep-Alive header tells it from Bun's) and its 500 with EXCEPTION_WHAT, nlohmann::json's exceptions named", () => {
  const keepAlive = { 'content-length': '0', 'keep-alive': 'timeout=5, max=5' }
  const notFound = failureOf(() => expectStatus(makeResponse({ status: 404, headers: keepAlive, body: '', path: '/store/orders' }), 401)).message
  expect(notFound).toMatch(/expected 401: an empty 404 without a Content-Type, with Keep-Alive: timeout=5, max=5, is cpp-httplib .*set_pre_routing_handler/)
  expect(notFound).not.toMatch(/Bun/)
  const fault = (what: string) => failureOf(() => expectStatus(makeResponse({ status: 500, headers: { ...keepAlive, exception_what: what }, body: '', method: 'POST' }), 400)).message
  expect(fault('[json.exception.type_error.302] type must be string, but is number')).toMatch(/an empty 500 with an EXCEPTION_WHAT header is cpp-httplib's answer .*nlohmann::json's: .*type_error\.302.*set_exception_handler/)
  expect(fault('std::bad_alloc')).not.toMatch(/nlohmann/)
  expect(failureOf(() => expectStatus(makeResponse({ status: 500, headers: keepAlive, body: '', method: 'POST' }), 400)).message).not.toMatch(/cpp-httplib/)
})

// measured by stackhunt12 on an emulation of a minimal API's 400 to a body it could not read (AddProblemDetails): Spring's change alone was named
test("an ASP.NET Core problem detail (its traceId, its type link) names ASP.NET Core's change; Spring's keeps Spring's", () => {
  const record = (body: object) => failureOf(() => expectErrorRecord(makeResponse({ status: 400, body, method: 'POST' }))).message
  const aspnet = { type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1', title: 'Bad Request', status: 400, detail: 'Failed to read parameter "NewCategory body" from the request body as JSON.', traceId: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00' }
  expect(record(aspnet)).toMatch(/it is an RFC 9457 problem detail .*beside status \(ASP\.NET Core, whose traceId and type link it wrote: AddProblemDetails\(o => o\.CustomizeProblemDetails/)
  expect(record(aspnet)).not.toMatch(/ProblemDetail\.setProperty/)
  const { traceId: _, ...withoutTraceId } = aspnet
  expect(record(withoutTraceId)).toMatch(/ASP\.NET Core, whose traceId and type link/)
  expect(record({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'Invalid request content.', instance: '/v1/categories' })).toMatch(/\(Spring: ProblemDetail\.setProperty\("code"/)
  // review56: Spring's problem detail with a traceId the service set (Micrometer's, setProperty("traceId", …)) stays Spring's
  const springTraced = record({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'Invalid request content.', traceId: '4bf92f3577b34da6a3ce929d0e0e4736' })
  expect(springTraced).toMatch(/\(Spring: ProblemDetail\.setProperty\("code"/)
  expect(springTraced).not.toMatch(/ASP\.NET Core, whose traceId/)
  const { type: __, ...withoutType } = aspnet
  expect(record(withoutType)).toMatch(/ASP\.NET Core, whose traceId/)
})


// measured by stackhunt12 on an emulation of AddProblemDetails(): the content type's words named Spring's negotiation and change alone
test("application/problem+json on ASP.NET Core's problem detail names ASP.NET Core and Results.Json, not Spring's negotiation", () => {
  const body = { type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1', title: 'Bad Request', status: 400, detail: 'Failed to read parameter "NewCategory body" from the request body as JSON.', traceId: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00' }
  const message = failureOf(() => expectJsonContentType(makeResponse({ status: 400, method: 'POST', headers: { 'content-type': 'application/problem+json' }, body }))).message
  expect(message).toMatch(/application\/problem\+json is the media type ASP\.NET Core gives the problem details it writes .*Results\.Json\(error, statusCode: …\)/)
  // review56: DefaultProblemDetailsWriter writes only for an Accept that takes JSON; "whatever the Accept" was more than it does
  expect(message).toMatch(/to an Accept of application\/json too \(its DefaultProblemDetailsWriter writes for any Accept that takes JSON/)
  expect(message).not.toMatch(/Spring/)
  const spring = failureOf(() => expectJsonContentType(makeResponse({ status: 400, method: 'POST', headers: { 'content-type': 'application/problem+json' }, body: { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'Invalid request content.' } }))).message
  expect(spring).toMatch(/Spring \(ProblemDetail, ErrorResponse\)/)
})
