/**
 * A failure names the default behind it, as measured by stackhunt7 against services written as
 * teams write them: Express 5 with passport 0.7, passport-http-bearer 1.0.1 and express-validator
 * 7.3 on better-sqlite3; Next.js 16.4 route handlers behind its proxy (next start); Flask 2.2 with
 * webargs 8.0 and marshmallow 3.18 on sqlite3; tsoa 6.6 on Express 4.22 with its documented errorHandler;
 * Servant 0.19 on warp and aeson 2.0 (Debian 12's packages). The answers below are the bytes those services gave
 * on their defaults; the code and the verdict stay those of the check.
 */
import { describe, expect, test } from 'vitest'
import { expectErrorRecord } from '../../lib/checks/error-record.ts'
import { changedTextOrigin } from '../../lib/checks/known-answers.ts'
import { expectJsonContentType, expectStatus } from '../../lib/checks/response.ts'
import { MALFORMED_BODIES } from '../../suites/cases/malformed-json.ts'
import { wrongTypeCases } from '../../suites/cases/wrong-types.ts'
import { makeResponse, verdictOf } from './make-response.ts'

const failureOf = (check: () => unknown) => {
  const verdict = verdictOf(check)
  if (!('code' in verdict)) throw new Error(`expected a failure, got ${JSON.stringify(verdict)}`)
  return verdict
}

