/**
 * What an answer the document does not allow says of a Django REST framework, Rails, Mojolicious
 * or gin service that gives it by default, beside the Spring and gateway words of known-answers.ts
 * (which calls these) and the PHP and Sinatra ones of php-ruby-answers.ts. Measured against
 * services written as such teams write them, on Debian 12's packages: DRF 3.14 on Django 3.2
 * (SQLite, PostgreSQL 15), Rails 6.1 in API mode on Puma (its scaffold, sqlite3), Mojolicious 9.31
 * (DBD::MariaDB, DBD::SQLite) and gin 1.8 (lib/pq); and FastAPI 0.92's security classes and
 * Dancer2 0.400001's error body, twisted.web 22.4's text/html, aiohttp 3.8.4's web.HTTPException as
 * text, a key check that strips the scheme as a prefix, and the trailing-slash redirects of Starlette
 * 0.26 (FastAPI 0.92) and Werkzeug 2.2 (Flask). The verdict and the failure code never depend
 * on these words; each returns undefined for any other answer.
 */
import type { RecordedRequest, RecordedResponse } from '../http/exchange.ts'
import { KEY_PLACEHOLDER } from '../http/redact.ts'
import { TIMING_SAFE_EQUAL_ERROR } from './node-answers.ts'

const keysOf = (body: unknown): string[] => (body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [])
const isText = (value: unknown) => typeof value === 'string'

/** DRF's exception handler, and FastAPI's HTTPException: one key, detail. */
const DETAIL_ONLY =
  "a body of detail alone is what Django REST framework's exception handler answers (NotAuthenticated, AuthenticationFailed, ParseError: {\"detail\": …}), " +
  "and FastAPI's for an HTTPException; the Error record is {code, message, status} " +
  "(DRF: REST_FRAMEWORK['EXCEPTION_HANDLER'] set to a function that calls rest_framework.views.exception_handler and rewrites response.data; FastAPI: an exception_handler for HTTPException)"

/** FastAPI's answer to a RequestValidationError: detail, a list of {loc, msg, type}. */
const DETAIL_LIST =
  'a body of detail alone, a list of {loc, msg, type}, is what FastAPI answers for a RequestValidationError (pydantic\'s errors, status 422 unless a handler says otherwise); ' +
  'the Error record is {code, message, status} (FastAPI: an exception_handler for RequestValidationError that answers it, with 400)'

/** DRF's serializer.errors and Rails' record.errors: each field with its list of messages. */
const FIELD_MESSAGES =
  "a body of fields, each with a list of messages ({\"name\": [\"This field is required.\"]}), is Django REST framework's ValidationError (serializer.errors) " +
  "and what Rails' scaffold renders (render json: @category.errors); the Error record is {code, message, status} " +
  "(DRF: an EXCEPTION_HANDLER that writes it for ValidationError too; Rails: render json: { code: …, message: @category.errors.full_messages.join(', '), status: 400 }, status: :bad_request)"

/** ActionDispatch::PublicExceptions: what Rails answers for an exception no rescue_from took. */
const RAILS_PUBLIC_EXCEPTION =
  "a body of status and error alone is what Rails answers itself (ActionDispatch::PublicExceptions, {\"status\": 400, \"error\": \"Bad Request\"}) for an exception raised before or outside a rescue_from: " +
  'ActionController::ParameterMissing from params.require, a body that is not JSON (ActionDispatch::Http::Parameters::ParseError), or not UTF-8 (ActionController::BadRequest, raised while the parameters are read for the log); ' +
  'config.exceptions_app set to a Rack app that answers the Error record covers them all'

/** The reason phrases Rack writes in PublicExceptions' error, for the statuses an Error record goes with. */
const REASON_PHRASES: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 422: 'Unprocessable Entity', 500: 'Internal Server Error' }

