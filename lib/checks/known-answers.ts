/**
 * What an answer the document does not allow says of the stack that gave it, when well-known
 * stacks give it by default: Spring Boot's error body, Spring Security's empty 401 and its CSRF
 * 403, an RFC 9457 problem detail, an API gateway's own `{"message": …}`. A failure adds these
 * words to its message, so that a team reads what it must change, not only what is wrong; the
 * verdict and the failure code never depend on them. Each returns undefined for any other answer.
 * The words for PHP and Ruby (Sinatra, Grape) defaults are in php-ruby-answers.ts, those for Django REST framework, Rails, Mojolicious, gin, Go's net/http, FastAPI,
 * Dancer2 and twisted.web in django-rails-answers.ts, those for Node frameworks (NestJS, Fastify, Koa, Hono, hapi, restify, polka, Feathers, LoopBack) and libmicrohttpd
 * in node-answers.ts, those for Bun and Deno (Bun.serve, Deno.serve, Elysia, Oak, Hono on them) in runtime-answers.ts, those for ASP.NET Core, Phoenix, PostgREST and Micronaut in more-stacks-answers.ts, those
 * for Node ORMs and database drivers in orm-driver-answers.ts, those for a SQL store's defaults (strict mode, character sets, CHAR columns, unsigned ids) in sql-store-answers.ts,
 * those for Envoy's texts and proto3's JSON mapping (grpc-gateway) in gateway-answers.ts, and for a server fault to bytes that are not UTF-8 in undecodable-body-answers.ts.
 */
import { aspnetEmptyBody, aspnetProblem, aspnetStatus, beamJvmErrorBody, jettyErrorBody, jettyPage, problemJsonWords, servantPage, servantStatus, servletCppStatus } from './more-stacks-answers.ts'
import { dateTextOrigin } from './date-text-answers.ts'
import { caseChangedText } from './collated-names.ts'
import { AWS_NO_ROUTE, gatewayStatus, gatewayTextBody, grpcStatusBody, PROTO_JSON_EMPTY, PROTO_JSON_INT64 } from './gateway-answers.ts'
import { blockPageOf } from '../http/challenge.ts'
import type { RecordedRequest, RecordedResponse } from '../http/exchange.ts'
import { mediaType } from '../http/media-type.ts'
import { openApiDocument } from '../spec/schema-registry.ts'
import { columnCutSpaces, DJANGO_PERL_NULL_WRITTEN, djangoRailsContentType, djangoRailsErrorBody, djangoRailsStatus, djangoRailsTextBody, DRF_TRIMS, goChangedText } from './django-rails-answers.ts'
import { nodeChangedText, nodeContentType, nodeErrorBody, nodeStatus, nodeTextBody } from './node-answers.ts'
import { runtimeContentType, runtimeErrorBody, runtimeStatus, runtimeTextBody } from './runtime-answers.ts'
import { columnCutText, idKeyConflictStatus, idPastInt64 } from './sql-store-answers.ts'
import { NODE_DRIVER_ID_AS_TEXT, PYTHON_DECIMAL_ID_AS_TEXT, undefinedValueStatus } from './orm-driver-answers.ts'
import { undecodableBodyStatus } from './undecodable-body-answers.ts'
import { documentStoreOrigin, MONGO_UNDEFINED_STORED } from './document-store-answers.ts'
import { PDO_ID_AS_TEXT, phpRubyChangedText, ROW_NULL_WRITTEN, phpRubyContentType, phpRubyEmptyBody, phpRubyErrorBody, phpRubyStatus, phpRubyValue, trimmedEnds } from './php-ruby-answers.ts'

const keysOf = (body: unknown): string[] => (body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [])