describe("passport's own answers to a strategy's failure", () => {
  const PASSPORT_401 = { 'www-authenticate': 'Bearer realm="Users"', 'content-length': '12' }
  test('its 401 Unauthorized, text without a Content-Type: named on the body and on the type', () => {
    const response = makeResponse({ status: 401, headers: PASSPORT_401, body: 'Unauthorized' })
    expect(failureOf(() => expectErrorRecord(response)).message).toMatch(/^the 401 body is not valid JSON; passport's authenticate\(\) answers a strategy's failure itself/)
    expect(failureOf(() => expectJsonContentType(response)).message).toMatch(/passport's authenticate\(\) answers .*a custom callback/)
    expect(failureOf(() => expectJsonContentType(response)).message).not.toMatch(/polka/)
    // Express's res.sendStatus(401) declares text/plain: json-server's words, not passport's
    expect(failureOf(() => expectJsonContentType(makeResponse({ status: 401, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Unauthorized' }))).message).not.toMatch(/passport/)
  })

  test.each([['Bearer $CONFORM_API_KEY x'], ['Bearer:$CONFORM_API_KEY'], ['$CONFORM_API_KEY']])('its 400 to the header %j: passport-http-bearer named', (authorization) => {
    const response = makeResponse({ status: 400, method: 'POST', headers: { 'content-length': '11' }, body: 'Bad Request' })
    response.exchange.request.headers.authorization = authorization
    expect(failureOf(() => expectStatus(response, 401)).message).toMatch(/^POST answered 400, expected 401: .*passport-http-bearer finds an Authorization header that is not two words split at one space/)
    response.exchange.request.headers.authorization = 'Bearer $CONFORM_API_KEY'
    expect(failureOf(() => expectStatus(response, 401)).message).toBe('POST answered 400, expected 401')
  })

  test("its 400 Bad Request body is named only where the header is one passport-http-bearer cannot split: not for a body refused under the valid key's two words", () => {
    const badRequest = (authorization: string) => {
      const response = makeResponse({ status: 400, method: 'POST', headers: { 'content-length': '11' }, body: 'Bad Request' })
      response.exchange.request.headers.authorization = authorization
      return response
    }
    expect(failureOf(() => expectErrorRecord(badRequest('Bearer:$CONFORM_API_KEY'))).message).toMatch(/passport-http-bearer finds an Authorization header that is not two words/)
    expect(failureOf(() => expectJsonContentType(badRequest('Bearer $CONFORM_API_KEY x'))).message).toMatch(/passport-http-bearer/)
    expect(failureOf(() => expectErrorRecord(badRequest('Bearer $CONFORM_API_KEY'))).message).not.toMatch(/passport/)
    expect(failureOf(() => expectJsonContentType(badRequest('Bearer $CONFORM_API_KEY'))).message).not.toMatch(/passport/)
  })
})

describe('Next.js route handlers', () => {
  test("an exception let through: Next's empty 500 with its router's Vary is named; an empty 500 without it is not", () => {
    const vary = 'rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch'
    const next = failureOf(() => expectStatus(makeResponse({ status: 500, method: 'POST', headers: { vary }, body: '' }), 400))
    expect(next.code).toBe('SERVER_ERROR')
    expect(next.message).toMatch(/an empty 500 with Vary: rsc, next-router-state-tree … is what Next\.js answers for an exception a route handler let through/)
    expect(failureOf(() => expectStatus(makeResponse({ status: 500, method: 'POST', headers: {}, body: '' }), 400)).message).not.toMatch(/Next\.js/)
    // a list's empty 500 is Next's too, but no body was read: request.json() and a 400 are not its story
    const list = failureOf(() => expectStatus(makeResponse({ status: 500, headers: { vary }, body: '' }), 200)).message
    expect(list).toMatch(/is what Next\.js answers for an exception a route handler let through/)
    expect(list).not.toMatch(/request\.json\(\)|answer 400/)
  })
})

describe("express-validator's sanitizers and webargs' defaults", () => {
  test("escape(): characters sent back as HTML entities are named; a text that held entities already, and came back as sent, is not", () => {
    const sent = `say "hi" <b>&amp;</b>`
    const got = 'say &quot;hi&quot; &lt;b&gt;&amp;amp;&lt;&#x2F;b&gt;'
    expect(changedTextOrigin(sent, got, 4)).toMatch(/express-validator's escape\(\) sanitizer/)
    expect(changedTextOrigin(sent, sent.slice(0, 10), 10) ?? '').not.toMatch(/escape/)
  })

  test("the values express-validator reads as text, and the null marshmallow's load_default lets by, are named beside the others", () => {
    const cases = wrongTypeCases()
    expect(cases.find((c) => c.key.includes('name') && c.label.includes('boolean'))?.acceptedMeans).toMatch(/express-validator's validators and sanitizers read a value as its text/)
    expect(cases.find((c) => c.label.includes('description as null'))?.acceptedMeans).toMatch(/marshmallow's fields\.Str\(load_default=None\) allows null/)
  })

  test("webargs' 422 is named beside FastAPI's and Laravel's", () => {
    expect(failureOf(() => expectStatus(makeResponse({ status: 422, method: 'POST', body: { status: 422, message: { json: { name: ['Missing data for required field.'] } } } }), 400)).message).toMatch(
      /, of webargs \(use_args under Flask, and flask-smorest: marshmallow's ValidationError answered with its DEFAULT_VALIDATION_STATUS, 422/,
    )
  })

  test('a form body read as the fields is named, and goes as a form', () => {
    const form = MALFORMED_BODIES.find((c) => c.key === 'malformed-form-body')!
    expect(form.sentAs).toEqual({ 'content-type': 'application/x-www-form-urlencoded' })
    expect(String(form.body('cf-abcde'))).toMatch(/^name=cf-abcde[^&]*&description=/)
    expect(form.acceptedMeans).toMatch(/express\.urlencoded\(\) .*webargs' json_or_form location/)
  })
})

describe("tsoa's documented errorHandler (tsoa 6.6, Express 4.22)", () => {
  test('its 500 for the rejection of its authentication module is named; the same body from another server is not', () => {
    const body = '{"message":"Internal Server Error"}'
    const tsoa = failureOf(() => expectStatus(makeResponse({ status: 500, headers: { 'x-powered-by': 'Express', 'content-type': 'application/json; charset=utf-8' }, body }), 401))
    expect(tsoa.message).toMatch(/as tsoa's documented errorHandler does for every Error but a ValidateError: the rejection of its authentication module/)
    // Express services without tsoa write these bytes from an error handler of their own: the handler is named first, tsoa as one
    expect(tsoa.message).toMatch(/^GET answered 500 .*: \{"message": "Internal Server Error"\} from Express is what an error handler that answers every error it is handed 500 writes, as tsoa's/)
    expect(failureOf(() => expectStatus(makeResponse({ status: 500, body }), 401)).message).not.toMatch(/tsoa/)
  })
  test('its 422 for a ValidateError is named', () => {
    const response = makeResponse({ status: 422, method: 'POST', body: { message: 'Validation Failed', details: { 'body.name': { message: "'name' is required" } } } })
    expect(failureOf(() => expectStatus(response, 400)).message).toMatch(/of tsoa's documented errorHandler \(a ValidateError answered 422/)
  })
})

describe("Servant's own answers (servant-server 0.19.1 on warp 3.3.21)", () => {
  const WARP = { server: 'Warp/3.3.21' }
  test('its empty 401 and its 400 with aeson\'s message as text, without a Content-Type, are named; the same from another server is not', () => {
    const unauthorized = makeResponse({ status: 401, headers: WARP, body: '' })
    expect(failureOf(() => expectErrorRecord(unauthorized)).message).toMatch(/^the 401 body is not valid JSON; an answer of Servant's own, without a Content-Type \(Warp's Server header\)/)
    // an empty body's missing type is told on its body (expectErrorRecord), as every empty 401's is
    const undecodable = makeResponse({ status: 400, method: 'POST', headers: WARP, body: "Error in $: Failed reading: not a valid json value at 'x'" })
    expect(failureOf(() => expectErrorRecord(undecodable)).message).toMatch(/Servant's own/)
    expect(failureOf(() => expectJsonContentType(undecodable)).message).toMatch(/Servant's own/)
    expect(failureOf(() => expectJsonContentType(undecodable)).message).not.toMatch(/polka/)
    expect(failureOf(() => expectErrorRecord(makeResponse({ status: 401, headers: {}, body: '' }))).message).not.toMatch(/Servant/)
  })
  test("its empty 404 for a path without a route is named as Servant's, not Bun.serve's", () => {
    const failure = failureOf(() => expectStatus(makeResponse({ status: 404, path: '/store/orders', headers: WARP, body: '' }), 401))
    expect(failure.message).toMatch(/an empty 404 from Warp is Servant's answer to a path its API type has no route for/)
    expect(failure.message).not.toMatch(/Bun/)
  })
  test("a vertical tab before the value, which Servant's eitherDecodeLenient skips, and aeson's null for a Maybe field are named", () => {
    expect(MALFORMED_BODIES.find((c) => c.key === 'malformed-vertical-tab')?.acceptedMeans).toMatch(/Servant's JSON content type reads a request body with eitherDecodeLenient/)
    expect(wrongTypeCases().find((c) => c.label.includes('description as null'))?.acceptedMeans).toMatch(/aeson's generic FromJSON reads null for a Maybe field as Nothing/)
  })
})
