/**
 * A failure names the default behind it, as measured by stackhunt8 against services written as
 * teams write them: Fastify 5.12 with @fastify/bearer-auth 10.1 (its errorResponse as it comes),
 * and with a hand-written onRequest hook (crypto.timingSafeEqual, the token read as
 * header.replace(/^Bearer /, '')); aiohttp 3.8.4 (Debian 12) raising web.HTTPUnauthorized() and
 * web.HTTPBadRequest(text=…), and comparing the token with hmac.compare_digest (500 to a token
 * outside ASCII, as FastAPI 0.92 and Flask 2.2 did too). The answers below are the bytes those services gave; the code and
 * the verdict stay those of the check.
 */
import { describe, expect, test } from 'vitest'
import { expectErrorRecord } from '../../lib/checks/error-record.ts'
import { expectJsonContentType, expectStatus } from '../../lib/checks/response.ts'
import { expectNotRoutedPastTheKeyCheck } from '../../lib/checks/unauthenticated.ts'
import { MALFORMED_BODIES } from '../../suites/cases/malformed-json.ts'
import { makeResponse, verdictOf } from './make-response.ts'

const failureOf = (check: () => unknown) => {
  const verdict = verdictOf(check)
  if (!('code' in verdict)) throw new Error(`expected a failure, got ${JSON.stringify(verdict)}`)
  return verdict
}
const FASTIFY_JSON = { 'content-type': 'application/json; charset=utf-8' }

describe('@fastify/bearer-auth on its defaults', () => {
  test.each([['missing authorization header'], ['invalid authorization header']])("its 401 {error: %j} is named as bearer-auth's, not as Sinatra's or Grape's", (error) => {
    const failure = failureOf(() => expectErrorRecord(makeResponse({ status: 401, headers: FASTIFY_JSON, body: { error } })))
    expect(failure.code).toBe('SCHEMA_MISMATCH')
    expect(failure.message).toMatch(/it is what @fastify\/bearer-auth answers by default .*errorResponse: \(err\) => \(\{ code: 'UNAUTHORIZED', message: err\.message, status: 401 \}\)/)
    expect(failure.message).not.toMatch(/Sinatra|Grape/)
  })

  test('a body of error alone with other words keeps the words of a hand-written handler', () => {
    const failure = failureOf(() => expectErrorRecord(makeResponse({ status: 400, headers: FASTIFY_JSON, body: { error: 'name is missing' } })))
    expect(failure.message).toMatch(/Sinatra/)
    expect(failure.message).not.toMatch(/bearer-auth/)
  })
})

