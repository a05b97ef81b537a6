/**
 * A server fault to a create whose bytes are not UTF-8 names the stack that took them and could not
 * write the record back (lib/checks/undecodable-body-answers.ts): measured on FastAPI 0.92 (a
 * surrogate written as UTF-8 bytes, Starlette's plain 500) and Grape 1.6.2 on Puma (Puma's page
 * naming JSON::GeneratorError). The code stays SERVER_ERROR; other faults get no such words.
 */
import { expect, test } from 'vitest'
import { expectStatus } from '../../lib/checks/response.ts'
import { makeResponse, verdictOf } from './make-response.ts'

const failureOf = (check: () => unknown) => {
  const verdict = verdictOf(check)
  if (!('code' in verdict)) throw new Error(`expected a failure, got ${JSON.stringify(verdict)}`)
  return verdict
}

/** A 500 to a POST whose body went out as these bytes. */
function faultTo(bytes: Buffer, body = 'Internal Server Error', headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' }) {
  const result = makeResponse({ status: 500, method: 'POST', headers, body })
  result.exchange.request.bodyBase64 = bytes.toString('base64')
  return result
}

const json = (middle: number[]) => Buffer.concat([Buffer.from('{"name": "n", "description": "'), Buffer.from(middle), Buffer.from('"}')])

test("a surrogate written as UTF-8 bytes answered 500: Python's surrogatepass and an encoder that raises", () => {
  const failure = failureOf(() => expectStatus(faultTo(json([0xed, 0xa0, 0x80])), 400))
  expect(failure.code).toBe('SERVER_ERROR')
  expect(failure.message).toMatch(/expected 400: a server fault to a surrogate written as UTF-8 bytes: Python's json\.loads decodes bytes with 'surrogatepass' \(Starlette's Request\.json\(\), so FastAPI's body/)
})

test("bytes that are not UTF-8 answered 500, and Puma's page naming JSON::GeneratorError: Ruby's parser and to_json", () => {
  const puma = faultTo(json([0xed, 0xa0, 0x80]), 'Puma caught this error: partial character in source, but hit end (JSON::GeneratorError)', {})
  expect(failureOf(() => expectStatus(puma, 400)).message).toMatch(/expected 400: a server fault to bytes that are not UTF-8: .*Grape's JSON parser.*JSON::GeneratorError/)
  expect(failureOf(() => expectStatus(faultTo(json([0xff, 0xfe, 0xc3, 0x28])), 400)).message).toMatch(/a server fault to bytes that are not UTF-8/)
})

test('a fault to a body that is UTF-8, a 503, or a status that is not a fault gets no such words', () => {
  const utf8 = makeResponse({ status: 500, method: 'POST', body: 'Internal Server Error' })
  utf8.exchange.request.body = '{"name": "n"}'
  expect(failureOf(() => expectStatus(utf8, 400)).message).not.toMatch(/UTF-8/)
  const refusedOtherwise = faultTo(json([0xff]))
  refusedOtherwise.exchange.response!.status = 422
  expect(failureOf(() => expectStatus(refusedOtherwise, 400)).message).not.toMatch(/UTF-8 bytes|not UTF-8:/)
})

// measured: Flask 3.1 with pydantic 2.13 and orjson 3.8, its error written from e.errors(), whose json_invalid input is the body's bytes
const WERKZEUG_500 = '<!doctype html>\n<html lang=en>\n<title>500 Internal Server Error</title>\n<h1>Internal Server Error</h1>'

test("a fault to a body that is not JSON names pydantic's errors() holding the body's bytes, beside the parsers that take bytes that are not UTF-8", () => {
  const werkzeug = { 'content-type': 'text/html; charset=utf-8' }
  const truncated = makeResponse({ status: 500, method: 'POST', headers: werkzeug, body: WERKZEUG_500 })
  truncated.exchange.request.body = '{"name": "n", "description": '
  expect(failureOf(() => expectStatus(truncated, 400)).message).toMatch(
    /expected 400: a server fault to a body that is not JSON: one cause measured is that the refusal itself could not be written: pydantic 2's model_validate_json .*errors\(include_input=False\)/,
  )
  // bytes that are not UTF-8: the parsers that take them, or pydantic's refusal that could not be written
  expect(failureOf(() => expectStatus(faultTo(json([0xff]), WERKZEUG_500, werkzeug), 400)).message).toMatch(/a server fault to bytes that are not UTF-8: .*; or the refusal itself could not be written: pydantic 2's/)
  // Puma's page says which: Ruby's alone
  expect(failureOf(() => expectStatus(faultTo(json([0xff]), 'Puma caught this error: source sequence is illegal/malformed utf-8 (JSON::GeneratorError)', {}), 400)).message).not.toMatch(/pydantic/)
})

test("Puma's own 500 to an exception a Rack app let through names it, in development and production; its JSON::GeneratorError keeps its own words", () => {
  // measured: Puma 5.6, a Rack app indexing what JSON.parse gave for the body null
  for (const body of ["Puma caught this error: undefined method `[]' for nil:NilClass (NoMethodError)\n/tmp/app.rb:141:in `create'", 'An unhandled lowlevel error occurred. The application logs may have details.\n']) {
    const fault = makeResponse({ status: 500, method: 'POST', headers: {}, body })
    fault.exchange.request.body = 'null'
    expect(failureOf(() => expectStatus(fault, 400)).message).toMatch(/expected 400: the body is Puma's own answer to an exception the Rack app let through .*data\.is_a\?\(Hash\).*lowlevel_error_handler/)
  }
  const generator = faultTo(json([0xff]), 'Puma caught this error: source sequence is illegal/malformed utf-8 (JSON::GeneratorError)', {})
  expect(failureOf(() => expectStatus(generator, 400)).message).not.toMatch(/Puma's own answer/)
})

test("pydantic's words only where the answer is a Python service's: a Go, Spring or Express fault to truncated JSON or to bytes that are not UTF-8 gets none", () => {
  const others = [
    ['Internal Server Error\n', { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' }], // Go's http.Error
    ['{"timestamp":"2026-11-27T10:00:00.000+00:00","status":500,"error":"Internal Server Error","path":"/v1/categories"}', { 'content-type': 'application/json' }], // Spring Boot
    ['<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Internal Server Error</pre>\n</body>\n</html>\n', { 'content-type': 'text/html; charset=utf-8' }], // Express
  ] as const
  for (const [body, headers] of others) {
    const truncated = makeResponse({ status: 500, method: 'POST', headers: { ...headers }, body })
    truncated.exchange.request.body = '{"name": "n", "description": '
    expect(failureOf(() => expectStatus(truncated, 400)).message, body).not.toMatch(/pydantic/)
    expect(failureOf(() => expectStatus(faultTo(json([0xff]), body, { ...headers }), 400)).message, body).not.toMatch(/pydantic/)
  }
  // Starlette's bare answer is a Python service's
  const starlette = makeResponse({ status: 500, method: 'POST', headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Internal Server Error' })
  starlette.exchange.request.body = '{"name": "n", "description": '
  expect(failureOf(() => expectStatus(starlette, 400)).message).toMatch(/pydantic 2's model_validate_json/)
})