/** Dancer2::Core::Error under a JSON serializer: what Dancer2 answers itself, for a body its serializer cannot read too (measured: 0.400001). */
const DANCER2_ERROR =
  "a body of title, message and status is Dancer2's own error under set serializer => 'JSON' ({\"title\": \"Error 400 - Bad Request\", \"message\": \"Failed to deserialize content: …\", \"status\": 400}), " +
  "which it answers before any route for a body its serializer cannot read; the Error record needs code: read the body in the route (Cpanel::JSON::XS's decode in an eval, no serializer for the request) and answer {code, message, status}"

/** Why an Error record has another shape, where DRF, Rails or Dancer2 writes it so. */
export function djangoRailsErrorBody(body: unknown): string | undefined {
  const keys = keysOf(body)
  if (keys.length === 1 && keys[0] === 'detail') return Array.isArray((body as { detail: unknown }).detail) ? DETAIL_LIST : DETAIL_ONLY
  const record = body as Record<string, unknown>
  if (keys.length === 3 && ['title', 'message', 'status'].every((k) => keys.includes(k)) && /^Error \d{3} - /.test(String(record.title))) return DANCER2_ERROR
  if (keys.length === 2 && typeof record.status === 'number' && record.error === REASON_PHRASES[record.status]) return RAILS_PUBLIC_EXCEPTION
  // keyed by the record's fields (DRF's non_field_errors among them), not a list of errors of its own ({"errors": […]})
  if (keys.length > 0 && !keys.includes('errors') && keys.every((k) => Array.isArray(record[k]) && (record[k] as unknown[]).length > 0 && (record[k] as unknown[]).every(isText))) return FIELD_MESSAGES
  return undefined
}