/** An Error record's shape as another stack writes it, and how such a service is usually made to write the Error record. */
export function errorBodyOrigin(body: unknown): string | undefined {
  const keys = keysOf(body)
  const node = nodeErrorBody(keys, body) ?? runtimeErrorBody(keys, body) ?? grpcStatusBody(keys, body) ?? beamJvmErrorBody(keys, body) ?? jettyErrorBody(keys, body)
  if (node) return node
  if (keys.includes('code')) return undefined
  const phpRuby = phpRubyErrorBody(keys) ?? djangoRailsErrorBody(body)
  if (phpRuby) return phpRuby
  // DefaultErrorAttributes: message and errors only with server.error.include-message / include-binding-errors
  if (['timestamp', 'status', 'error', 'path'].every((k) => keys.includes(k))) {
    return (
      "it is Spring Boot's default error body (BasicErrorController: timestamp, status, error, path; message only with server.error.include-message=always, and never a code); " +
      'a @RestControllerAdvice whose @ExceptionHandler methods (MethodArgumentNotValidException, HttpMessageNotReadableException, and the 401 of the security filter chain) answer {code, message, status} writes the Error record'
    )
  }
  if (keys.includes('title') && (keys.includes('type') || keys.includes('detail'))) {
    return (
      "it is an RFC 9457 problem detail (Spring's ProblemDetail with spring.mvc.problemdetails.enabled, ASP.NET Core's ProblemDetails), which has no code or message; " +
      `the Error record needs both beside status (${aspnetProblem(keys, body) ?? 'Spring: ProblemDetail.setProperty("code", …) and setProperty("message", …), or an ErrorResponse body of its own'})`
    )
  }
  if (keys.length === 1 && /^message$/i.test(keys[0])) {
    return (
      'a body of message alone is what an API gateway answers on its own (AWS API Gateway\'s {"message": "Unauthorized"} and {"message": "Forbidden"}, Kong\'s {"message": "No API key found in request"}), before the request reaches the service; ' +
      "the gateway's error answer must carry the Error record too (AWS: a gateway response template for UNAUTHORIZED, ACCESS_DENIED and BAD_REQUEST_BODY; Kong: the plugin's error handler or a response transformer); " +
      'Laravel answers {"message": "Unauthenticated."} to a request its auth middleware refuses (render AuthenticationException as the Error record in the exception handler)'
    )
  }
  return undefined
}

/** Why an empty body came with this answer, where the stack that sends one is well known. */
export function emptyBodyOrigin(response: RecordedResponse): string | undefined {
  const ofStack = phpRubyEmptyBody(response) ?? aspnetEmptyBody(response) ?? servantPage(response)
  if (ofStack) return ofStack
  if (response.status === 201) {
    return "an empty 201 is what Spring's ResponseEntity.created(location).build() answers; §4.2 asks for the created record in the body (ResponseEntity.created(location).body(record))"
  }
  if (response.status !== 401) return undefined
  const challenge = /^\s*bearer\b/i.test(response.headers['www-authenticate'] ?? '') ? ' and only WWW-Authenticate: Bearer' : ''
  return (
    `an empty 401${challenge} is what Spring Security's BearerTokenAuthenticationEntryPoint answers, and many gateways' authorizers: ` +
    'the Error record is written by an AuthenticationEntryPoint of the service\'s own (Spring: http.oauth2ResourceServer(o -> o.authenticationEntryPoint(…)), or exceptionHandling().authenticationEntryPoint(…)); ' +
    // measured on Java 17: ServerImpl answers an Authenticator's Failure with sendResponseHeaders(code, -1)
    "the JDK's own HttpServer (com.sun.net.httpserver) answers so for an Authenticator that returns new Failure(401), and writes no body: check the key in a Filter that writes the Error record, and calls chain.doFilter only for a valid one"
  )
}

/** Why a body that is not JSON (and not empty) came with this answer, where the stack that sends it is well known. */
export const textBodyOrigin = (response: RecordedResponse, request?: RecordedRequest): string | undefined => servantPage(response) ?? runtimeTextBody(response) ?? jettyPage(response) ?? djangoRailsTextBody(response) ?? nodeTextBody(response, request) ?? gatewayTextBody(response) ?? lengthInCharacters(response)

/**
 * A JSON body that ends, mid-value, exactly where its Content-Length says, and holds characters
 * outside ASCII: a length counted in characters (UTF-16 units), which is fewer than the UTF-8 bytes
 * such a body takes, so it is cut short by the difference (the rest is read as the next answer on
 * the connection, or lost). The classic: Java's sendResponseHeaders(200, json.length()), Node's
 * res.setHeader('Content-Length', body.length).
 */
