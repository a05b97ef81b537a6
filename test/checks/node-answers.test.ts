/**
 * A failure names the Node framework default behind a well-known wrong answer and how it is
 * changed (lib/checks/node-answers.ts, called by known-answers.ts; the wrong-type words of
 * suites/cases/wrong-types.ts), as measured against services written on NestJS 11 (Express and
 * Fastify adapters, class-validator, TypeORM), Koa 3 and Hono 4 with zod, hapi 21 with joi, restify 11,
 * polka 0.5 with body-parser, json-server 0.17, Feathers 5 on koa and micro 10: the answers below are the bytes those services
 * gave with the framework's defaults left in. The code and the verdict stay
 * those of the check.
 */
import { describe, expect, test } from 'vitest'
import { firstDifference } from '../../lib/checks/category.ts'
import { expectErrorRecord } from '../../lib/checks/error-record.ts'
import { expectJsonContentType, expectStatus, jsonBodyOf } from '../../lib/checks/response.ts'
import { wrongTypeCases } from '../../suites/cases/wrong-types.ts'
import { makeResponse, verdictOf } from './make-response.ts'

const failureOf = (check: () => unknown) => {
  const verdict = verdictOf(check)
  if (!('code' in verdict)) throw new Error(`expected a failure, got ${JSON.stringify(verdict)}`)
  return verdict
}

