/**
 * A failure names the Bun or Deno default behind a well-known wrong answer and how it is changed
 * (lib/checks/runtime-answers.ts, called by known-answers.ts; the Request.json() words of
 * suites/cases/malformed-json.ts), as measured against services written on Bun 1.4.5 (Bun.serve and its routes,
 * Elysia 1.4.30 with @elysiajs/bearer 1.4.4, Hono 4.13.19) and Deno 2.9.6 (Deno.serve, Oak 14.1.0,
 * Hono 4.13.19): the answers below are the bytes those services gave with their defaults left in.
 * The code and the verdict stay those of the check.
 */
import { describe, expect, test } from 'vitest'
import { expectErrorRecord } from '../../lib/checks/error-record.ts'
import { expectJsonContentType, expectStatus } from '../../lib/checks/response.ts'
import { MALFORMED_BODIES } from '../../suites/cases/malformed-json.ts'
import { makeResponse, verdictOf } from './make-response.ts'

const failureOf = (check: () => unknown) => {
  const verdict = verdictOf(check)
  if (!('code' in verdict)) throw new Error(`expected a failure, got ${JSON.stringify(verdict)}`)
  return verdict
}

/** Elysia 1.4.30's answer to {"description": …} under t.Object({ name: t.String(), … }), cut to its keys' shape. */
const ELYSIA_422 = {
  type: 'validation',
  on: 'body',
  property: '/name',
  message: 'Expected string',
  summary: "Expected property 'name' to be string but found: undefined",
  expected: { name: '' },
  found: { description: 'cf-x-noname' },
  errors: [],
}