function lengthInCharacters(response: RecordedResponse): string | undefined {
  const declared = Number(response.headers['content-length'])
  if (response.bodyTruncated || !Number.isInteger(declared) || declared !== response.bodyBytes) return undefined
  const text = response.body.trim()
  if (!/^[[{]/.test(text) || /[}\]]$/.test(text) || !/[^\x00-\x7f]/.test(text)) return undefined
  return (
    `the body ends mid-JSON exactly where its Content-Length (${declared} bytes) says, and holds characters outside ASCII: a Content-Length counted in characters, not in UTF-8 bytes, cuts such a body short ` +
    "(Java's sendResponseHeaders(200, json.length()), Node's res.setHeader('Content-Length', body.length)): count the bytes (json.getBytes(StandardCharsets.UTF_8).length, Buffer.byteLength(body)), or leave the length to the framework"
  )
}

/** Why a status came instead of the one expected, where a well-known stack answers it so. */
export function statusOrigin(response: RecordedResponse, expected: number, request: RecordedRequest): string | undefined {
  // aiohttp's own answer to an exception a handler let through (measured: aiohttp 3.8, Debian 12)
  if (response.status === 500 && request.method === 'POST' && response.body.includes('Server got itself in trouble')) {
    return (
      "500 Internal Server Error / Server got itself in trouble is aiohttp's own answer to an exception its handler let through: request.json() decodes the body with bytes.decode() " +
      'before json.loads, so a body that is not UTF-8 raises UnicodeDecodeError, which except json.JSONDecodeError does not catch (catch ValueError, which both are, and answer 400 with the Error record)'
    )
  }
  // the JDK's HttpServer's own page for a path no createContext() took (measured on Java 17), which no Filter saw
  if (response.status === 404 && expected === 401 && response.body.includes('No context found for request')) {
    return (
      "No context found for request is the JDK's own HttpServer (com.sun.net.httpserver) answering a path that no createContext() took, before any Filter: " +
      '§1 rule 2 and §5.1 require authentication for every operation the document names, GET /store/orders and GET /pets/{petId} too, so a context for the base path ' +
      '(createContext("/v1/", …)) with the key check as its Filter answers 401 first'
    )
  }
  // a server that will not answer for this address on this connection (RFC 9110 §15.5.20), measured on Caddy 2.6 under client_auth
  if (response.status === 421 && new URL(request.url).hostname.match(/^[\d.]+$|^\[/)) {
    return (
      '421 Misdirected Request: the server will not answer for this address on this connection (RFC 9110 §15.5.20); Caddy answers it to a request whose Host differs from the TLS server name (SNI), ' +
      'which it checks whenever it asks for client certificates, and a client sends no server name for an IP address: give the base URL by the host name the certificate names'
    )
  }
  const ofStack =
    gatewayStatus(response, expected) ?? aspnetStatus(response, expected) ?? servletCppStatus(response, expected) ?? servantStatus(response, expected) ??
    runtimeStatus(response, expected, request) ??
    phpRubyStatus(response, expected, request) ??
    djangoRailsStatus(response, expected, request) ??
    nodeStatus(response, expected, request) ??
    undefinedValueStatus(response, expected, request) ??
    undecodableBodyStatus(response, expected, request) ?? idKeyConflictStatus(response, expected, request)
  if (ofStack) return ofStack
  // a 501 is a server fault, which describeStatus explains (gatewayFaultOrigin)
  const unreadBody = response.status === 400 ? unreadBodyOrigin(response) : undefined
  if (unreadBody) return unreadBody
  if (response.status === 403 && AWS_NO_ROUTE.test(response.body)) {
    return (
      'Missing Authentication Token is what AWS API Gateway answers itself, to a request without the credential its method expects and to a path or method it has no route for (to one whose Authorization is no AWS signature: "Invalid key=value pair … in Authorization header"); ' +
      'its gateway response MISSING_AUTHENTICATION_TOKEN can be given status 401 and the Error record (§5.3)'
    )
  }
  // a front's own refusal says whose answer it is where the status is described (blockPageWords)
  if (blockPageOf(response)) return undefined
  if (expected === 201 && response.status === 200 && request.method === 'POST') {
    return (
      'a handler that returns the record is answered 200 unless it says otherwise: Spring MVC (@ResponseStatus(HttpStatus.CREATED) on the method, or ResponseEntity.created(location).body(record)), ' +
      "FastAPI (status_code=201 on the route), Express (res.status(201).json(record)), LoopBack 4 whatever responses the operation declares (response.status(201) in a middleware or a controller that injects the response); §4.2 asks 201"
    )
  }
  if (expected === 201 && response.status === 403 && request.method === 'POST') {
    return (
      "Spring Security's CSRF protection, on by default, refuses with 403 every POST that carries no CSRF token where the key is checked by a filter of the service's own " +
      '(oauth2ResourceServer() exempts requests with a bearer token; a filter of its own does not): a stateless API turns it off, http.csrf(c -> c.disable())'
    )
  }
  if (expected !== 401 || response.status !== 403) return undefined
  const unauthenticatedPost = request.method === 'POST' && !/^\s*bearer\s+\S/i.test(request.headers.authorization ?? '')
  const csrf = unauthenticatedPost
    ? "Spring Security's CSRF protection, on by default, refuses a POST that carries no bearer token with 403 before any key is looked at (a stateless API turns it off: http.csrf(c -> c.disable())); "
    : ''
  return (
    `${csrf}an authorizer that denies a key answers 403 in several gateways (AWS API Gateway's "User is not authorized to access this resource"), ` +
    'and Spring Security answers 403 where the request was authenticated by some other means (a session, an anonymous token) but not allowed; §5.3 asks 401 of a key that is missing or invalid'
  )
}

/** What an answer that is a front's own refusal says: the front answered, not the service (lib/http/challenge.ts). */
export function blockPageWords(response: Pick<RecordedResponse, 'status' | 'body'>): string | undefined {
  const block = blockPageOf(response)
  return block ? `${block.front}'s ${block.refusal}: ${block.why}; let the API's requests through: ${block.through}` : undefined
}

/** Why a response is declared with another media type, where a well-known stack declares it so (`response`: what else tells the stack, its body). */
export function contentTypeOrigin(contentType: string | undefined, response?: RecordedResponse, request?: RecordedRequest): string | undefined {
  const page = response ? (djangoRailsContentType(response) ?? aspnetEmptyBody(response) ?? jettyPage(response) ?? servantPage(response)) : undefined
  if (page) return page
  const type = mediaType(contentType)
  if (type === 'application/problem+json') return problemJsonWords(request, response)
  if (type === 'application/xml' || type === 'text/xml') {
    return (
      'Spring MVC answers XML to an Accept that ranks it above */* (a browser\'s) when jackson-dataformat-xml is on its class path, often brought by another dependency; ' +
      '§4 makes every payload JSON (produces = MediaType.APPLICATION_JSON_VALUE on the controller, or no XML converter)'
    )
  }
  if (type?.endsWith('+json')) return `${type} is JSON under another media type; §4 names application/json for every payload`
  const ofNode = [nodeContentType(contentType, response, request), runtimeContentType(contentType, response)].filter((words) => words !== undefined)
  return phpRubyContentType(contentType) ?? (ofNode.length > 0 ? ofNode.join('; ') : undefined)
}

/** Each property of a record, or of a list's records, with its place as the schema problems write places (body.description, body[1].id). */
function placedValues(body: unknown): { place: string; key: string; value: unknown }[] {
  const inRecord = (record: unknown, where: string) =>
    record !== null && typeof record === 'object' && !Array.isArray(record) ? Object.entries(record).map(([key, value]) => ({ place: `${where}.${key}`, key, value })) : []
  return Array.isArray(body) ? body.flatMap((element, i) => inRecord(element, `body[${i}]`)) : inRecord(body, 'body')
}

const NULL_WRITTEN =
  'a serialiser writes a field it has no value for as null by default (Jackson, so Spring Boot; Go\'s *string without omitempty; pydantic\'s model_dump() without exclude_none), ' +
  "and Oracle gives back an empty string as NULL (so does the AWS SDK v2's DynamoDB DocumentClient with convertEmptyValues: true, which stores it as {NULL: true}); §2 gives the field a type, and a record without a value leaves the field out " +
  `(Spring: spring.jackson.default-property-inclusion=non_null, or @JsonInclude(JsonInclude.Include.NON_NULL)); ${ROW_NULL_WRITTEN}; ${DJANGO_PERL_NULL_WRITTEN}; ${MONGO_UNDEFINED_STORED}`
const NUMBER_AS_TEXT =
  "an integer written as text, as Jackson's ToStringSerializer (@JsonSerialize(using = ToStringSerializer.class) on a Long id) or WRITE_NUMBERS_AS_STRINGS does to spare JavaScript clients ids past 2^53; " +
  `${PDO_ID_AS_TEXT}; ${NODE_DRIVER_ID_AS_TEXT}; ${PYTHON_DECIMAL_ID_AS_TEXT}; ${PROTO_JSON_INT64}; ` +
  '§2 gives the field the type integer, which JSON carries as a number, an int64 id exactly (this suite reads it so)'

/** Error.status as text: the ids' causes (a Long id's serialiser, lastInsertId()) are not its own. */
const STATUS_AS_TEXT = 'an integer written as text (the status put in the body as a string, String(status) or a template); §2 gives the field the type integer, which JSON carries as a number'

let optional: ReadonlySet<string> | undefined
/**
 * The properties no schema of spec/openapi.yaml requires (§2: description): only there is leaving
 * the field out the fix for a null. A null id or name (or code, message, status) is a value the
 * service did not have, and left out it fails all the same.
 */
function optionalProperties(): ReadonlySet<string> {
  if (optional) return optional
  const schemas = Object.values(openApiDocument().components.schemas)
  const required = new Set(schemas.flatMap((schema) => (Array.isArray(schema.required) ? (schema.required as string[]) : [])))
  const declared = schemas.flatMap((schema) => Object.keys((schema.properties ?? {}) as object))
  return (optional = new Set(declared.filter((property) => !required.has(property))))
}

/**
 * Why a value a schema problem names has the wrong type, where a serialiser's setting writes it so:
 * null for an optional field with no value, an integer as text.
 */
export function valueOrigin(body: unknown, problems: readonly string[]): string | undefined {
  const unsigned = problems.map(idPastInt64).find((words) => words !== undefined)
  if (unsigned) return unsigned
  const stored = documentStoreOrigin(body, problems)
  if (stored) return stored
  if (body === null && problems.includes('body must be array')) return EMPTY_LIST_AS_NULL
  if (isEmptyObject(body) && problems.includes('body must be array')) return EMPTY_LIST_AS_OBJECT
  for (const { place, key, value } of placedValues(body)) {
    if (!problems.some((problem) => problem.startsWith(`${place} `))) continue
    if (value === null) {
      if (optionalProperties().has(key)) return `${place} is null: ${NULL_WRITTEN}`
      continue
    }
    if (typeof value === 'string' && /^-?\d+$/.test(value)) return `${place} is ${JSON.stringify(value)}: ${key === 'id' ? NUMBER_AS_TEXT : STATUS_AS_TEXT}`
    const numeric = problems.includes(`${place} must be string`) ? phpRubyValue(place, value) : undefined
    if (numeric) return `${place} is ${JSON.stringify(value)}: ${numeric}`
  }
  return undefined
}

/** A list written null: what a nil slice becomes (`null` is the whole body, not one value in it). */
const EMPTY_LIST_AS_NULL =
  "the list is null: Go's encoding/json writes a nil slice so (`var out []Category` that nothing was appended to, as for an empty store); " +
  'start it empty but not nil (`out := []Category{}` or `make([]Category, 0)`) to write []'

const isEmptyObject = (body: unknown) => body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0

/** An empty list written {}: a Lua table is both, and lua-cjson writes an empty one as an object (measured: 2.1.0 under nginx's lua module). */
const EMPTY_LIST_AS_OBJECT =
  "the list is {}: lua-cjson writes an empty Lua table as an object (cjson.encode({}) is \"{}\", under OpenResty and nginx's lua module), and PHP's json_encode() does so under JSON_FORCE_OBJECT; " +
  "an empty list is [] (OpenResty's lua-cjson: setmetatable(list, cjson.array_mt) or cjson.encode_empty_table_as_object(false); Debian's lua-cjson 2.1.0 has neither: write \"[]\" for an empty list)"

/** A character back as U+FFFD: bytes decoded that were not a whole character (lib/http/body-pieces.ts). */
const PIECE_DECODED_APART =
  'the character came back as U+FFFD, the replacement for bytes that are not a whole UTF-8 character: most often a body read in pieces, each decoded on its own ' +
  "(Node's `body += chunk` on a request's data events: collect the Buffers and decode them once, or req.setEncoding('utf8')), which a network does to any body longer than a segment; " +
  "or a value cut by bytes; the evidence's splitAt says where the suite split the body"

/** Whether `got` is `sent` with whitespace taken from its ends (a trim or a strip, in one language's set or another's). */
const trimmedAtEnds = (sent: unknown, got: unknown) => typeof sent === 'string' && typeof got === 'string' && trimmedEnds(sent, got) !== undefined

/** The text forms of no value: Java's and JavaScript's String(null), JavaScript's String(undefined), Python's str(None). */
const NO_VALUE_TEXTS = new Set(['null', 'undefined', 'None'])

/** A text form of no value that came back as none: a store that writes no value as text and reads that text back as none. */
const noValueText = (sent: string) =>
  `the text "${sent}" came back as no value: a service that writes no value as its text (${sent === 'None' ? "Python's str(None), into a Redis hash or a CSV" : sent === 'undefined' ? "JavaScript's `${value}` or String(undefined), into a Redis hash or a template" : "Java's String.valueOf(null) or JavaScript's String(null), as code written for form fields filled so"}) ` +
  `takes that text back as none (a read that tests the value against "${sent}"); keep no value apart from text (a NULL column, a field left out), and give back every string as it was sent`

/** Why a stored text came back other than sent, where a store is known to change it so: '' kept as NULL, a character its column cannot hold written as '?'. */
export function changedTextOrigin(sent: unknown, got: unknown, at: number): string | undefined {
  const node = nodeChangedText(sent, got, at)
  const withNode = (words: string) => (node ? `${words}; ${node}` : words)
  if (sent === '' && (got === undefined || got === null)) {
    return (
      `an empty string came back as no value: Oracle stores '' as NULL (and a NOT NULL column then refuses it), Jackson's NON_EMPTY inclusion (spring.jackson.default-property-inclusion=non_empty) and Go's omitempty leave it out, kotlinx.serialization leaves out a property equal to its default (a description: String = "" under encodeDefaults = false, the default of a Json { } of the service's own, as Ktor's json(Json { … }) is given; Ktor's json() alone encodes defaults), the AWS SDK v2's DynamoDB DocumentClient stores it as NULL under convertEmptyValues: true, Ecto's cast/4 makes it nil (its empty_values; Phoenix: cast(…, empty_values: [])), and ${PROTO_JSON_EMPTY}; ` +
      withNode(`a service on such a store refuses an empty value with 400 (an invalid value for it, §4.2 rule 1), or keeps it apart from no value; ${phpRubyChangedText(sent, got, at)}`)
    )
  }
  if (typeof sent === 'string' && NO_VALUE_TEXTS.has(sent) && (got === undefined || got === null)) return noValueText(sent)
  const phpRuby = phpRubyChangedText(sent, got, at)
  if (phpRuby) return withNode(trimmedAtEnds(sent, got) ? `${phpRuby}; ${DRF_TRIMS}` : phpRuby)
  const cut = goChangedText(sent, got, at) ?? columnCutSpaces(sent, got) ?? columnCutText(sent, got) ?? dateTextOrigin(sent, got) ?? caseChangedText(sent, got)
  // a lone surrogate replaced: Go's words, then Node's, said once
  if (cut) return node ? `${cut}; ${node.replace(/^a lone surrogate became U\+FFFD: /, '')}` : cut
  if (node) return node
  // a whole character sent (a lone surrogate has no UTF-8 form: U+FFFD is its usual fate)
  const sentCode = typeof sent === 'string' ? sent.codePointAt(at) : undefined
  if (typeof got === 'string' && got.codePointAt(at) === 0xfffd && sentCode !== undefined && sentCode !== 0xfffd && (sentCode < 0xd800 || sentCode > 0xdfff)) return PIECE_DECODED_APART
  if (typeof sent !== 'string' || typeof got !== 'string' || got.codePointAt(at) !== 0x3f || sent.codePointAt(at) === 0x3f) return undefined
  return (
    "the character became '?': a column whose character set cannot hold it writes '?' in its place (SQL Server VARCHAR under a collation that is not _UTF8, where NVARCHAR holds it; " +
    "Oracle VARCHAR2 in a single-byte database character set, where NVARCHAR2 or AL32UTF8 holds it; MySQL latin1, or utf8mb3 for characters past U+FFFF, outside strict mode)"
  )
}

/** Apache httpd's page for a service that answered nothing readable within ProxyTimeout, or closed the connection (AH01102). */
const HTTPD_READ_ERROR = /Error reading from remote server/

/** What a gateway's 502 or 504 says: the service behind it, not the gateway, failed the request. */
export function gatewayFaultOrigin(response: Pick<RecordedResponse, 'status' | 'body'> & { headers?: Record<string, string> }): string | undefined {
  const { status } = response
  // measured: httpd 2.4 answers 502, not 504, when ProxyTimeout passes; Caddy 2.6 answers a
  // body over its request_body max_size with an empty 502, where 2.7 answers 413
  if (status === 502 && HTTPD_READ_ERROR.test(response.body)) {
    return "Apache httpd's answer when the service behind it did not answer within ProxyTimeout, or closed the connection (its page says \"Error reading from remote server\"; httpd answers 502 where a timeout is meant)"
  }
  if (status === 502 && response.body === '' && /^Caddy\b/i.test(response.headers?.server ?? '')) {
    return "Caddy's answer when the service behind it closed the connection or sent no valid answer, and Caddy 2.6's to a body larger than its request_body max_size (Caddy 2.7 answers that 413)"
  }
  if (status === 502) {
    return "a gateway's answer when the service behind it closed the connection or sent no valid answer (most often a kept-alive connection the service closed as the gateway reused it: the service's idle timeout must outlast the gateway's)"
  }
  if (status === 504) return "a gateway's answer when the service behind it did not answer within the gateway's timeout"
  // Cloudflare's own 5xx pages (cf-ray on every answer it gives): what it met at the origin
  if (response.headers?.['cf-ray'] !== undefined && CLOUDFLARE_5XX[status]) return `Cloudflare's ${status}: ${CLOUDFLARE_5XX[status]}`
  return unreadBodyOrigin(response)
}

const CLOUDFLARE_5XX: Record<number, string> = {
  520: 'the service answered what Cloudflare could not read (an empty answer, a reset connection, headers past its limit), most often a kept-alive connection the service closed as Cloudflare reused it',
  521: "the service refused Cloudflare's connection", 522: "Cloudflare's connection to the service timed out",
  523: 'Cloudflare could not reach the service', 524: "the service did not answer within Cloudflare's 100 s",
}

/**
 * Python's http.server (BaseHTTPRequestHandler) names what it could not read as a request line;
 * one that holds JSON is a body: the request before it on the kept-alive connection was answered
 * without its body read (an early 401 or 404), and the body was then read as the next request.
 */
const REQUEST_LINE_OF_JSON = /(?:Unsupported method|Bad request syntax|Bad request version) \((['"])[^'"]*[{[]/

/** Why a request well framed got Python's answer to an unreadable request line: the request before it on its connection. */
export function unreadBodyOrigin(response: Pick<RecordedResponse, 'status' | 'body'>): string | undefined {
  if ((response.status !== 400 && response.status !== 501) || !REQUEST_LINE_OF_JSON.test(response.body)) return undefined
  return (
    "Python's http.server read a request line out of JSON: on a kept-alive connection, the body of the request before it, which the service answered without reading " +
    '(an early 401 or 404): read Content-Length bytes of every request before answering, or answer with Connection: close; the request this answer came to was not the one at fault'
  )
}
