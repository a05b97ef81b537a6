/**
 * A failure names the stack behind a well-known wrong answer and how it is fixed
 * (lib/checks/known-answers.ts): Spring Boot's default error body, an RFC 9457 problem detail, an
 * API gateway's own {"message": …}, Spring Security's empty 401 and its CSRF 403. The code and the
 * verdict stay those of the check; only the words are added.
 */
import { describe, expect, test } from 'vitest'
import { firstDifference } from '../../lib/checks/category.ts'
import { expectErrorRecord } from '../../lib/checks/error-record.ts'
import { expectJsonContentType, expectStatus, jsonBodyOf } from '../../lib/checks/response.ts'
import { expectSchema } from '../../lib/checks/schema.ts'
import { makeResponse, verdictOf } from './make-response.ts'

const failureOf = (check: () => unknown) => {
  const verdict = verdictOf(check)
  if (!('code' in verdict)) throw new Error(`expected a failure, got ${JSON.stringify(verdict)}`)
  return verdict
}

describe('the error body of another stack', () => {
  test.each([
    ["Spring Boot's default error body", { timestamp: '2026-11-26T09:00:00.000+00:00', status: 400, error: 'Bad Request', path: '/v1/categories' }, /Spring Boot's default error body.*@RestControllerAdvice/],
    ['an RFC 9457 problem detail', { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'Invalid request content.', instance: '/v1/categories' }, /RFC 9457 problem detail.*setProperty\("code"/],
    ["a gateway's {\"message\"}", { message: 'Unauthorized' }, /API gateway answers on its own.*gateway response template/],
  ])('%s: SCHEMA_MISMATCH, and the message says whose body it is and how the Error record is written', (_label, body, words) => {
    const failure = failureOf(() => expectErrorRecord(makeResponse({ status: 401, body })))
    expect(failure.code).toBe('SCHEMA_MISMATCH')
    expect(failure.message).toMatch(/^the body is not an Error record \(code, message, status\): body lacks required property "code"; /)
    expect(failure.message).toMatch(words)
  })

  test("Azure API Management's own {statusCode, message}: named by its words, not as NestJS's (measured against an emulation)", () => {
    const apim = failureOf(() => expectErrorRecord(makeResponse({ status: 401, body: { statusCode: 401, message: 'Unauthorized. Access token is missing or invalid.' } })))
    expect(apim.message).toMatch(/; it is Azure API Management's own error body \(statusCode, message\).*<on-error>/)
    expect(apim.message).not.toMatch(/NestJS/)
    // NestJS's UnauthorizedException has the same two keys, with its own words
    expect(failureOf(() => expectErrorRecord(makeResponse({ status: 401, body: { statusCode: 401, message: 'Unauthorized' } }))).message).toMatch(/NestJS's default exception body/)
  })

  test('a body of another shape gets no origin', () => {
    const failure = failureOf(() => expectErrorRecord(makeResponse({ status: 400, body: { error: 'bad', status: 400 } })))
    expect(failure.message).toBe('the body is not an Error record (code, message, status): body lacks required property "code"')
  })

  test("an empty 401 with WWW-Authenticate: Bearer names Spring Security's entry point", () => {
    const failure = failureOf(() => expectErrorRecord(makeResponse({ status: 401, headers: { 'www-authenticate': 'Bearer' }, body: '' })))
    expect(failure.code).toBe('NOT_JSON')
    expect(failure.message).toMatch(/^the 401 body is not valid JSON; an empty 401 and only WWW-Authenticate: Bearer is what Spring Security's BearerTokenAuthenticationEntryPoint answers/)
    // and the JDK's HttpServer, whose Authenticator.Failure(401) is answered with no body (a Java 17 service)
    expect(failure.message).toMatch(/the JDK's own HttpServer \(com\.sun\.net\.httpserver\) answers so for an Authenticator that returns new Failure\(401\)/)
    // an empty 400 is no known stack's
    expect(failureOf(() => expectErrorRecord(makeResponse({ status: 400, body: '' }))).message).toBe('the 400 body is not valid JSON')
  })
})

describe("aiohttp's own 500", () => {
  test('to a body that is not UTF-8 names request.json() and the except clause that misses UnicodeDecodeError', () => {
    // what aiohttp 3.8.4 answered to a create whose body held 0xFF, where the handler caught json.JSONDecodeError only
    const result = makeResponse({ status: 500, method: 'POST', headers: { 'content-type': 'text/plain; charset=utf-8' }, body: '500 Internal Server Error\n\nServer got itself in trouble' })
    const failure = failureOf(() => expectStatus(result, 400))
    expect(failure.code).toBe('SERVER_ERROR')
    expect(failure.message).toMatch(/Server got itself in trouble is aiohttp's own answer .* except json\.JSONDecodeError does not catch \(catch ValueError/)
  })
})

describe("the JDK's HttpServer answering a path no context took", () => {
  test('its own 404 page to a request without a key names createContext and the Filter that answers 401 first', () => {
    // what Java 17's com.sun.net.httpserver sent for GET /v1/store/orders with no context for it
    const result = makeResponse({ status: 404, headers: { 'content-type': 'text/html' }, body: '<h1>404 Not Found</h1>No context found for request' })
    expect(failureOf(() => expectStatus(result, 401)).message).toMatch(/^GET answered 404, expected 401: No context found for request is the JDK's own HttpServer \(com\.sun\.net\.httpserver\)/)
    // a 404 of another body keeps the routers' words
    expect(failureOf(() => expectStatus(makeResponse({ status: 404, body: '' }), 401)).message).not.toMatch(/HttpServer/)
  })
})

describe("Python's http.server answering the body of the request before", () => {
  // BaseHTTPRequestHandler.send_error's page, for a request line it read out of an unread JSON body
  const page = (code: number, message: string) => `<!DOCTYPE HTML>\n<html lang="en">\n<body>\n<h1>Error response</h1>\n<p>Error code: ${code}</p>\n<p>Message: ${message}.</p>\n</body>\n</html>\n`
  test('a 501 "Unsupported method" of JSON: a server fault, and the message says the request before it left its body unread', () => {
    const result = makeResponse({ status: 501, method: 'POST', headers: { 'content-type': 'text/html;charset=utf-8' }, body: page(501, `Unsupported method ('{"description":"cf-x-noname"}POST')`) })
    const failure = failureOf(() => expectStatus(result, 400))
    expect(failure.code).toBe('SERVER_ERROR')
    expect(failure.message).toMatch(/Python's http\.server read a request line out of JSON: on a kept-alive connection, the body of the request before it/)
    expect(failure.message.match(/Python's http\.server/g)).toHaveLength(1)
  })
  test('a 400 "Bad request syntax" of JSON where 201 is expected says the same; one of another line names nothing', () => {
    const result = makeResponse({ status: 400, method: 'POST', headers: { 'content-type': 'text/html;charset=utf-8' }, body: page(400, `Bad request syntax ('{"name": "cf-x"}POST /v1/categories HTTP/1.1')`) })
    expect(failureOf(() => expectStatus(result, 201)).message).toMatch(/^POST answered 400, expected 201: Python's http\.server read a request line out of JSON/)
    const other = makeResponse({ status: 400, method: 'POST', body: page(400, "Bad request syntax ('GET')") })
    expect(failureOf(() => expectStatus(other, 201)).message).toBe('POST answered 400, expected 201')
  })
})

describe('a Content-Length counted in characters', () => {
  const cut = (text: string, declared: number, headers: Record<string, string> = {}) => {
    const result = makeResponse({ status: 201, body: text, headers: { 'content-type': 'application/json', 'content-length': String(declared), ...headers } })
    return failureOf(() => jsonBodyOf(result)).message
  }
  test('a JSON body ending mid-value where its Content-Length says, with characters outside ASCII: names the length counted in characters', () => {
    // {"id":1,"name":"café 🐇"} is 30 characters in UTF-16 and 34 bytes: the body stops 4 bytes short
    const whole = JSON.stringify({ id: 1, name: 'café 🐇' })
    const sent = Buffer.from(whole).subarray(0, whole.length).toString()
    expect(cut(sent, Buffer.byteLength(sent))).toMatch(/ends mid-JSON exactly where its Content-Length \(\d+ bytes\) says.*sendResponseHeaders\(200, json\.length\(\)\).*Buffer\.byteLength/)
  })
  test('ASCII only, a body that ends whole, or one shorter than its Content-Length: no such words', () => {
    const ascii = '{"id":1,"name":"caf'
    expect(cut(ascii, ascii.length)).not.toMatch(/counted in characters/)
    const other = '{"id":1,"name":"café",}'
    expect(cut(other, Buffer.byteLength(other))).not.toMatch(/counted in characters/)
    const short = '{"id":1,"name":"café'
    expect(cut(short, Buffer.byteLength(short) + 10)).not.toMatch(/counted in characters/)
  })
})

describe('a 403 where §5.3 asks 401', () => {
  test("a POST without a bearer token: Spring Security's CSRF protection", () => {
    const result = makeResponse({ status: 403, method: 'POST' })
    const failure = failureOf(() => expectStatus(result, 401))
    expect(failure.code).toBe('UNEXPECTED_STATUS')
    expect(failure.message).toMatch(/^POST answered 403, expected 401: Spring Security's CSRF protection.*http\.csrf\(c -> c\.disable\(\)\)/)
  })

  test('a request with a bearer token: no CSRF, a gateway authorizer or an authorization refused', () => {
    const result = makeResponse({ status: 403, method: 'POST' })
    result.exchange.request.headers.authorization = 'Bearer $CONFORM_API_KEY-wrong'
    const failure = failureOf(() => expectStatus(result, 401))
    expect(failure.message).not.toMatch(/CSRF/)
    expect(failure.message).toMatch(/AWS API Gateway/)
  })

  test.each([
    ['Cloudflare', '<!DOCTYPE html><title>Attention Required! | Cloudflare</title><h1>Sorry, you have been blocked</h1>'],
    ['Akamai', '<HTML><HEAD><TITLE>Access Denied</TITLE></HEAD><BODY><H1>Access Denied</H1>You don\'t have permission to access "http&#58;&#47;&#47;api&#46;example&#46;com&#47;v1&#47;categories" on this server.<P>Reference&#32;&#35;18&#46;2f1e1702&#46;1764200000&#46;1a2b3c</BODY></HTML>'],
  ])("%s's block page: the firewall's, whatever the request (not CSRF, not an authorizer), and where a create is refused with it", (front, body) => {
    const post = makeResponse({ status: 403, method: 'POST', headers: { 'content-type': 'text/html' }, body })
    const failure = failureOf(() => expectStatus(post, 401))
    expect(failure.message).toMatch(new RegExp(`^POST answered 403 \\(${front}'s block page: its firewall refused the request before the service saw it .*\\), expected 401$`))
    expect(failure.message).not.toMatch(/CSRF|authorizer/)
    expect(failureOf(() => expectStatus(post, 201)).message).toMatch(new RegExp(`^POST answered 403 \\(${front}'s block page.*\\), expected 201$`))
  })

  test('other statuses get no origin', () => {
    expect(failureOf(() => expectStatus(makeResponse({ status: 404, method: 'POST' }), 401)).message).toBe('POST answered 404, expected 401')
  })
})

test('application/problem+json: WRONG_CONTENT_TYPE, saying whose media type it is', () => {
  const failure = failureOf(() => expectJsonContentType(makeResponse({ status: 400, headers: { 'content-type': 'application/problem+json;charset=UTF-8' }, body: '{}' })))
  expect(failure.code).toBe('WRONG_CONTENT_TYPE')
  expect(failure.message).toMatch(/^the 400 response is not declared as application\/json; application\/problem\+json is the media type Spring/)
  expect(failureOf(() => expectJsonContentType(makeResponse({ status: 400, headers: { 'content-type': 'text/html' }, body: '' }))).message).toBe('the 400 response is not declared as application/json')
})

// measured (stackhunt11): a front that answers problem+json unless the request names application/json, as Spring negotiates a ProblemDetail
// review52: a server that answers problem+json to every Accept (ASP.NET Core) got the negotiation's words alone; one answer cannot tell them apart, so both are said
test("application/problem+json to an Accept that does not name application/json: the words say Spring's negotiation may have given it, or a type given to every Accept", () => {
  const asked = (accept?: string) =>
    failureOf(() => expectJsonContentType(makeResponse({ status: 401, headers: { 'content-type': 'application/problem+json' }, body: '{}', requestHeaders: accept === undefined ? {} : { accept } }))).message
  expect(asked('*/*')).toMatch(/; asked with Accept: \*\/\*: where errors asked with Accept: application\/json come as application\/json, the service negotiates as Spring does a ProblemDetail \(application\/problem\+json wherever the Accept allows it, application\/json only to a request that names it\)/)
  expect(asked('*/*')).toMatch(/; where they come as application\/problem\+json too, it is given to every Accept \(ASP\.NET Core's ProblemDetails, a produces of problem\+json\)/)
  expect(asked()).toMatch(/; asked with no Accept: where errors asked with Accept: application\/json/)
  expect(asked('application/json')).not.toMatch(/asked with/)
})

describe('null where the schema gives a type', () => {
  test("a record's description written as null names the serialiser's default and spring.jackson.default-property-inclusion", () => {
    const failure = failureOf(() => expectSchema(makeResponse({ status: 201, method: 'POST', body: { id: 1, name: 'dog', description: null } }), 'Category'))
    expect(failure.code).toBe('SCHEMA_MISMATCH')
    expect(failure.message).toMatch(/^the body is not a Category record: body\.description must be string; body\.description is null: a serialiser writes a field it has no value for as null by default \(Jackson, so Spring Boot.*default-property-inclusion=non_null/)
  })

  test('in a list, the element that holds it', () => {
    const failure = failureOf(() => expectSchema(makeResponse({ body: [{ id: 1, name: 'dog', description: 'd' }, { id: 2, name: 'cat', description: null }] }), 'CategoryList'))
    expect(failure.message).toContain('; body[1].description is null: ')
  })

  test("a list that is null names Go's nil slice; a record that is null does not", () => {
    const list = failureOf(() => expectSchema(makeResponse({ body: null }), 'CategoryList', 'an array of Category records'))
    expect(list.code).toBe('SCHEMA_MISMATCH')
    expect(list.message).toMatch(/^the body is not an array of Category records: body must be array; the list is null: Go's encoding\/json writes a nil slice so/)
    expect(failureOf(() => expectSchema(makeResponse({ status: 201, method: 'POST', body: null }), 'Category')).message).not.toContain('nil slice')
  })

  test("a list that is {} names lua-cjson's empty table; a record that is {} does not", () => {
    const list = failureOf(() => expectSchema(makeResponse({ body: {} }), 'CategoryList', 'an array of Category records'))
    expect(list.message).toMatch(/^the body is not an array of Category records: body must be array; the list is \{\}: lua-cjson writes an empty Lua table as an object/)
    expect(failureOf(() => expectSchema(makeResponse({ body: { data: [] } }), 'CategoryList')).message).not.toContain('lua-cjson')
    expect(failureOf(() => expectSchema(makeResponse({ status: 201, method: 'POST', body: {} }), 'Category')).message).not.toContain('lua-cjson')
  })

  test('a required field written as null gets no such words: leaving it out, as non_null does, fails all the same', () => {
    const name = failureOf(() => expectSchema(makeResponse({ status: 201, method: 'POST', body: { id: 1, name: null, description: 'd' } }), 'Category'))
    expect(name.message).toBe('the body is not a Category record: body.name must be string')
    const code = failureOf(() => expectSchema(makeResponse({ status: 400, method: 'POST', body: { code: null, message: 'm', status: 400 } }), 'Error'))
    expect(code.message).toBe('the body is not a Error record: body.code must be string')
  })

  test("an id written as text names Jackson's ToStringSerializer", () => {
    const failure = failureOf(() => expectSchema(makeResponse({ status: 201, method: 'POST', body: { id: '9007199254740993', name: 'dog' } }), 'Category'))
    expect(failure.message).toMatch(/^the body is not a Category record: body\.id must be integer; body\.id is "9007199254740993": an integer written as text, as Jackson's ToStringSerializer/)
    expect(failureOf(() => expectSchema(makeResponse({ status: 201, method: 'POST', body: { id: 'abc', name: 'dog' } }), 'Category')).message).toBe('the body is not a Category record: body.id must be integer')
  })

  // measured by stackhunt10: Flask 2.2's jsonify writes a decimal.Decimal (psycopg2's NUMERIC) as text
  test("an id written as text names Python's decimal.Decimal under Flask's jsonify", () => {
    const failure = failureOf(() => expectSchema(makeResponse({ status: 201, method: 'POST', body: { id: '9007199254740993', name: 'dog' } }), 'Category'))
    expect(failure.message).toMatch(/psycopg2 gives a NUMERIC column .* as a decimal\.Decimal, which Flask's jsonify writes as text .*: an id column of BIGINT is an int/)
  })

  // measured against an emulation of grpc-gateway's default marshaler in front of the reference server (docs/adoption.md)
  test("proto3's JSON mapping: an int64 as a string, \"\" left out, a gRPC error as google.rpc.Status", () => {
    const id = failureOf(() => expectSchema(makeResponse({ status: 201, method: 'POST', body: { id: '559', name: 'dog' } }), 'Category'))
    expect(id.message).toMatch(/proto3's JSON mapping writes every int64 as a string \(grpc-gateway's default marshaler.*runtime\.JSONBuiltin/)
    expect(firstDifference('', undefined)).toMatch(/proto3's JSON mapping leaves out a string field holding "", its default/)
    const status = failureOf(() => expectErrorRecord(makeResponse({ status: 400, body: { code: 3, message: 'proto: syntax error', details: [] } })))
    expect(status.message).toMatch(/^the body is not an Error record \(code, message, status\): .*; it is google\.rpc\.Status, as grpc-gateway's default error handler .*runtime\.WithErrorHandler/)
    // a code of text with details is no gRPC status
    expect(failureOf(() => expectErrorRecord(makeResponse({ status: 400, body: { code: 'bad', message: 'x', details: [] } }))).message).not.toMatch(/google\.rpc\.Status/)
  })

  test("an Error's status written as text is told so, without the ids' causes (a Long id's serialiser, PDO's lastInsertId())", () => {
    const failure = failureOf(() => expectErrorRecord(makeResponse({ status: 400, method: 'POST', body: { code: 'invalid', message: 'm', status: '400' } })))
    expect(failure.message).toBe(
      'the body is not an Error record (code, message, status): body.status must be integer; body.status is "400": an integer written as text (the status put in the body as a string, String(status) or a template); §2 gives the field the type integer, which JSON carries as a number',
    )
  })

  test('a null that no problem names adds nothing', () => {
    const failure = failureOf(() => expectSchema(makeResponse({ status: 201, method: 'POST', body: { name: 'dog', extra: null } }), 'Category'))
    expect(failure.message).toBe('the body is not a Category record: body lacks required property "id"')
  })
})

describe('a stored text that came back changed the way a known store changes it', () => {
  test("a character its column cannot hold, written as '?' (SQL Server VARCHAR, a single-byte Oracle character set)", () => {
    expect(firstDifference('dog \u{1F407}', 'dog ?')).toMatch(/^; first difference at character 4: sent U\+1F407, got U\+003F \(lengths 6 and 5\); the character became '\?'.*SQL Server VARCHAR.*NVARCHAR/)
    // a '?' sent is no such case
    expect(firstDifference('a?b', 'a?c')).toBe('; first difference at character 2: sent U+0062, got U+0063 (lengths 3 and 3)')
  })

  test("an empty string back as no value: Oracle's '' = NULL", () => {
    expect(firstDifference('', undefined)).toMatch(/^; an empty string came back as no value: Oracle stores '' as NULL/)
    expect(firstDifference('', null)).toMatch(/Oracle stores '' as NULL/)
    expect(firstDifference('x', undefined)).toBe('')
  })

  test('a text form of no value ("null", "None", "undefined") back as none: a store that writes no value as text and reads it back so', () => {
    expect(firstDifference('None', undefined)).toMatch(/^; the text "None" came back as no value: .*Python's str\(None\).*keep no value apart from text/)
    expect(firstDifference('undefined', undefined)).toMatch(/String\(undefined\)/)
    expect(firstDifference('null', null)).toMatch(/^; the text "null" came back as no value: .*String\.valueOf\(null\)/)
    // changed into other text, or another word: no such words
    expect(firstDifference('null', 'nul')).not.toMatch(/no value/)
    expect(firstDifference('NULL', undefined)).toBe('')
  })
})

describe("a gateway's own statuses", () => {
  test("AWS API Gateway's own 403 Missing Authentication Token", () => {
    const result = makeResponse({ status: 403, body: { message: 'Missing Authentication Token' }, path: '/store/orders' })
    expect(failureOf(() => expectStatus(result, 401)).message).toMatch(/^GET answered 403, expected 401: Missing Authentication Token is what AWS API Gateway answers itself, .*MISSING_AUTHENTICATION_TOKEN can be given status 401/)
    // the same missing route, to a request with the service's bearer key, which its signature parser reads: no authorizer's refusal
    const signed = makeResponse({ status: 403, body: { message: "Invalid key=value pair (missing equal-sign) in Authorization header (hashed with SHA-256 and encoded with Base64): 'q1Hb2PnZ0Vc='." }, path: '/store/orders' })
    signed.exchange.request.headers.authorization = 'Bearer $CONFORM_API_KEY-wrong'
    const failure = failureOf(() => expectStatus(signed, 401))
    expect(failure.message).toMatch(/^GET answered 403, expected 401: Missing Authentication Token is what AWS API Gateway answers itself, .*no route for/)
    expect(failure.message).not.toMatch(/User is not authorized/)
  })

  test.each([
    [502, /^GET answered 502 \(a server fault, which the document gives no request it describes; a gateway's answer when the service behind it closed the connection/],
    [504, /^GET answered 504 \(a server fault, which the document gives no request it describes; a gateway's answer when the service behind it did not answer within/],
  ])('%i says the service behind the gateway failed', (status, words) => {
    const failure = failureOf(() => expectStatus(makeResponse({ status, headers: { 'content-type': 'text/html' }, body: '<html>Bad Gateway</html>' }), 200))
    expect(failure.code).toBe('SERVER_ERROR')
    expect(failure.message).toMatch(words)
  })
  // both measured in front of the reference server (docs/adoption.md)
  test("Apache httpd's 502 when ProxyTimeout passes, and Caddy 2.6's empty 502 to a body over request_body max_size", () => {
    const httpd = '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>502 Proxy Error</title>\n</head><body>\n<h1>Proxy Error</h1>\n<p>The proxy server received an invalid\r\nresponse from an upstream server.<br />\r\nThe proxy server could not handle the request<p>Reason: <strong>Error reading from remote server</strong></p></p>\n</body></html>\n'
    expect(failureOf(() => expectStatus(makeResponse({ status: 502, headers: { 'content-type': 'text/html; charset=iso-8859-1', server: 'Apache/2.4.71 (Debian)' }, body: httpd }), 200)).message).toMatch(/^GET answered 502 \(a server fault, which the document gives no request it describes; Apache httpd's answer when the service behind it did not answer within ProxyTimeout/)
    const caddy = failureOf(() => expectStatus(makeResponse({ status: 502, method: 'POST', headers: { server: 'Caddy', 'content-length': '0' }, body: '' }), 201))
    expect(caddy.message).toMatch(/^POST answered 502 \(a server fault, .*; Caddy's answer when the service behind it closed the connection or sent no valid answer, and Caddy 2\.6's to a body larger than its request_body max_size \(Caddy 2\.7 answers that 413\)\)/)
    // an empty 502 from another gateway keeps the general words
    expect(failureOf(() => expectStatus(makeResponse({ status: 502, headers: {}, body: '' }), 200)).message).toMatch(/a gateway's answer when the service behind it closed the connection/)
  })

  // measured in front of the reference server (an emulated zone: docs/adoption.md)
  test.each([
    [520, /Cloudflare's 520: the service answered what Cloudflare could not read \(an empty answer, a reset connection/],
    [524, /Cloudflare's 524: the service did not answer within Cloudflare's 100 s/],
  ])("Cloudflare's own %i (cf-ray) says what it met at the service", (status, words) => {
    const page = '<!DOCTYPE html><title>api.example.com | 520: Web server is returning an unknown error</title>'
    const failure = failureOf(() => expectStatus(makeResponse({ status, headers: { 'content-type': 'text/html; charset=UTF-8', server: 'cloudflare', 'cf-ray': '8e1f2a3b4c5d6e7f-FRA' }, body: page }), 200))
    expect(failure.code).toBe('SERVER_ERROR')
    expect(failure.message).toMatch(words)
    // without cf-ray, a 520 is no Cloudflare page
    expect(failureOf(() => expectStatus(makeResponse({ status, headers: {}, body: page }), 200)).message).not.toMatch(/Cloudflare's/)
  })
})

describe('a create answered other than 201 with its record', () => {
  test('200: the framework default of a handler that returns the record', () => {
    const failure = failureOf(() => expectStatus(makeResponse({ status: 200, method: 'POST', body: { id: 1, name: 'dog' } }), 201))
    expect(failure.code).toBe('UNEXPECTED_STATUS')
    expect(failure.message).toMatch(/^POST answered 200, expected 201: a handler that returns the record is answered 200 unless it says otherwise: Spring MVC \(@ResponseStatus\(HttpStatus\.CREATED\)/)
    expect(failure.message).toMatch(/LoopBack 4 whatever responses the operation declares \(response\.status\(201\)/)
    // a 200 to a list is no such case
    expect(failureOf(() => expectStatus(makeResponse({ status: 200 }), 201)).message).toBe('GET answered 200, expected 201')
  })

  test("403 to a valid create: Spring Security's CSRF protection in front of a key filter of the service's own", () => {
    const failure = failureOf(() => expectStatus(makeResponse({ status: 403, method: 'POST', body: '' }), 201))
    expect(failure.message).toMatch(/^POST answered 403, expected 201: Spring Security's CSRF protection, on by default, refuses with 403 every POST .*http\.csrf/)
  })

  test("an empty 201: Spring's ResponseEntity.created(location).build()", () => {
    const failure = failureOf(() => expectSchema(makeResponse({ status: 201, method: 'POST', headers: { location: '/v1/categories/1' }, body: '' }), 'Category'))
    expect(failure.code).toBe('NOT_JSON')
    expect(failure.message).toMatch(/^the 201 body is not valid JSON; an empty 201 is what Spring's ResponseEntity\.created\(location\)\.build\(\) answers/)
  })
})

test("application/xml: Spring's XML converter, picked for a browser's Accept", () => {
  const failure = failureOf(() => expectJsonContentType(makeResponse({ status: 200, headers: { 'content-type': 'application/xml;charset=UTF-8' }, body: '<List/>' })))
  expect(failure.code).toBe('WRONG_CONTENT_TYPE')
  expect(failure.message).toMatch(/^the 200 response is not declared as application\/json; Spring MVC answers XML .*jackson-dataformat-xml/)
})

describe('421 Misdirected Request', () => {
  test('to an IP address names the server name (SNI) a client cannot send for one, and what Caddy checks', () => {
    const failure = failureOf(() => expectStatus(makeResponse({ status: 421, body: '' }), 200))
    expect(failure.message).toMatch(/^GET answered 421, expected 200: 421 Misdirected Request: .*Caddy answers it to a request whose Host differs from the TLS server name \(SNI\).*give the base URL by the host name the certificate names$/)
  })

  test('to a host name: no such words (the name was sent)', () => {
    const response = makeResponse({ status: 421, body: '' })
    response.exchange.request.url = 'https://petstore.example/v1/categories'
    expect(failureOf(() => expectStatus(response, 200)).message).toBe('GET answered 421, expected 200')
  })
})
