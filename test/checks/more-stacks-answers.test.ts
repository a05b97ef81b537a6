/**
 * A failure names ASP.NET Core's default behind an empty answer from Kestrel and how it is changed
 * (lib/checks/more-stacks-answers.ts), as emulated from ASP.NET Core 8's documented defaults (no .NET on
 * this machine): endpoint routing's empty 404, JwtBearer's empty 401, a minimal API's empty 400.
 * Before, the 404 was named as Bun.serve's and the 401 as Spring Security's; the 400 had no words.
 * And the error bodies, empty strings, query parameters and 422 of Phoenix (ErrorJSON, Ecto),
 * PostgREST and Micronaut, from their documented defaults, which had no words.
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

test("an empty string made nil (Ecto's cast), the name taken from the query (Phoenix's conn.params), 422 (its FallbackController): Phoenix named beside the others", () => {
  expect(changedTextOrigin('', undefined, 0)).toMatch(/Ecto's cast\/4 makes it nil \(its empty_values; Phoenix: cast\(…, empty_values: \[\]\)\)/)
  expect(INVALID_BODIES.find((c) => c.key === 'missing-name-named-in-query')?.acceptedMeans).toMatch(/Phoenix's conn\.params .*Phoenix: conn\.body_params/)
  expect(failureOf(() => expectStatus(makeResponse({ status: 422, body: '{"errors":{"name":["can\'t be blank"]}}', method: 'POST' }), 400)).message).toMatch(/Phoenix's generated FallbackController/)
})
