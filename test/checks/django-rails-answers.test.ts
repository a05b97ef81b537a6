/**
 * A failure names the Django REST framework, Rails or gin default behind a well-known wrong answer
 * and how it is changed (lib/checks/django-rails-answers.ts, called by known-answers.ts), as
 * measured against such services on Debian 12's packages (DRF 3.14 on Django 3.2, Rails 6.1 in API
 * mode on Puma, gin 1.8): the answers below are the bytes those services gave. The code and the
 * verdict stay those of the check.
 */
import { describe, expect, test } from 'vitest'
import { firstDifference } from '../../lib/checks/category.ts'
import { expectErrorRecord } from '../../lib/checks/error-record.ts'
import { expectJsonContentType, expectStatus, jsonBodyOf } from '../../lib/checks/response.ts'
import { makeResponse, verdictOf } from './make-response.ts'

const failureOf = (check: () => unknown) => {
  const verdict = verdictOf(check)
  if (!('code' in verdict)) throw new Error(`expected a failure, got ${JSON.stringify(verdict)}`)
  return verdict
}

describe('error bodies of another shape', () => {
  test.each([
    ["DRF's exception handler: detail alone", 401, '{"detail":"Invalid token."}', /; a body of detail alone is what Django REST framework's exception handler answers .*EXCEPTION_HANDLER/],
    ["DRF's serializer.errors", 400, '{"name":["This field is required."]}', /; a body of fields, each with a list of messages .*Django REST framework's ValidationError .*render json: @category\.errors/],
    ["Rails' record.errors, two fields", 400, '{"name":["can\'t be blank"],"description":["is too long (maximum is 10 characters)"]}', /Django REST framework's ValidationError .*Rails' scaffold/],
    ["Rails' PublicExceptions", 400, '{"status":400,"error":"Bad Request"}', /; a body of status and error alone is what Rails answers itself \(ActionDispatch::PublicExceptions.*config\.exceptions_app/],
    // measured: Dancer2 0.400001 under set serializer => 'JSON', a body it cannot deserialize
    ["Dancer2's own error", 400, '{"title":"Error 400 - Bad Request","message":"Failed to deserialize content: malformed JSON string","status":400}', /; a body of title, message and status is Dancer2's own error under set serializer => 'JSON'.*answer \{code, message, status\}/],
  ])('%s', (_label, status, body, words) => {
    const failure = failureOf(() => expectErrorRecord(makeResponse({ status, body })))
    expect(failure.code).toBe('SCHEMA_MISMATCH')
    expect(failure.message).toMatch(words)
  })

  test('other bodies of those keys are no known stack\'s', () => {
    // status and an error that is not its reason phrase; a field whose messages are not all text; an empty list
    for (const body of ['{"title":"Bad Request","message":"m","status":400}', '{"errors":["name is required"]}', '{"status":400,"error":"bad"}', '{"status":"400","error":"Bad Request"}', '{"name":[1]}', '{"name":[]}', '{"detail":"x","extra":1}']) {
      expect(failureOf(() => expectErrorRecord(makeResponse({ status: 400, body }))).message, body).toMatch(/^the body is not an Error record \(code, message, status\): [^;]*$/)
    }
  })
})

test("text/html from twisted.web (its Server header) names Request's defaultContentType; text/html from elsewhere does not", () => {
  const twisted = failureOf(() => expectJsonContentType(makeResponse({ headers: { 'content-type': 'text/html', server: 'TwistedWeb/22.4.0' }, body: '[]' })))
  expect(twisted.message).toMatch(/; text\/html is what twisted\.web's Request declares \(its defaultContentType\).*defaultContentType = b'application\/json'/)
  expect(failureOf(() => expectJsonContentType(makeResponse({ headers: { 'content-type': 'text/html' }, body: '[]' }))).message).not.toMatch(/twisted/)
})

describe('statuses', () => {
  test("a 403 with DRF's words where §5.3 asks 401: an authentication class with no authenticate_header()", () => {
    const failure = failureOf(() => expectStatus(makeResponse({ status: 403, body: '{"detail":"Authentication credentials were not provided."}' }), 401))
    expect(failure.message).toMatch(/^GET answered 403, expected 401: Django REST framework answers 403 .*authenticate_header\(\)/)
    // the browsable API's page of it, to a browser's Accept
    const page = '<pre class="prettyprint"><span class="meta nocode"><b>HTTP 403 Forbidden</b></span>{\n    &quot;detail&quot;: &quot;Authentication credentials were not provided.&quot;\n}</pre>'
    expect(failureOf(() => expectStatus(makeResponse({ status: 403, headers: { 'content-type': 'text/html; charset=utf-8' }, body: page }), 401)).message).toMatch(/expected 401: Django REST framework answers 403/)
    // a 403 with other words keeps the gateway's and Spring's
    expect(failureOf(() => expectStatus(makeResponse({ status: 403, body: '{"detail":"You do not have permission to perform this action."}' }), 401)).message).not.toMatch(/Django/)
  })

  test("a 403 with FastAPI's words where §5.3 asks 401: its security classes before 0.122", () => {
    for (const body of ['{"detail":"Not authenticated"}', '{"detail":"Invalid authentication credentials"}']) {
      const failure = failureOf(() => expectStatus(makeResponse({ status: 403, body }), 401))
      expect(failure.message).toMatch(/^GET answered 403, expected 401: FastAPI's security classes \(HTTPBearer, .*HTTPBearer\(auto_error=False\)/)
    }
  })

  test("a 301 to the path with a trailing slash: Django's APPEND_SLASH", () => {
    const failure = failureOf(() => expectStatus(makeResponse({ status: 301, headers: { location: '/v1/categories/', 'content-type': 'text/html; charset=utf-8' } }), 200))
    expect(failure.message).toMatch(/^GET answered 301 redirecting to \/v1\/categories\/ \(redirects are not followed\), expected 200: Django's APPEND_SLASH .*trailing_slash=False/)
    // a redirect elsewhere is not this
    expect(failureOf(() => expectStatus(makeResponse({ status: 301, headers: { location: 'https://127.0.0.1/v1/categories' } }), 200)).message).not.toMatch(/APPEND_SLASH/)
  })

  test("the same redirect as Go's http.Redirect writes it (a ServeMux subtree pattern): named as Go's, not Django's", () => {
    // measured on Go 1.19: a GET gets an HTML link, a POST no Content-Type and no body
    const get = makeResponse({ status: 301, headers: { location: '/v1/categories/', 'content-type': 'text/html; charset=utf-8' }, body: '<a href="/v1/categories/">Moved Permanently</a>.\n\n' })
    const post = makeResponse({ status: 301, headers: { location: '/v1/categories/' }, method: 'POST' })
    for (const [result, expected] of [[get, 200], [post, 201]] as const) {
      const failure = failureOf(() => expectStatus(result, expected))
      expect(failure.message).toMatch(/expected \d+: Go's ServeMux redirects .*mux\.HandleFunc\("\/v1\/categories\/", …\).*register "\/v1\/categories"$/)
      expect(failure.message).not.toMatch(/APPEND_SLASH/)
    }
  })

  test("a 200 to the key under the Token scheme, or before a comma: Rails' authenticate_with_http_token", () => {
    const result = makeResponse({ status: 200, body: '[]' })
    result.exchange.request.headers.authorization = 'Token $CONFORM_API_KEY'
    expect(failureOf(() => expectStatus(result, 401)).message).toMatch(/^GET answered 200, expected 401: the key was taken under the Token scheme: Rails' authenticate_with_http_token/)
    // Token is also the keyword of Django REST framework's TokenAuthentication (as mutation token-scheme-accepted lets it in), whose fix is DRF's
    expect(failureOf(() => expectStatus(result, 401)).message).toMatch(/Django REST framework's TokenAuthentication .*in DRF, leave TokenAuthentication out/)
    result.exchange.request.headers.authorization = 'Bearer $CONFORM_API_KEY,x'
    expect(failureOf(() => expectStatus(result, 401)).message).toMatch(/^GET answered 200, expected 401: the token was read as what precedes the comma: Rails' token_and_options/)
    // measured on HAProxy 2.6 owning the key in front of a service that checks none: req.hdr splits the line at its commas, req.fhdr passed
    expect(failureOf(() => expectStatus(result, 401)).message).toMatch(/an ACL on HAProxy's req\.hdr\(authorization\) .* \(req\.fhdr\(authorization\) takes the whole line\)/)
    result.exchange.request.headers.authorization = 'Basic $CONFORM_API_KEY'
    expect(failureOf(() => expectStatus(result, 401)).message).toBe('GET answered 200, expected 401')
  })
})

test("a plain-text 401 of Rails' request_http_token_authentication", () => {
  const failure = failureOf(() => expectErrorRecord(makeResponse({ status: 401, headers: { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Token realm="Application"' }, body: 'HTTP Token: Access denied.\n' })))
  expect(failure.code).toBe('NOT_JSON')
  expect(failure.message).toMatch(/^the 401 body is not valid JSON; "HTTP Token: Access denied\." in text\/plain is what Rails' request_http_token_authentication answers/)
  expect(failureOf(() => expectErrorRecord(makeResponse({ status: 401, body: 'Unauthorized' }))).message).toBe('the 401 body is not valid JSON')
})

test("DRF's browsable API answering a browser's Accept: the page and its media type name BrowsableAPIRenderer", () => {
  const page = '\n\n<!DOCTYPE html>\n<html>\n  <head>\n    <link rel="stylesheet" type="text/css" href="/static/rest_framework/css/bootstrap.min.css"/>\n<title>Category List – Django REST framework</title>'
  const result = makeResponse({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8', vary: 'Accept' }, body: page })
  expect(failureOf(() => jsonBodyOf(result)).message).toMatch(/^the 200 body is not valid JSON; it is Django REST framework's browsable API.*DEFAULT_RENDERER_CLASSES/)
  expect(failureOf(() => expectJsonContentType(result)).message).toMatch(/^the 200 response is not declared as application\/json; it is Django REST framework's browsable API/)
  // another HTML page is not this
  expect(failureOf(() => expectJsonContentType(makeResponse({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<html></html>' }))).message).toBe('the 200 response is not declared as application/json')
})

describe("Go's http.Error", () => {
  // measured on Go 1.19: http.Error(w, err.Error(), 400) to a body that is not JSON
  const goError = (headers: Record<string, string>) => makeResponse({ status: 400, headers, body: 'unexpected EOF\n', method: 'POST' })
  const GO_HEADERS = { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' }

  test('its text/plain error is named as Go\'s, by the body check and the media type check alike', () => {
    expect(failureOf(() => jsonBodyOf(goError(GO_HEADERS))).message).toMatch(/^the 400 body is not valid JSON; it is what Go's http\.Error writes .*json\.NewEncoder/)
    expect(failureOf(() => expectJsonContentType(goError(GO_HEADERS))).message).toMatch(/^the 400 response is not declared as application\/json; it is what Go's http\.Error writes /)
  })

  test('text/plain without nosniff, or without the line break, is not (Koa\'s, Fastify\'s)', () => {
    expect(failureOf(() => expectJsonContentType(goError({ 'content-type': 'text/plain; charset=utf-8' }))).message).not.toMatch(/Go's http\.Error/)
    const unbroken = makeResponse({ status: 400, headers: GO_HEADERS, body: 'Bad Request', method: 'POST' })
    expect(failureOf(() => jsonBodyOf(unbroken)).message).not.toMatch(/Go's http\.Error/)
  })
})

describe("Go Fiber's default ErrorHandler (emulated from Fiber v2's documented defaults)", () => {
  const fiber = (status: number, body: string) => makeResponse({ status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body, method: 'POST' })

  test('its 404, keyauth\'s 401 and encoding/json\'s errors as text are named as Fiber\'s, not Koa\'s', () => {
    for (const [status, body] of [[404, 'Cannot GET /v1/store/orders'], [401, 'missing or malformed API Key'], [401, 'Invalid or expired API Key'], [400, "invalid character 'x' looking for beginning of value"], [400, 'unexpected end of JSON input'], [400, 'json: cannot unmarshal number into Go struct field NewCategory.name of type string']] as const) {
      expect(failureOf(() => jsonBodyOf(fiber(status, body))).message, body).toMatch(/it is an error's text as Go Fiber's default ErrorHandler writes it .*fiber\.Config\{ErrorHandler/)
      const typed = failureOf(() => expectJsonContentType(fiber(status, body))).message
      expect(typed, body).toMatch(/Go Fiber's default ErrorHandler/)
      expect(typed, body).not.toMatch(/Koa/)
    }
  })

  test('other texts in text/plain are not', () => {
    expect(failureOf(() => jsonBodyOf(fiber(400, 'Bad Request'))).message).not.toMatch(/Fiber/)
  })
})

describe("fasthttp's own answers (measured on fasthttp 1.31, Debian 12, a Server with MaxRequestBodySize)", () => {
  const fasthttp = (status: number, body: string) => makeResponse({ status, headers: { 'content-type': 'text/plain; charset=utf-8', server: 'fasthttp', connection: 'close' }, body, method: 'POST' })

  test('a body past MaxRequestBodySize, answered 400 "Error when parsing request", is named as fasthttp\'s, not Koa\'s', () => {
    for (const [status, body] of [[400, 'Error when parsing request'], [431, 'Too big request header'], [408, 'Request timeout']] as const) {
      expect(failureOf(() => jsonBodyOf(fasthttp(status, body))).message, body).toMatch(/it is fasthttp's own answer, written before the service's handler runs .*Server\.ErrorHandler/)
      const typed = failureOf(() => expectJsonContentType(fasthttp(status, body))).message
      expect(typed, body).toMatch(/fasthttp's own answer/)
      expect(typed, body).not.toMatch(/Koa/)
    }
  })

  test('other texts are not', () => {
    expect(failureOf(() => jsonBodyOf(fasthttp(400, 'Error when parsing the request body'))).message).not.toMatch(/fasthttp/)
  })
})

describe('texts that came back changed', () => {
  test("spaces trimmed from both ends name DRF's trim_whitespace beside PHP's and Ruby's", () => {
    expect(firstDifference('  cf-x-padded  ', 'cf-x-padded')).toMatch(/PHP's trim\(\).*; Django REST framework's CharField takes leading and trailing whitespace away too \(trim_whitespace=True by default/)
  })

  test('spaces cut at a VARCHAR length (MariaDB in strict mode), where the service echoed what it was sent', () => {
    const sent = `cf-x-pad--16${' '.repeat(244)}`
    expect(firstDifference(sent, sent.slice(0, 255))).toMatch(/^; first difference at character 255: sent U\+0020, got its end \(lengths 256 and 255\); the spaces past 255 characters were cut: a VARCHAR\(255\) column cuts/)
    // spaces cut whole are a trim's (php-ruby-answers.ts), and a cut that took more than spaces is no column's silent cut
    expect(firstDifference('cf-x-pad  ', 'cf-x-pad')).not.toMatch(/VARCHAR\(8\)/)
    expect(firstDifference('cf-x-long-name', 'cf-x-long')).toBe('; first difference at character 9: sent U+002D, got its end (lengths 14 and 9)')
  })

  test("a lone surrogate replaced by U+FFFD: Go's encoding/json", () => {
    expect(firstDifference('cf-x-\ud800', 'cf-x-\ufffd')).toMatch(/^; first difference at character 5: sent U\+D800, got U\+FFFD \(lengths 6 and 6\); a lone surrogate became U\+FFFD: Go's encoding\/json \(so gin's ShouldBindJSON\)/)
    // U+FFFD where no surrogate was sent is not this, but bytes decoded apart (lib/http/body-pieces.ts)
    const whole = firstDifference('cf-x-a', 'cf-x-\ufffd')
    expect(whole).not.toMatch(/Go's encoding/)
    expect(whole).toMatch(/^; first difference at character 5: sent U\+0061, got U\+FFFD \(lengths 6 and 6\); the character came back as U\+FFFD.*body \+= chunk/)
  })
})