describe("Elysia's defaults", () => {
  test('422 with its validation body, in development and with NODE_ENV=production', () => {
    for (const body of [ELYSIA_422, { type: 'validation', on: 'body', found: { name: 5 } }]) {
      const failure = failureOf(() => expectStatus(makeResponse({ status: 422, method: 'POST', body }), 400))
      expect(failure.code).toBe('UNEXPECTED_STATUS')
      expect(failure.message).toMatch(/^POST answered 422, expected 400: it is Elysia's answer to a body its schema \(t\.Object, TypeBox\) refuses: .*onError/)
      expect(failure.message).not.toMatch(/Laravel/)
    }
    // a 422 of any other body keeps the words of the stacks that answer 422
    expect(failureOf(() => expectStatus(makeResponse({ status: 422, method: 'POST', body: { code: 'x', message: 'y', status: 422 } }), 400)).message).toMatch(/Laravel/)
  })

  test("its validation body handed on with status 400 by onError (set.status = 400): not the Error record, named", () => {
    const failure = failureOf(() => expectErrorRecord(makeResponse({ status: 400, method: 'POST', body: { type: 'validation', on: 'body', errors: [] } })))
    expect(failure.code).toBe('SCHEMA_MISMATCH')
    expect(failure.message).toMatch(/body lacks required property "code"; it is Elysia's validation body .*an onError hook answers the Error record in its place/)
    // a body of type and on of another kind is not Elysia's
    expect(failureOf(() => expectErrorRecord(makeResponse({ status: 400, body: { type: 'about:blank', on: 'x' } }))).message).not.toMatch(/Elysia/)
  })

  test('its ParseError: 400 "Bad Request" as text/plain;charset=utf-8, named by the body and the content type checks', () => {
    const response = makeResponse({ status: 400, method: 'POST', headers: { 'content-type': 'text/plain;charset=utf-8' }, body: 'Bad Request' })
    const notJson = failureOf(() => expectErrorRecord(response))
    expect(notJson.code).toBe('NOT_JSON')
    expect(notJson.message).toMatch(/^the 400 body is not valid JSON; Bad Request as text is Elysia's ParseError.*\.onError/)
    const type = failureOf(() => expectJsonContentType(response))
    expect(type.code).toBe('WRONG_CONTENT_TYPE')
    expect(type.message).toMatch(/text\/plain;charset=utf-8 is what Bun\.serve declares for a string body .*Elysia answers so for its own errors/)
  })

  test('NOT_FOUND for an operation it has no route for, where 401 is asked', () => {
    const response = makeResponse({ status: 404, path: '/store/orders', headers: { 'content-type': 'text/plain;charset=utf-8' }, body: 'NOT_FOUND' })
    expect(failureOf(() => expectStatus(response, 401)).message).toMatch(/^GET answered 404, expected 401: NOT_FOUND as text is Elysia's answer .*onRequest, which runs before routing/)
  })

  test('@elysiajs/bearer lets "Bearer:<key>" in (slice(7)); a 200 to any other header gets no such words', () => {
    const response = makeResponse({ status: 200, body: [] })
    response.exchange.request.headers.authorization = 'Bearer:$CONFORM_API_KEY'
    expect(failureOf(() => expectStatus(response, 401)).message).toMatch(/^GET answered 200, expected 401: .*@elysiajs\/bearer reads a header that starts with Bearer as authorization\.slice\(7\)/)
    // Go Fiber's keyauth (AuthScheme "Bearer") reads it alike, as Fiber v2 writes keyFromHeader
    expect(failureOf(() => expectStatus(response, 401)).message).toMatch(/Go Fiber's keyauth with AuthScheme "Bearer"/)
    response.exchange.request.headers.authorization = 'Bearer $CONFORM_API_KEY-not-a-key'
    expect(failureOf(() => expectStatus(response, 401)).message).toBe('GET answered 200, expected 401')
  })
})

test("Bun.serve's routes table without a fetch handler: an empty 404 where 401 is asked", () => {
  const response = makeResponse({ status: 404, path: '/store/orders', headers: {}, body: '' })
  expect(failureOf(() => expectStatus(response, 401)).message).toMatch(/^GET answered 404, expected 401: an empty 404 without a Content-Type is what Bun\.serve answers for a path none of its routes takes/)
  // with a body it is some other router's 404 (node-answers.ts)
  const withBody = makeResponse({ status: 404, path: '/store/orders', body: { message: 'Cannot GET /v1/store/orders' } })
  expect(failureOf(() => expectStatus(withBody, 401)).message).not.toMatch(/Bun/)
})

describe('Hono on Bun: its HTTPException as application/octet-stream', () => {
  test.each([
    ["bearerAuth's 401", 401, 'Unauthorized'],
    ["the validator's body that is not JSON", 400, 'Malformed JSON in request body'],
  ])('%s', (_label, status, body) => {
    const response = makeResponse({ status, method: 'POST', headers: { 'content-type': 'application/octet-stream', 'www-authenticate': 'Bearer realm=""' }, body })
    expect(failureOf(() => expectJsonContentType(response)).message).toMatch(/application\/octet-stream is what Bun\.serve declares for a Response whose body is a stream .*app\.onError/)
    expect(failureOf(() => expectErrorRecord(response)).message).toMatch(/^the \d+ body is not valid JSON; it is the message of Hono's HTTPException as text/)
  })
  test('a 200 list as application/octet-stream is not an error of Hono', () => {
    expect(failureOf(() => expectJsonContentType(makeResponse({ status: 200, headers: { 'content-type': 'application/octet-stream' }, body: [] }))).message).not.toMatch(/Hono/)
  })
})

test("Oak's ctx.throw() as text/plain; charset=UTF-8: its words beside Hono's c.text()", () => {
  const response = makeResponse({ status: 400, method: 'POST', headers: { 'content-type': 'text/plain; charset=UTF-8' }, body: 'name is required and must be a string' })
  const message = failureOf(() => expectJsonContentType(response)).message
  expect(message).toMatch(/Hono's c\.text\(\), with it.*; Oak answers so too, for ctx\.throw\(status, message\)/)
})

describe('500 pages of Bun.serve and Deno.serve for an exception the handler let through', () => {
  test.each([
    ["Bun.serve's development page", { 'content-type': 'text/html;charset=utf-8' }, '<!doctype html><title>Internal Server Error</title><!-- filled in by DevErrorPage.rs -->', /Bun\.serve's development error page/],
    ["Bun.serve's production answer", { 'content-type': 'text/plain' }, 'Something went wrong!', /Bun\.serve's own answer in production/],
    ["Deno.serve's default onError", {}, 'Internal Server Error', /Deno\.serve's default onError/],
  ])('%s', (_label, headers, body, words) => {
    const failure = failureOf(() => expectStatus(makeResponse({ status: 500, method: 'POST', headers, body }), 400))
    expect(failure.code).toBe('SERVER_ERROR')
    expect(failure.message).toMatch(words)
    expect(failure.message).toMatch(/destructuring a body of null/)
  })
  test('"Internal Server Error" with a Content-Type is no sign of Deno', () => {
    expect(failureOf(() => expectStatus(makeResponse({ status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' }), 200)).message).not.toMatch(/Deno/)
  })
})

test("a body that is not UTF-8 taken: the words name Bun's and Deno's Request.json() and the strict decoder for them", () => {
  const meaning = (key: string) => MALFORMED_BODIES.find((c) => c.key === key)?.acceptedMeans ?? ''
  expect(meaning('malformed-not-utf8')).toMatch(/the Fetch standard's Request\.json\(\) \(Bun's and Deno's, under Bun\.serve, Deno\.serve, Elysia, Hono and Oak\).*Bun and Deno: JSON\.parse\(new TextDecoder/)
  expect(meaning('malformed-surrogate-bytes')).toMatch(/or into U\+FFFD, one for each of its three bytes, as .*Bun's and Deno's Request\.json\(\) do/)
})