describe('error bodies of Node frameworks', () => {
  test.each([
    ["NestJS's UnauthorizedException from a guard", 401, { message: 'Unauthorized', statusCode: 401 }, /NestJS's default exception body .*APP_FILTER/],
    ["NestJS's ValidationPipe", 400, { message: ['name must be a string'], error: 'Bad Request', statusCode: 400 }, /NestJS's default exception body .*ValidationPipe's message is an array/],
    [
      "Fastify's empty JSON body",
      400,
      { statusCode: 400, code: 'FST_ERR_CTP_EMPTY_JSON_BODY', error: 'Bad Request', message: "Body cannot be empty when content-type is set to 'application/json'" },
      /Fastify's default error body .*has a code but no status; .*setErrorHandler/,
    ],
    ["hapi's Boom error from an auth scheme", 401, { statusCode: 401, error: 'Unauthorized', message: 'missing or invalid API key' }, /and hapi's \(Boom\).*onPreResponse extension .*isBoom/],
    ["restify's bodyParser (InvalidContent)", 400, { code: 'InvalidContent', message: 'Invalid JSON: Unexpected end of JSON input' }, /restify's error body .*no status; .*server\.on\('restifyError'/],
    ["restify's UnauthorizedError", 401, { code: 'Unauthorized', message: 'missing or invalid API key' }, /restify's error body/],
    ["Feathers' errorHandler() (koa)", 401, { name: 'NotAuthenticated', message: 'missing or invalid API key', code: 401, className: 'not-authenticated' }, /Feathers' error body .*errorHandler\(\) of @feathersjs\/koa/],
    // measured: LoopBack 4 (@loopback/rest 15.0), a body its schema refuses and HttpErrors.Unauthorized
    [
      "LoopBack 4's reject action (its 400 for a body that is not JSON)",
      400,
      { error: { statusCode: 400, name: 'SyntaxError', message: 'Unexpected end of JSON input' } },
      /LoopBack 4's error body \(\{error: \{statusCode, name, message\}\}.*app\.middleware\(\)/,
    ],
    ["LoopBack 4's 401", 401, { error: { statusCode: 401, name: 'UnauthorizedError', message: 'missing or invalid API key' } }, /LoopBack 4's error body/],
    ['@hono/zod-validator without a hook', 400, { success: false, error: { name: 'ZodError', message: '[]' } }, /@hono\/zod-validator answers with no hook .*zValidator\('json', schema, \(result, c\)/],
  ])('%s', (_label, status, body, words) => {
    const failure = failureOf(() => expectErrorRecord(makeResponse({ status, body })))
    expect(failure.code).toBe('SCHEMA_MISMATCH')
    expect(failure.message).toMatch(words)
  })

  test('an Error record with a code of its own, and a body no framework writes, get no Node words', () => {
    expect(failureOf(() => expectErrorRecord(makeResponse({ status: 400, body: { code: 'bad', message: 'x' } }))).message).not.toMatch(/Fastify|NestJS|Hono/)
    expect(failureOf(() => expectErrorRecord(makeResponse({ status: 400, body: { reason: 'x' } }))).message).not.toMatch(/Fastify|NestJS|Hono/)
    // {error: "text"} is a hand-written handler's, not LoopBack's
    expect(failureOf(() => expectErrorRecord(makeResponse({ status: 400, body: { error: 'bad' } }))).message).not.toMatch(/LoopBack/)
    // a code of restify's set beside other fields is not restify's body
    expect(failureOf(() => expectErrorRecord(makeResponse({ status: 400, body: { code: 'BadRequest', message: 'x', errors: [] } }))).message).not.toMatch(/restify/)
  })
})

describe('text/plain where §4 asks application/json', () => {
  test.each([
    ["Koa's ctx.throw(401)", 'text/plain; charset=utf-8', /Koa writes for a string body \(ctx\.body = text, and the message of ctx\.throw\(status\)/],
    ["Hono's HTTPException (the Response constructor's default)", 'text/plain;charset=UTF-8', /Hono answers so for an HTTPException .*app\.onError and app\.notFound/],
    ["Hono's notFound (c.text)", 'text/plain; charset=UTF-8', /Hono's c\.text\(\), with it/],
    ["Express's res.sendStatus(401) (json-server 0.17's README)", 'text/plain; charset=utf-8', /Express for res\.sendStatus\(401\)/],
  ])('%s', (_label, contentType, words) => {
    const failure = failureOf(() => expectJsonContentType(makeResponse({ status: 401, headers: { 'content-type': contentType }, body: 'Unauthorized' })))
    expect(failure.code).toBe('WRONG_CONTENT_TYPE')
    expect(failure.message).toMatch(words)
  })
})

describe("Express's default error page (finalhandler), measured on Express 5.1", () => {
  const PAGE = '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Bad Request</pre>\n</body>\n</html>\n'
  const page = (body: string) =>
    makeResponse({ status: 400, headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'", 'x-content-type-options': 'nosniff' }, body, method: 'POST' })

  test("express.json()'s 400 for a body that is not JSON, as an HTML page, is named as Express's, for its type and for its body", () => {
    expect(failureOf(() => expectJsonContentType(page(PAGE))).message).toMatch(/; it is the HTML page of Express's default error handler \(finalhandler.*app\.use\(\(err, req, res, next\) =>/)
    expect(failureOf(() => jsonBodyOf(page(PAGE))).message).toMatch(/^the 400 body is not valid JSON; it is the HTML page of Express's default error handler/)
  })

  test('another HTML page is not', () => {
    expect(failureOf(() => jsonBodyOf(page('<html><body><pre>Bad Request</pre></body></html>'))).message).not.toMatch(/Express/)
  })
})

describe('no Content-Type where §4 asks application/json', () => {
  test("polka's default onError: body-parser's message as text, no Content-Type", () => {
    const failure = failureOf(() => expectJsonContentType(makeResponse({ status: 400, method: 'POST', headers: {}, body: 'Unexpected end of JSON input' })))
    expect(failure.code).toBe('WRONG_CONTENT_TYPE')
    expect(failure.message).toMatch(/^the 400 response is not declared as application\/json; no Content-Type is what Node's http sends .*polka's default onError .*@polka\/send-type/)
    expect(failure.message).toMatch(/so does a C service on GNU libmicrohttpd, whose MHD_create_response_from_buffer\(\) carries no header the service did not add/)
  })
  // measured: micro 10.0.1 with createError thrown and json(req) left uncaught, behind Node 20's http
  const MICRO_HEADERS = { 'content-length': '21', connection: 'keep-alive', 'keep-alive': 'timeout=5' }
  test("micro's sendError: its message as text, and its 500 for an exception let through, not Deno.serve's", () => {
    const invalid = failureOf(() => expectJsonContentType(makeResponse({ status: 400, method: 'POST', headers: { 'content-length': '12' }, body: 'Invalid JSON' })))
    expect(invalid.message).toMatch(/so does Vercel's micro for a createError\(status, message\) thrown and for json\(req\)'s own .*send\(res, status, \{ code, message, status \}\)/)
    const fault = failureOf(() => expectStatus(makeResponse({ status: 500, method: 'POST', headers: MICRO_HEADERS, body: 'Internal Server Error' }), 400))
    expect(fault.code).toBe('SERVER_ERROR')
    expect(fault.message).toMatch(/Vercel's micro answers for an exception the handler let through .*const \{ name \} = await json\(req\)/)
    expect(fault.message).not.toMatch(/Deno/)
  })
  test('an empty body without a Content-Type gets no such words', () => {
    expect(failureOf(() => expectJsonContentType(makeResponse({ status: 401, headers: {}, body: '' }))).message).not.toMatch(/polka/)
  })
})

describe('statuses a Node framework gives where §5.3 asks 401', () => {
  test("Hono's bearerAuth: 400 with WWW-Authenticate: Bearer error=\"invalid_request\" for a header it cannot read", () => {
    const response = makeResponse({ status: 400, headers: { 'content-type': 'text/plain;charset=UTF-8', 'www-authenticate': 'Bearer error="invalid_request"' }, body: 'Bad Request' })
    const failure = failureOf(() => expectStatus(response, 401))
    expect(failure.code).toBe('UNEXPECTED_STATUS')
    expect(failure.message).toMatch(/^GET answered 400, expected 401: a 400 for an Authorization header that is not a bearer token .*RFC 6750's invalid_request, which Hono's bearerAuth answers/)
    // a 400 to a bearer token, without that challenge, says nothing of bearerAuth
    expect(failureOf(() => expectStatus(makeResponse({ status: 400, body: { code: 'bad', message: 'x', status: 400 } }), 401)).message).toBe('GET answered 400, expected 401')
  })

  test.each([['Basic $CONFORM_API_KEY'], ['$CONFORM_API_KEY'], ['Bearer ']])(
    "a 400 to the header %j, which an error handler of the service's own answered without bearerAuth's challenge: the same words",
    (authorization) => {
      const response = makeResponse({ status: 400, method: 'POST', body: { code: 'invalid_request', message: 'Bad Request', status: 400 } })
      response.exchange.request.headers.authorization = authorization
      expect(failureOf(() => expectStatus(response, 401)).message).toMatch(/^POST answered 400, expected 401: a 400 for an Authorization header that is not a bearer token/)
      response.exchange.request.headers.authorization = 'Bearer $CONFORM_API_KEY'
      expect(failureOf(() => expectStatus(response, 401)).message).toBe('POST answered 400, expected 401')
    },
  )

  test("a 403 to a POST with the valid key where 400 is expected names body-parser's verify; without the key it does not", () => {
    const withKey = makeResponse({ status: 403, method: 'POST', headers: {}, body: { code: 'FORBIDDEN', message: 'the body is not UTF-8', status: 403 } })
    withKey.exchange.request.headers.authorization = 'Bearer $CONFORM_API_KEY'
    withKey.exchange.request.bodyBase64 = Buffer.from('{"name": "caf\xe9"}', 'latin1').toString('base64')
    expect(failureOf(() => expectStatus(withKey, 400)).message).toMatch(/^POST answered 403, expected 400: a 403 to a body sent with the valid key is what Express's body-parser answers when its verify option throws an error without a status \(entity\.verify\.failed\)/)
    // a body of UTF-8 text (the form body a gateway refused for its media type) is not what verify's strict decoder refuses
    const formRefused = makeResponse({ status: 403, method: 'POST', headers: { 'content-type': 'text/html' }, body: '<h1>403 Forbidden</h1>' })
    formRefused.exchange.request.headers = { authorization: 'Bearer $CONFORM_API_KEY', 'content-type': 'application/x-www-form-urlencoded' }
    formRefused.exchange.request.body = 'name=cf-abcde-j26&description=sent+as+a+form'
    expect(failureOf(() => expectStatus(formRefused, 400)).message).toBe('POST answered 403, expected 400')
    const withoutKey = makeResponse({ status: 403, method: 'POST' })
    withoutKey.exchange.request.headers = {}
    expect(failureOf(() => expectStatus(withoutKey, 400)).message).not.toMatch(/body-parser/)
  })

  test('a 404 to a GET without a valid key: no route for the operation, answered before any guard (NestJS guards, a router past middleware on other paths)', () => {
    const response = makeResponse({ status: 404, path: '/store/orders', body: { message: 'Cannot GET /v1/store/orders', error: 'Not Found', statusCode: 404 } })
    const failure = failureOf(() => expectStatus(response, 401))
    expect(failure.message).toMatch(/^GET answered 404, expected 401: a 404 to a request without a valid key is a router that has no route .*NestJS runs guards only for a route it has/)
    expect(failure.message).toMatch(/hapi does before its auth strategy and restify before what server\.use\(\) mounts/)
    expect(failure.message).toMatch(/and Dancer2 and Grape before their before hooks \(a catch-all route, Dancer2's any qr\{\.\*\} or Grape's route :any, '\*path', makes them run\)/)
    // a 404 where 400 was expected is another matter
    expect(failureOf(() => expectStatus(makeResponse({ status: 404, method: 'POST' }), 400)).message).toBe('POST answered 404, expected 400')
  })
})

describe('a 201 to a wrong type names the Node coercions that take it', () => {
  const meaning = (key: string) => wrongTypeCases().find((c) => c.key === key)?.acceptedMeans ?? ''
  test.each([
    ['wrong-type-name-integer', /enableImplicitConversion: true .*z\.coerce\.string\(\)/],
    ['wrong-type-name-boolean', /enableImplicitConversion: true/],
    ['wrong-type-description-object', /\{\} → "\[object Object\]"/],
    ['wrong-type-name-null', /^the service took a value that is not text for the name: .*z\.coerce\.string\(\) turns it into text \(null → "null"/],
    ['wrong-type-name-array', /a truthy test, which an array passes/],
    ['wrong-type-description-null', /class-validator's @IsOptional\(\) lets null by .*zod's \.nullish\(\)/],
    ['wrong-type-description-array', /\["a", "b"\] → "a,b"/],
    ['wrong-type-name-one-string-array', /z\.coerce\.string\(\) writes it as its one string too/],
  ])('%s', (key, words) => {
    expect(meaning(key)).toMatch(words)
  })
  // Fastify 5 with a body schema and its defaults answered 201 to each of these (measured)
  test.each(['wrong-type-name-integer', 'wrong-type-description-boolean', 'wrong-type-name-null', 'wrong-type-description-null', 'wrong-type-name-one-string-array', 'wrong-type-description-one-string-array'])("%s names Fastify's Ajv coercion", (key) => {
    expect(meaning(key)).toMatch(/Fastify validates a route's body schema with Ajv and coerceTypes: 'array' by default.*coerceTypes: false/)
  })
  test.each(['wrong-type-description-object', 'wrong-type-description-array'])("%s, which Ajv does not coerce, does not", (key) => {
    expect(meaning(key)).not.toMatch(/coerceTypes/)
  })
})

describe('texts that came back changed, as a Node handler or driver changes them', () => {
  test("'' back as no value: description || null, beside Oracle's and Laravel's words", () => {
    expect(firstDifference('', undefined)).toMatch(/Oracle stores '' as NULL.*Laravel's ConvertEmptyStringsToNull.*; JavaScript's description \|\| null .*description \?\? null keeps it/)
  })

  test("spaces taken: trim() in the handler, zod's .trim(), a class-transformer @Transform, after PHP's and Ruby's words", () => {
    expect(firstDifference('  cf-x-padded  ', 'cf-x-padded')).toMatch(/PHP's trim\(\).*; in Node, String\.prototype\.trim\(\) in the handler, zod's \.trim\(\)/)
    expect(firstDifference('cf-x-long-name', 'cf-x-long')).not.toMatch(/Node/)
  })

  test('a lone surrogate back as U+FFFD: written to UTF-8 by Node (better-sqlite3, measured)', () => {
    // beside Go's words (django-rails-answers.ts), each said once
    const said = firstDifference('cf-x-\ud800', 'cf-x-\ufffd')
    expect(said).toMatch(/^; first difference at character 5: sent U\+D800, got U\+FFFD \(lengths 6 and 6\); a lone surrogate became U\+FFFD: .*Node writes a string to UTF-8 so .*isWellFormed\(\)/)
    expect(said.match(/a lone surrogate became/g)).toHaveLength(1)
    // any other character replaced is not this
    expect(firstDifference('cf-x-\u00e9', 'cf-x-\ufffd')).not.toMatch(/surrogate/)
  })
})

// measured (stackhunt11): Express 5.3 (body-parser 2.4), express.json() alone, a handler that destructures req.body
test("a 500 from Express to a POST of another Content-Type: Express 5 leaves req.body undefined, and the handler's destructuring threw", () => {
  const fault = (contentType: string, poweredBy = 'Express') =>
    failureOf(() =>
      expectStatus(
        makeResponse({
          status: 500,
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=utf-8', 'x-powered-by': poweredBy },
          body: { code: 'internal', message: "Cannot destructure property 'name' of 'req.body' as it is undefined.", status: 500 },
          requestHeaders: { 'content-type': contentType },
        }),
        400,
      ),
    ).message
  expect(fault('application/x-www-form-urlencoded')).toMatch(/^POST answered 500 .*: Express 5 \(body-parser 2\) leaves req\.body undefined where no parser read the body.*read req\.body \?\? \{\}/)
  expect(fault('application/x-www-form-urlencoded')).not.toMatch(/Express 4/)
  // review52: without the TypeError of req.body undefined (Express 4's {} and a handler's req.body.name.trim(), or a page that hides the message), both are said
  const hidden = (body: string) =>
    failureOf(() => expectStatus(makeResponse({ status: 500, method: 'POST', headers: { 'content-type': 'text/html; charset=utf-8', 'x-powered-by': 'Express' }, body, requestHeaders: { 'content-type': 'application/x-www-form-urlencoded' } }), 400)).message
  for (const body of ["<pre>TypeError: Cannot read properties of undefined (reading 'trim')</pre>", '<pre>Internal Server Error</pre>']) {
    expect(hidden(body)).toMatch(/Express 5 \(body-parser 2\) leaves req\.body undefined .*; Express 4 gives \{\} there, where a handler that uses a field of it as a string \(req\.body\.name\.trim\(\)\) throws as well: read req\.body \?\? \{\} and refuse a name that is not a string/)
  }
  expect(hidden('<pre>TypeError: Cannot read properties of undefined (reading &#39;name&#39;)<br> &nbsp; &nbsp;at /srv/app.js:9:24</pre>')).not.toMatch(/Express 4/)
  expect(hidden('<pre>TypeError: Cannot destructure property &#39;name&#39; of &#39;req.body&#39; as it is undefined.</pre>')).not.toMatch(/Express 4/)
  // the JSON parser read a JSON body: another cause; and a 500 without Express's header is not named so
  expect(fault('application/json')).not.toMatch(/req\.body undefined/)
  expect(fault('application/x-www-form-urlencoded', 'PHP/8.2')).not.toMatch(/req\.body undefined/)
})