/** DRF's NotAuthenticated and AuthenticationFailed words, in its JSON {"detail": …} or in the browsable API's page of it. */
const DRF_AUTH_WORDS = /(?:"|&quot;)detail(?:"|&quot;)\s*:\s*(?:"|&quot;)(?:Authentication credentials were not provided\.|Incorrect authentication credentials\.|Invalid token)/

/** FastAPI's security classes' words for no credentials and for another scheme (HTTPBearer, HTTPDigest, APIKeyHeader). */
const FASTAPI_AUTH_WORDS = /"detail"\s*:\s*"(?:Not authenticated|Invalid authentication credentials)"/

/** Why a status came instead of the one expected, where DRF, Django, Rails or FastAPI answers it so. */
export function djangoRailsStatus(response: RecordedResponse, expected: number, request: RecordedRequest): string | undefined {
  // measured: FastAPI 0.92 (Debian 12), HTTPBearer() as a dependency of the app
  if (expected === 401 && response.status === 403 && FASTAPI_AUTH_WORDS.test(response.body)) {
    return (
      'FastAPI\'s security classes (HTTPBearer, HTTPDigest, APIKeyHeader, with auto_error) answer 403 {"detail": "Not authenticated"} to a request without credentials and {"detail": "Invalid authentication credentials"} to another scheme ' +
      '(401 only from FastAPI 0.122 on, fastapi/fastapi#13786); §5.3 asks 401: HTTPBearer(auto_error=False) and raise HTTPException(401) for a missing or wrong key, ' +
      'or a middleware that checks the key for every path (a dependency runs only for a route FastAPI has: GET /store/orders is its 404)'
    )
  }
  if (expected === 401 && response.status === 403 && DRF_AUTH_WORDS.test(response.body)) {
    return (
      "Django REST framework answers 403 to a request it could not authenticate when the first of its authentication classes has no authenticate_header() " +
      '(a BaseAuthentication of the service\'s own, or SessionAuthentication): an authenticate_header() that returns \'Bearer\' makes it answer 401 with WWW-Authenticate: Bearer (§5.3)'
    )
  }
  const location = response.headers.location ?? ''
  const toSlash = /\/categories\/(\?[^#]*)?$/.test(location) && !/\/$/.test(request.url.replace(/[?#].*$/, ''))
  // measured: FastAPI 0.92 (Starlette 0.26) answers 307 with no body; Flask 2.2 (Werkzeug 2.2) 308 with its "Redirecting..." page
  const than = "a client does not follow it with its POST body, and §4 gives the path without the slash"
  // Starlette writes its Location as an absolute URL (URL(scope=…)); Gin's http.Redirect writes the path alone, 307 to any method but GET (review48)
  if (toSlash && response.status === 307 && response.body === '' && !/^https?:\/\//i.test(location)) {
    return (
      "Gin's router answers a path without its trailing slash 307 when only the route with it is registered (r.POST(\"/v1/categories/\", …); RedirectTrailingSlash, on by default, answers 301 to a GET), before the route's handlers check the key; " +
      `${than}: register the route without it (r.POST("/v1/categories", …))`
    )
  }
  if (toSlash && response.status === 307 && response.body === '') {
    return (
      "Starlette's Router (FastAPI) answers 307 to a path without its trailing slash when only the route with it is declared (@router.get(\"/categories/\"); redirect_slashes=True by default), before a route's dependencies check the key; " +
      `${than}: declare the route without it (@router.get("/categories"))`
    )
  }
  if (toSlash && response.status === 308 && /<title>Redirecting\.\.\.<\/title>/.test(response.body)) {
    return (
      'Werkzeug (Flask) answers 308 to a path without its trailing slash when only the rule with it is declared (@app.route("/categories/"), strict_slashes by default), before the view checks the key; ' +
      `${than}: declare the rule without it (@app.route("/categories"))`
    )
  }
  if ((response.status === 301 || response.status === 308) && /\/categories\/$/.test(location) && !/\/$/.test(request.url.replace(/[?#].*$/, ''))) {
    // measured: Go 1.19; http.Redirect writes this body to a GET, and no Content-Type nor body to a POST
    const goRedirect = /^<a href="[^"]*">Moved Permanently<\/a>\.\s*$/.test(response.body) || (response.body === '' && response.headers['content-type'] === undefined)
    if (goRedirect) {
      return (
        "Go's ServeMux redirects a path without its trailing slash when only the pattern with it is registered (mux.HandleFunc(\"/v1/categories/\", …), a subtree pattern; gorilla/mux's StrictSlash(true) and Gin's RedirectTrailingSlash too); " +
        'a client does not follow it with its POST body, and §4 gives the path without the slash: register "/v1/categories"'
      )
    }
    return (
      "Django's APPEND_SLASH (CommonMiddleware) redirects a path without its trailing slash to the one with it when only that one is routed " +
      "(DRF's DefaultRouter and SimpleRouter write their routes so, and path('categories/', …)); a client does not follow it with its POST body, and §4 gives the path without the slash: " +
      "route it so (DefaultRouter(trailing_slash=False), path('categories', …))"
    )
  }
  // measured: aiohttp 3.8.4 (Debian 12), a middleware comparing the token with hmac.compare_digest(token, KEY);
  // a body naming Node's timingSafeEqual is nodeStatus's to name (asked after this)
  if (expected === 401 && response.status === 500 && /[^\x00-\x7f]/.test(request.headers.authorization ?? '') && !TIMING_SAFE_EQUAL_ERROR.test(response.body)) {
    return (
      "a 500 to a token with a character outside ASCII is what Python's hmac.compare_digest(token, key) and secrets.compare_digest answer when handed text: they raise TypeError (comparing strings with non-ASCII characters is not supported), " +
      "and aiohttp, Starlette (FastAPI) and Werkzeug (Flask) hand the header on as a str; refuse such a token before the comparison (token.isascii() and hmac.compare_digest(token, key)), and answer 401 with the Error record (§5.3)"
    )
  }
  // measured: Fastify 5, an onRequest hook reading the token as header.replace(/^Bearer /, '')
  if (expected === 401 && response.status >= 200 && response.status < 300 && request.headers.authorization === KEY_PLACEHOLDER) {
    return (
      "the key without a scheme was taken: a token read by stripping the scheme as a prefix (JavaScript's header.replace(/^Bearer /, ''), Python's removeprefix('Bearer '), Go's strings.TrimPrefix, Ruby's sub(/\\ABearer /, '')) " +
      'leaves a header without it as it is, the bare key, or a key check that takes the bare key beside "Bearer <key>" (header === key ||) does; §5.2 sends Bearer <key>: compare the whole header to "Bearer <key>", or refuse a header that does not start with "Bearer " before reading the token'
    )
  }
  if (expected === 401 && response.status >= 200 && response.status < 300 && /^Token\s/i.test(request.headers.authorization ?? '')) {
    return (
      "the key was taken under the Token scheme: Rails' authenticate_with_http_token (and authenticate_or_request_with_http_token) reads a token under Token as under Bearer, and Django REST framework's TokenAuthentication (keyword Token) takes it where DEFAULT_AUTHENTICATION_CLASSES lists it; " +
      "§5.2 names Bearer alone (check request.authorization against /\\ABearer (\\S+)\\z/ before the comparison; in DRF, leave TokenAuthentication out, or give a subclass of it the keyword Bearer)"
    )
  }
  if (expected === 401 && response.status >= 200 && response.status < 300 && /^Bearer \S+?[,;\t]/.test(request.headers.authorization ?? '')) {
    return (
      "the token was read as what precedes the comma: Rails' token_and_options (behind authenticate_with_http_token) takes what precedes a comma, a semicolon or a tab for the token and the rest for options, " +
      "and Laravel's Request::bearerToken() (behind Sanctum and Passport) what follows the last \"Bearer \" up to a comma; " +
      "and an ACL on HAProxy's req.hdr(authorization) (http-request return … unless { req.hdr(authorization) -m str \"Bearer <key>\" }) matches when any piece of the header split at its commas does (req.fhdr(authorization) takes the whole line); " +
      "§5.2 sends the key alone (check request.authorization against /\\ABearer (\\S+)\\z/ and compare the whole token)"
    )
  }
  return undefined
}

/** DRF's browsable API: an HTML page of the answer, for an Accept that ranks text/html first. */
const BROWSABLE_API =
  "it is Django REST framework's browsable API, the HTML page BrowsableAPIRenderer (in DEFAULT_RENDERER_CLASSES by default) answers an Accept that ranks text/html first; " +
  "§4 makes every payload JSON: REST_FRAMEWORK['DEFAULT_RENDERER_CLASSES'] = ['rest_framework.renderers.JSONRenderer']"

/** DRF's browsable API page, told by its stylesheets. */
const isBrowsableApi = (response: RecordedResponse) => /^text\/html/i.test(response.headers['content-type'] ?? '') && response.body.includes('rest_framework/css/')

/**
 * Go's http.Error: text/plain; charset=utf-8 with X-Content-Type-Options: nosniff, the message and a
 * line break (measured on Go 1.19; net/http's own 404 "404 page not found" is one, through http.NotFound).
 */
const isGoHttpError = (response: RecordedResponse) =>
  response.headers['content-type'] === 'text/plain; charset=utf-8' && response.headers['x-content-type-options'] === 'nosniff' && response.body.endsWith('\n')
const GO_HTTP_ERROR =
  "it is what Go's http.Error writes (text/plain; charset=utf-8, X-Content-Type-Options: nosniff, the message and a line break), as net/http and chi services answer their errors, and as net/http answers a path no pattern took (\"404 page not found\"); " +
  '§4 makes every payload JSON and §7 every error the Error record: a helper that sets Content-Type: application/json and writes {code, message, status} (json.NewEncoder(w).Encode), and mux.HandleFunc("/", …) for the paths no other pattern takes'

/**
 * Go Fiber's default ErrorHandler: an error's text as text/plain; charset=utf-8, told by the texts it
 * writes (its 404, keyauth's, encoding/json's errors from c.BodyParser), as Fiber v2 documents them.
 */
const FIBER_TEXT = /^(?:Cannot [A-Z]+ \/|missing or malformed API Key$|Invalid or expired API Key$|invalid character .* (?:looking for|after|in)|unexpected end of JSON input$|json: cannot unmarshal )/
const isFiberText = (response: RecordedResponse) => response.headers['content-type'] === 'text/plain; charset=utf-8' && FIBER_TEXT.test(response.body)
const FIBER_TEXT_ERROR =
  "it is an error's text as Go Fiber's default ErrorHandler writes it (c.Status(code).SendString(err.Error()), text/plain; charset=utf-8): its 404 \"Cannot GET …\", keyauth's \"missing or malformed API Key\", " +
  "encoding/json's errors from c.BodyParser; §4 makes every payload JSON and §7 every error the Error record: fiber.Config{ErrorHandler: …} answering c.Status(code).JSON(…) with {code, message, status}, and keyauth's ErrorHandler too"

/**
 * fasthttp's own answer, before any handler runs: its defaultErrorHandler's texts in text/plain;
 * charset=utf-8, with Connection: close (measured on fasthttp 1.31, Debian 12: a body past
 * Server.MaxRequestBodySize answered 400 "Error when parsing request", as every version since does).
 */
const FASTHTTP_TEXT = /^(?:Error when parsing request|Too big request header|Request timeout)$/
const isFasthttpText = (response: RecordedResponse) => response.headers['content-type'] === 'text/plain; charset=utf-8' && FASTHTTP_TEXT.test(response.body)
const FASTHTTP_TEXT_ERROR =
  "it is fasthttp's own answer, written before the service's handler runs (its defaultErrorHandler): 400 \"Error when parsing request\" for a body past Server.MaxRequestBodySize or a request it cannot read, " +
  '431 "Too big request header" past ReadBufferSize, 408 "Request timeout"; §7 makes every error the Error record: a Server.ErrorHandler that writes {code, message, status} as application/json ' +
  '(413 or 400 for fasthttp.ErrBodyTooLarge: lengths are not shown, §8); Fiber hands these to fiber.Config.ErrorHandler, as ErrRequestEntityTooLarge and the like'

/**
 * aiohttp's web.HTTPException: text/plain; charset=utf-8, "<status>: <reason>" where it was raised
 * with no text (measured: aiohttp 3.8.4, Debian 12: raise web.HTTPUnauthorized() in a middleware,
 * web.HTTPBadRequest(text=…) in a handler); its Server header names it where a front left it.
 */
const isAiohttpText = (response: RecordedResponse) =>
  response.headers['content-type'] === 'text/plain; charset=utf-8' &&
  (/\baiohttp\//.test(response.headers.server ?? '') || new RegExp(`^${response.status}: [A-Z][A-Za-z -]+$`).test(response.body))
const AIOHTTP_TEXT =
  "it is the text of aiohttp's web.HTTPException (raise web.HTTPUnauthorized(), web.HTTPBadRequest(text=…): \"401: Unauthorized\" where no text was given, as its own 404 and 405 are), which aiohttp answers as text/plain; " +
  "§4 makes every payload JSON and §7 every error the Error record: return web.json_response({'code': …, 'message': …, 'status': s}, status=s), " +
  'or a middleware that catches web.HTTPException and answers its status so, for the 404 of a path no route took too'

/** Why a response is declared text/html, where DRF's browsable API answers so. */
export function djangoRailsContentType(response: RecordedResponse): string | undefined {
  if (isBrowsableApi(response)) return BROWSABLE_API
  if (isGoHttpError(response)) return GO_HTTP_ERROR
  if (isFiberText(response)) return FIBER_TEXT_ERROR
  if (isFasthttpText(response)) return FASTHTTP_TEXT_ERROR
  if (isAiohttpText(response)) return AIOHTTP_TEXT
  // measured: Twisted 22.4 (Debian 12), a resource that sets no Content-Type; its Server header names it
  if (response.headers['content-type'] === 'text/html' && /^TwistedWeb\//.test(response.headers.server ?? '')) {
    return (
      "text/html is what twisted.web's Request declares (its defaultContentType) for an answer whose resource set no Content-Type; " +
      "§4 makes every payload JSON: request.setHeader(b'content-type', b'application/json') in each render, or defaultContentType = b'application/json' on a Request subclass (Site's requestFactory)"
    )
  }
  return undefined
}

/** Why a body that is not JSON came, where Rails or DRF writes it so. */
export function djangoRailsTextBody(response: RecordedResponse): string | undefined {
  if (isBrowsableApi(response)) return BROWSABLE_API
  if (isGoHttpError(response)) return GO_HTTP_ERROR
  if (isFiberText(response)) return FIBER_TEXT_ERROR
  if (isFasthttpText(response)) return FASTHTTP_TEXT_ERROR
  if (isAiohttpText(response)) return AIOHTTP_TEXT
  if (response.status === 401 && response.body.startsWith('HTTP Token: Access denied.')) {
    return (
      "\"HTTP Token: Access denied.\" in text/plain is what Rails' request_http_token_authentication answers (authenticate_or_request_with_http_token, with WWW-Authenticate: Token); " +
      'the Error record goes with it: authenticate_with_http_token, and else render json: { code: …, message: …, status: 401 }, status: :unauthorized with WWW-Authenticate: Bearer'
    )
  }
  return undefined
}

/** DRF's CharField beside PHP's trim() and Ruby's strip. */
export const DRF_TRIMS =
  "Django REST framework's CharField takes leading and trailing whitespace away too (trim_whitespace=True by default, ModelSerializer's fields included: CharField(trim_whitespace=False))"

/** A NULL column as DRF and Perl write it, beside Jackson's, PHP's and Ruby's. */
export const DJANGO_PERL_NULL_WRITTEN =
  "Django REST framework's ModelSerializer writes a NULL column (null=True) as null, and Perl's DBI gives one as undef, which Mojo::JSON writes as null " +
  "(DRF: a to_representation() that leaves None out; Perl: delete the key when it is not defined)"

/** Go's encoding/json turns a lone surrogate escape into U+FFFD. */
export function goChangedText(sent: unknown, got: unknown, at: number): string | undefined {
  if (typeof sent !== 'string' || typeof got !== 'string' || got.codePointAt(at) !== 0xfffd) return undefined
  const unit = sent.charCodeAt(at)
  if (unit < 0xd800 || unit > 0xdfff) return undefined
  return (
    "a lone surrogate became U+FFFD: Go's encoding/json (so gin's ShouldBindJSON) decodes an escape of one that is not part of a pair so, and the service stored the replacement; " +
    'a service on it refuses a \\ud800 to \\udfff escape that is not part of a pair (400, an invalid value), as it may any lone surrogate'
  )
}

/**
 * Spaces cut at a column's length: a VARCHAR(n) cuts a longer value whose excess is spaces without
 * an error (the SQL standard; MariaDB 10.11 in strict mode gives a note only), so a service that
 * answers the create with what it was sent shows the cut only in the list (a Mojolicious service on
 * DBD::MariaDB did, with a VARCHAR(255) name).
 */
export function columnCutSpaces(sent: unknown, got: unknown): string | undefined {
  if (typeof sent !== 'string' || typeof got !== 'string' || got.length === 0 || got.length >= sent.length || !sent.startsWith(got)) return undefined
  if (!/^ +$/.test(sent.slice(got.length)) || got === sent.trimEnd()) return undefined
  return (
    `the spaces past ${[...got].length} characters were cut: a VARCHAR(${[...got].length}) column cuts a longer value whose excess is spaces without an error ` +
    '(the SQL standard: MariaDB and MySQL even in strict mode, with a note only, and PostgreSQL), though it refuses any other longer value; ' +
    'lengths are not shown (§8), so the service may refuse the value with 400: check its length against the column before the insert'
  )
}