describe('a key check on crypto.timingSafeEqual', () => {
  test("its RangeError for buffers of other lengths, answered 500 by Fastify's error handler, is named", () => {
    const body = { code: 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH', message: 'Input buffers must have the same byte length', status: 500 }
    const failure = failureOf(() => expectStatus(makeResponse({ status: 500, headers: FASTIFY_JSON, body }), 401))
    expect(failure.code).toBe('SERVER_ERROR')
    expect(failure.message).toMatch(/timingSafeEqual\(a, b\) throws a RangeError .*compare the lengths first/)
    // another 500 is not put down to it
    expect(failureOf(() => expectStatus(makeResponse({ status: 500, headers: FASTIFY_JSON, body: { code: 'ERROR', message: 'boom', status: 500 } }), 401)).message).not.toMatch(/timingSafeEqual/)
  })

  test('a 404 past it, where the request without a key got its 500, says the header passed the key check', () => {
    const bare = makeResponse({ status: 404, headers: FASTIFY_JSON, body: { code: 'NOT_FOUND', message: 'not found', status: 404 }, path: '/store/orders' })
    bare.exchange.request.headers.authorization = '$CONFORM_API_KEY'
    const noKey = makeResponse({ status: 500, headers: FASTIFY_JSON, body: { code: 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH', message: 'Input buffers must have the same byte length', status: 500 }, path: '/store/orders' })
    const failure = failureOf(() => expectNotRoutedPastTheKeyCheck(bare, noKey))
    expect(failure.message).toMatch(/^GET answered 404, expected 401: the same path answered 500 to a request without a key, .*this header passed that check/)
    // a 404 there too says nothing of the order (a router answering first): no finding of this kind
    expect(verdictOf(() => expectNotRoutedPastTheKeyCheck(bare, makeResponse({ status: 404, path: '/store/orders' })))).toEqual({ pass: true })
  })

  test('the key without a scheme taken (a prefix stripped) is named; the valid header answered 2xx is no failure to name', () => {
    const list = makeResponse({ status: 200, headers: FASTIFY_JSON, body: [] })
    list.exchange.request.headers.authorization = '$CONFORM_API_KEY'
    expect(failureOf(() => expectStatus(list, 401)).message).toMatch(/^GET answered 200, expected 401: the key without a scheme was taken: a token read by stripping the scheme as a prefix \(JavaScript's header\.replace/)
    list.exchange.request.headers.authorization = 'Bearer conform-x-not-a-key'
    expect(failureOf(() => expectStatus(list, 401)).message).toBe('GET answered 200, expected 401')
  })
})

describe("aiohttp's web.HTTPException", () => {
  const AIOHTTP = { 'content-type': 'text/plain; charset=utf-8', server: 'Python/3.11 aiohttp/3.8.4' }
  test('its "401: Unauthorized" as text is named on the body and on the type, not as Koa\'s', () => {
    const response = makeResponse({ status: 401, headers: AIOHTTP, body: '401: Unauthorized' })
    expect(failureOf(() => expectErrorRecord(response)).message).toMatch(/^the 401 body is not valid JSON; it is the text of aiohttp's web\.HTTPException/)
    const type = failureOf(() => expectJsonContentType(response)).message
    expect(type).toMatch(/aiohttp's web\.HTTPException .*web\.json_response/)
    expect(type).not.toMatch(/Koa/)
    // its form alone tells it behind a front that dropped the Server header
    expect(failureOf(() => expectErrorRecord(makeResponse({ status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: '400: Bad Request' }))).message).toMatch(/aiohttp/)
  })

  test('a text of its own (HTTPBadRequest(text=…)) is told by the Server header; without it, Koa\'s words stay', () => {
    expect(failureOf(() => expectJsonContentType(makeResponse({ status: 400, headers: AIOHTTP, body: 'Invalid JSON' }))).message).toMatch(/aiohttp/)
    const koa = failureOf(() => expectJsonContentType(makeResponse({ status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Invalid JSON' }))).message
    expect(koa).toMatch(/Koa/)
    expect(koa).not.toMatch(/aiohttp/)
  })
})

describe('a surrogate written as UTF-8 bytes, taken as three U+FFFD', () => {
  test("Node's body parsers and Go's encoding/json are named (measured: Express 5.1, Fastify 5.12, Go 1.19)", () => {
    const surrogate = MALFORMED_BODIES.find((c) => c.key === 'malformed-surrogate-bytes')!
    expect(surrogate.acceptedMeans).toMatch(/into U\+FFFD, one for each of its three bytes, as Node's body parsers \(Express 5's express\.json\(\), Fastify 5's\), Go's encoding\/json/)
  })
})

describe("a token outside ASCII compared with Python's compare_digest (aiohttp 3.8.4, FastAPI 0.92 on Starlette 0.26, Flask 2.2)", () => {
  test("the 500 to it is named; aiohttp's own 500 to it is no body decoding's", () => {
    const aiohttp500 = makeResponse({ status: 500, headers: { 'content-type': 'text/plain; charset=utf-8', server: 'Python/3.11 aiohttp/3.8.4' }, body: '500 Internal Server Error\n\nServer got itself in trouble' })
    aiohttp500.exchange.request.headers.authorization = 'Bearer conform-x-cl\u00e9'
    const failure = failureOf(() => expectStatus(aiohttp500, 401))
    expect(failure.code).toBe('SERVER_ERROR')
    expect(failure.message).toMatch(/a 500 to a token with a character outside ASCII is what Python's hmac\.compare_digest\(token, key\) .*token\.isascii\(\)/)
    expect(failure.message).not.toMatch(/request\.json\(\)/)
    // the same 500 to a create is still read as its body's decoding
    const create = makeResponse({ status: 500, method: 'POST', headers: { 'content-type': 'text/plain; charset=utf-8' }, body: '500 Internal Server Error\n\nServer got itself in trouble' })
    expect(failureOf(() => expectStatus(create, 400)).message).toMatch(/request\.json\(\) decodes the body/)
    // a 500 to an ASCII token is not put down to it
    aiohttp500.exchange.request.headers.authorization = 'Bearer conform-x-not-a-key'
    expect(failureOf(() => expectStatus(aiohttp500, 401)).message).not.toMatch(/compare_digest/)
  })
})

// review33: djangoRailsStatus is asked before nodeStatus, and Python's words took any 500 to the token outside ASCII
test("a Node key check's RangeError to the token outside ASCII keeps timingSafeEqual's words, not compare_digest's", () => {
  const body = { code: 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH', message: 'Input buffers must have the same byte length', status: 500 }
  const fastify500 = makeResponse({ status: 500, headers: FASTIFY_JSON, body })
  fastify500.exchange.request.headers.authorization = 'Bearer conform-x-cl\u00e9'
  const message = failureOf(() => expectStatus(fastify500, 401)).message
  expect(message).toMatch(/timingSafeEqual\(a, b\) throws a RangeError/)
  expect(message).not.toMatch(/compare_digest/)
})

// review33: a front's refusal of the byte (ModSecurity CRS 920272's 403, a gateway's 502, a 431) judged nothing of the service; variants header-outside-ascii-*
test('the token outside ASCII judges only a 401, a 2xx or a 500: any other answer is a refusal of the byte before the service', async () => {
  const { CREDENTIAL_CASES } = await import('../../suites/cases/credentials.ts')
  const refused = CREDENTIAL_CASES.find((c) => c.key === 'token-outside-ascii')!.refusedBeforeTheService!.refused
  expect([400, 403, 404, 431, 502, 504, 301].filter(refused)).toEqual([400, 403, 404, 431, 502, 504, 301])
  expect([401, 200, 204, 500].filter(refused)).toEqual([])
})

// review33: a 2xx to the bare key does not tell a prefix stripped from a key check that takes the bare key beside
// "Bearer <key>" (mutation bare-key-accepted: authorization === key ||): the words give both, not the first as fact
test('the bare key taken is put down to a prefix stripped or to the bare key taken on purpose, not to the first alone', () => {
  const list = makeResponse({ status: 200, headers: FASTIFY_JSON, body: [] })
  list.exchange.request.headers.authorization = '$CONFORM_API_KEY'
  const message = failureOf(() => expectStatus(list, 401)).message
  expect(message).toMatch(/a token read by stripping the scheme as a prefix .* or a key check that takes the bare key beside "Bearer <key>"/)
})
