/**
 * What an answer the document does not allow says of a Node service that gives it by default,
 * beside the Spring and gateway words of known-answers.ts (which calls these): NestJS's exception
 * body, Fastify's error body, @hono/zod-validator's answer without a hook, Koa's and Hono's
 * text/plain errors, Hono's bearerAuth answering 400 for a header it cannot parse, and a router
 * that answers an operation it has no route for 404 before any guard runs; restify's and Feathers' error bodies,
 * the answers without a Content-Type of a Node handler that writes res.end() (polka's default
 * onError), and Express's res.sendStatus(); @fastify/bearer-auth's {error} body, and the 500 of a
 * key check on crypto.timingSafeEqual. Measured against services written as such teams write
 * them (NestJS 11 on Express and Fastify with class-validator and TypeORM, Koa 3 with @koa/router,
 * Hono 4 on @hono/node-server with zod, all on better-sqlite3; hapi 21 with joi, restify 11,
 * polka 0.5 with body-parser, json-server 0.17 and 1.0 beta, Feathers 5 on koa). The verdict and the failure code
 * never depend on these words; each returns undefined for any other answer.
 */
import type { RecordedRequest, RecordedResponse } from '../http/exchange.ts'
import { KEY_AUTHORIZATION } from '../http/redact.ts'

/**
 * passport's answers to a strategy's failure, without a custom callback (measured: passport 0.7 and
 * passport-http-bearer 1.0.1 under Express 5): text without a Content-Type.
 */
const PASSPORT_FAILS =
  "passport's authenticate() answers a strategy's failure itself, as text without a Content-Type: 401 Unauthorized (passport-http-bearer adds WWW-Authenticate: Bearer realm=\"Users\"), " +
  "and 400 Bad Request where passport-http-bearer finds an Authorization header that is not two words split at one space (this.fail(400): Bearer:<key>, the key without a scheme, a token followed by another word); " +
  'under failWithError: true it hands the error handler an AuthenticationError of the same status; §5.3 asks 401 with the Error record for every missing or invalid key: a custom callback, ' +
  "passport.authenticate('bearer', { session: false }, (err, user) => { … }), that answers 401 and the Error record when no user came"

/** Next.js's answer to an exception a route handler let through (measured: Next 16.4 under next start): an empty 500, with the Vary of its router. */
const NEXT_FAULT =
  "an empty 500 with Vary: rsc, next-router-state-tree … is what Next.js answers for an exception a route handler let through (await request.json() throws a SyntaxError for a body that is not JSON, " +
  'and destructuring the null it gives for a body of null throws a TypeError): catch them and answer 400 with NextResponse.json({ code, message, status }, { status: 400 }) (§5.4, §4.2 rule 1)'

const NEXT_READ_FAULT =
  "an empty 500 with Vary: rsc, next-router-state-tree … is what Next.js answers for an exception a route handler let through, its stack written only to the server's log (next start's output): the log names it"

/**
 * tsoa's documented errorHandler (measured: tsoa 6.6 under Express 4.22): every Error but a ValidateError
 * answered 500. Hand-written Express error handlers write the same bytes, so the handler is named first.
 */
const TSOA_FAULT =
  "{\"message\": \"Internal Server Error\"} from Express is what an error handler that answers every error it is handed 500 writes, as tsoa's documented errorHandler does for every Error but a ValidateError: the rejection of its authentication module " +
  "(expressAuthentication, which tsoa's routes hand on with error.status 401), express.json()'s SyntaxError for a body that is not JSON or is null (its status 400) and any other; " +
  'answer err.status when the error carries one, with the Error record (§5.3: 401; §5.4: 400), and a ValidateError 400 (tsoa\'s example answers it 422)'
const isTsoaFault = (response: RecordedResponse) => response.headers['x-powered-by'] === 'Express' && response.body === '{"message":"Internal Server Error"}'

/** validator.js's escape(), express-validator's escape() sanitizer: these characters become HTML entities. */
const HTML_ENTITY = /&(?:amp|lt|gt|quot|#x27|#x2F|#x5C|#96);/g
const entities = (text: string) => text.match(HTML_ENTITY)?.length ?? 0

/** The codes restify-errors gives its HttpErrors and RestErrors (the class name without Error), which its body carries. */
const RESTIFY_CODES = /^(?:BadRequest|InvalidContent|InvalidArgument|MissingParameter|Unauthorized|NotAuthorized|InvalidCredentials|ResourceNotFound|NotFound|MethodNotAllowed|NotAcceptable|UnsupportedMediaType|PayloadTooLarge|RequestEntityTooLarge|TooManyRequests|RequestThrottled|Internal|InternalServer|ServiceUnavailable|Conflict)$/

/** Azure API Management's words in the errors it answers itself. */
const APIM_WORDS = /^(?:Unauthorized\. Access token is missing or invalid\.|Access denied due to (?:missing|invalid) subscription key|Rate limit is exceeded|Out of call volume quota)/

/** Node's crypto.timingSafeEqual's RangeError for buffers of other lengths, as an error handler writes it (its code, or its message on Express's page). */
export const TIMING_SAFE_EQUAL_ERROR = /ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH|Input buffers must have the same byte length/

/** @fastify/bearer-auth's messages for a missing header and for any other refusal (its FST_BEARER_AUTH_* errors). */
const BEARER_AUTH_WORDS = /^(?:missing|invalid) authorization header$/

/** An Error record's shape as a Node framework writes its own errors (`body`: what tells restify's apart from a code of the service's own). */
export function nodeErrorBody(keys: readonly string[], body?: unknown): string | undefined {
  const has = (...names: string[]) => names.every((n) => keys.includes(n))
  if (keys.length === 2 && has('code', 'message') && RESTIFY_CODES.test(String((body as { code?: unknown } | undefined)?.code))) {
    return (
      "it is restify's error body (restify-errors' toJSON: code, the error's name without Error, and message), which has no status; " +
      "a handler of server.on('restifyError', (req, res, err, cb) => { err.toJSON = () => ({ code: err.code, message: err.message, status: err.statusCode }); cb() }) writes the Error record, " +
      "for the errors of restify's own plugins (bodyParser's InvalidContent, a route not found) too"
    )
  }
  if (has('name', 'message', 'code', 'className') && !keys.includes('status')) {
    return (
      "it is Feathers' error body (a FeathersError's toJSON: name, message, code, the HTTP status as a number, className), which the errorHandler() of @feathersjs/koa and @feathersjs/express answers; " +
      'an error middleware of the service\'s own in its place, answering { code: a text of its own, message, status: error.code }, writes the Error record'
    )
  }
  // measured: @fastify/bearer-auth 10.1 under Fastify 5, its errorResponse left as it comes
  if (keys.length === 1 && BEARER_AUTH_WORDS.test(String((body as { error?: unknown } | undefined)?.error))) {
    return (
      "it is what @fastify/bearer-auth answers by default ({error: 'missing authorization header'} and {error: 'invalid authorization header'}, its errorResponse(err) => ({ error: err.message })); " +
      "its errorResponse option writes the Error record: fastify.register(bearerAuth, { keys, errorResponse: (err) => ({ code: 'UNAUTHORIZED', message: err.message, status: 401 }) })"
    )
  }
  if (has('statusCode', 'code', 'error', 'message') && !keys.includes('status')) {
    return (
      "it is Fastify's default error body (statusCode, code, error, message: FST_ERR_CTP_INVALID_JSON_BODY and the like), which has a code but no status; " +
      'an error handler of the service\'s own, fastify.setErrorHandler((error, request, reply) => reply.code(s).send({ code, message, status: s })), writes the Error record'
    )
  }
  // Azure API Management's own errors have NestJS's UnauthorizedException shape; its words tell them apart (measured against an emulation)
  if (keys.length === 2 && has('statusCode', 'message') && APIM_WORDS.test(String((body as { message?: unknown }).message))) {
    return (
      "it is Azure API Management's own error body (statusCode, message), given before the request reaches the service (validate-jwt's \"Unauthorized. Access token is missing or invalid.\", a subscription key's \"Access denied due to …\", rate-limit's \"Rate limit is exceeded\"); " +
      'the policy answers the Error record with its own body (validate-jwt inside <on-error>, or <return-response> with <set-body>{code, message, status}</set-body> and Content-Type application/json)'
    )
  }
  if (has('statusCode', 'message') && !keys.includes('code')) {
    return (
      "it is NestJS's default exception body (BaseExceptionFilter: statusCode, message, error; ValidationPipe's message is an array of the constraints that failed), and hapi's (Boom); " +
      'a global exception filter, @Catch() registered with app.useGlobalFilters() or as APP_FILTER, that answers { code, message, status } writes the Error record, ' +
      "for the guards' UnauthorizedException, the body parser's errors (on the Express and the Fastify adapter alike) and the routes Nest has not too " +
      "(hapi: an onPreResponse extension that answers every Boom error, request.response.isBoom, with h.response({ code, message, status }).code(status))"
    )
  }
  // measured: LoopBack 4 (@loopback/rest 15), whose reject action writes strong-error-handler's body
  const inner = (body as { error?: unknown } | undefined)?.error
  if (keys.length === 1 && inner !== null && typeof inner === 'object' && ['statusCode', 'name', 'message'].every((k) => k in inner)) {
    return (
      "it is LoopBack 4's error body ({error: {statusCode, name, message}}, with code and details for a body its schema refuses), which its reject action writes for every error, its 404 and the body parser's too; " +
      'a middleware registered with app.middleware() that catches the error of next() and answers { code, message, status } writes the Error record'
    )
  }
  if (has('success', 'error') && !keys.includes('code')) {
    return (
      "it is what @hono/zod-validator answers with no hook (the result of zod's safeParse); a hook, zValidator('json', schema, (result, c) => { if (!result.success) return c.json({ code, message, status: 400 }, 400) }), " +
      "answers the Error record, and app.onError the HTTPException of a body that is not JSON"
    )
  }
  return undefined
}

/**
 * Express's default error handler (finalhandler, Express 4 and 5): an HTML page of the error, its
 * stack in a <pre> (its status text under NODE_ENV=production), with Content-Security-Policy:
 * default-src 'none' (measured on Express 5.1: express.json()'s 400 for a body that is not JSON).
 */
const isExpressErrorPage = (response: RecordedResponse) =>
  /^text\/html/i.test(response.headers['content-type'] ?? '') && response.headers['content-security-policy'] === "default-src 'none'" && response.body.includes('<title>Error</title>') && response.body.includes('<pre>')
const EXPRESS_ERROR_PAGE =
  "it is the HTML page of Express's default error handler (finalhandler: the error's stack in a <pre>, or its status text under NODE_ENV=production), written for an error no error middleware answered " +
  "(express.json()'s 400 for a body that is not JSON, entity.parse.failed; its 413, entity.too.large) and for a path no route took (\"Cannot GET …\"); " +
  '§4 makes every payload JSON and §7 every error the Error record: app.use((err, req, res, next) => res.status(err.status ?? 500).json({ code, message, status })) after the routes, and a last app.use answering 404 so'

/** Why a body that is not JSON came, where a Node framework writes it so. */
export const nodeTextBody = (response: RecordedResponse, request?: RecordedRequest): string | undefined => (isExpressErrorPage(response) ? EXPRESS_ERROR_PAGE : isPassportFail(response, request) ? PASSPORT_FAILS : undefined)

/** passport-http-bearer's this.fail(400): an Authorization header that is not two words split at one space. */
const notTwoWords = (authorization: string | undefined) => authorization !== undefined && authorization !== '' && authorization.split(' ').length !== 2

/** passport's own 401 or 400 (the 400 only to a header it cannot split): its status text alone, without a Content-Type. */
const isPassportFail = (response: RecordedResponse, request: RecordedRequest | undefined) =>
  response.headers['content-type'] === undefined &&
  ((response.status === 401 && response.body === 'Unauthorized') || (response.status === 400 && response.body === 'Bad Request' && notTwoWords(request?.headers.authorization)))

/** Why a response is declared text/plain or not at all, where Koa, Hono, Express or a Node handler of its own writes it so. */
export function nodeContentType(contentType: string | undefined, response?: RecordedResponse, request?: RecordedRequest): string | undefined {
  if (response !== undefined && isExpressErrorPage(response)) return EXPRESS_ERROR_PAGE
  if (response !== undefined && isPassportFail(response, request)) return PASSPORT_FAILS
  // a body without a type (an empty 401 has another story: known-answers.ts' emptyBodyOrigin)
  if (contentType === undefined && response !== undefined && response.bodyBytes > 0) {
    return (
      "no Content-Type is what Node's http sends for res.end(text) when the handler set none: polka's default onError (its 400 for a body body-parser could not read, with the parser's message as text) " +
      "and a handler that writes res.end(JSON.stringify(record)); §4 makes every payload JSON: res.setHeader('content-type', 'application/json'), or @polka/send-type's send(res, status, object), " +
      'and polka({ onError, onNoMatch }) answering the Error record; ' +
      // measured: micro 10.0.1's send(res, status, text) sets Content-Length alone
      "so does Vercel's micro for a createError(status, message) thrown and for json(req)'s own (Invalid JSON, Invalid body, Body exceeded 1mb limit), its message as text: catch them and send(res, status, { code, message, status }); " +
      // measured: libmicrohttpd 0.9.75 with jansson 2.14
      'so does a C service on GNU libmicrohttpd, whose MHD_create_response_from_buffer() carries no header the service did not add (MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json"))'
    )
  }
  if (contentType === 'text/plain; charset=utf-8') {
    return (
      "text/plain; charset=utf-8 is what Koa writes for a string body (ctx.body = text, and the message of ctx.throw(status) and of a path no route took), as Fastify does for a string it is handed " +
      "and Express for res.sendStatus(401) (the auth middleware json-server 0.17's README shows); " +
      '§4 makes every payload JSON: an error middleware first in the chain (Koa: try { await next() } catch (e) { ctx.status = …; ctx.body = { code, message, status } }) answers the Error record'
    )
  }
  if (contentType === 'text/plain;charset=UTF-8' || contentType === 'text/plain; charset=UTF-8') {
    return (
      `${contentType} is what a fetch-API framework writes for text (the Response constructor's default, without the space; Hono's c.text(), with it): ` +
      "Hono answers so for an HTTPException (its bearerAuth's, a body that is not JSON) and for a path no route took; §4 makes every payload JSON: app.onError and app.notFound answer the Error record with c.json()"
    )
  }
  return undefined
}

/** The request's body went as bytes (exchange.ts bytesEvidence) that are not UTF-8. */
function sentNotUtf8(request: RecordedRequest): boolean {
  if (request.bodyBase64 === undefined) return false
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(request.bodyBase64, 'base64'))
    return false
  } catch {
    return true
  }
}

/** V8's TypeError for req.body undefined: destructured, or a field read of it (in JSON, or on finalhandler's page, which escapes ' as &#39;). */
const REQ_BODY_UNDEFINED = /of (?:'|&#39;)req\.body(?:'|&#39;) as it is undefined|Cannot read propert(?:y|ies) of undefined \(reading (?:'|&#39;)(?:name|description)(?:'|&#39;)\)/

/** Why a status came instead of the one expected, where a Node framework answers it so by default. */
export function nodeStatus(response: RecordedResponse, expected: number, request: RecordedRequest): string | undefined {
  // measured: Express 4.22, body-parser 1.20's read(): createError(403, err) unless err carries a status;
  // its words need the verify's cause, bytes that are not UTF-8 (a 403 to a UTF-8 form body is a gateway's, not this)
  if (expected === 400 && response.status === 403 && request.method === 'POST' && request.headers.authorization === KEY_AUTHORIZATION && sentNotUtf8(request)) {
    return (
      "a 403 to a body sent with the valid key is what Express's body-parser answers when its verify option throws an error without a status (entity.verify.failed), " +
      "as a strict TextDecoder('utf-8', { fatal: true }) in express.json({ verify }) does for bytes that are not UTF-8: throw an error whose status is 400, " +
      "or answer err.type === 'entity.verify.failed' with 400 in the error handler (§5.4 and §7 ask 400 for a body that is not valid JSON)"
    )
  }
  // measured: micro 10.0.1's run(): sendError answers an error without a statusCode with this text, and no Content-Type
  if (response.status === 500 && response.body === 'Internal Server Error' && response.headers['content-type'] === undefined && response.headers['keep-alive'] !== undefined) {
    return (
      "Internal Server Error as text, without a Content-Type, from Node's http (its Keep-Alive header) is what Vercel's micro answers for an exception the handler let through (its sendError, for an error without a statusCode): " +
      'destructuring the body of null that json(req) gives (const { name } = await json(req)), or reading a property of it; catch what json(req) throws (its createError(400, "Invalid JSON")) and refuse what is not an object, with 400 and the Error record (§5.4, §4.2 rule 1)'
    )
  }
  // its words of a body not JSON are a create's: a read's empty 500 is named without them
  if (response.status === 500 && response.bodyBytes === 0 && /\bnext-router-state-tree\b/.test(response.headers.vary ?? '')) return request.method === 'POST' ? NEXT_FAULT : NEXT_READ_FAULT
  if (response.status === 500 && isTsoaFault(response)) return TSOA_FAULT
  // measured (stackhunt11): Express 5.3 (body-parser 2.4) with express.json() alone, a form body: req.body is undefined, and the handler's destructuring threw
  if (response.status === 500 && request.method === 'POST' && /^express$/i.test(response.headers['x-powered-by'] ?? '') && !/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
    const express5 = 'Express 5 (body-parser 2) leaves req.body undefined where no parser read the body, as express.json() reads application/json alone, so a handler that reads it (const { name } = req.body) throws on a body of another type'
    // review52: the words need their evidence, the TypeError of req.body undefined; Express 4 gives {}, and a 500 there is another read of it
    if (REQ_BODY_UNDEFINED.test(response.body)) return `${express5}: read req.body ?? {}, or refuse another Content-Type with 415 (or 400) before the handler; §5.4 answers a body that is not valid JSON with 400`
    return (
      `${express5}; Express 4 gives {} there, where a handler that uses a field of it as a string (req.body.name.trim()) throws as well: ` +
      'read req.body ?? {} and refuse a name that is not a string, or refuse another Content-Type with 415 (or 400) before the handler; §5.4 answers a body that is not valid JSON with 400'
    )
  }
  if (expected !== 401) return undefined
  // measured: Fastify 5, an onRequest hook comparing Buffer.from(token) with the key's buffer (Node 20); Express's error page names the RangeError too
  if (response.status === 500 && TIMING_SAFE_EQUAL_ERROR.test(response.body)) {
    return (
      "Node's crypto.timingSafeEqual(a, b) throws a RangeError (ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH) when the buffers' lengths differ, as a missing key's, a longer or a shorter one's do, and the key check let it through as a 500; " +
      'compare the lengths first (a.length === b.length && timingSafeEqual(a, b)), or the digests of both (createHash(\'sha256\')), and answer 401 with the Error record (§5.3)'
    )
  }
  // the request as recorded: the key is written $CONFORM_API_KEY, so only the scheme and an empty token are read
  const authorization = request.headers.authorization
  const notBearer = authorization !== undefined && (!/^Bearer /i.test(authorization) || /^Bearer\s*$/i.test(authorization))
  // passport-http-bearer: a header of more than two words split at a space
  const moreWords = authorization !== undefined && authorization.split(' ').length > 2
  if (response.status === 400 && (notBearer || moreWords || /\berror\s*=\s*"?invalid_request\b/i.test(response.headers['www-authenticate'] ?? ''))) {
    return (
      "a 400 for an Authorization header that is not a bearer token (another scheme, no scheme, an empty token) is RFC 6750's invalid_request, " +
      'which Hono\'s bearerAuth answers (with WWW-Authenticate: Bearer error="invalid_request") to such a header and to a token with characters outside its set; ' +
      '§5.3 asks 401 of a key that is missing or invalid, whatever form the header takes (a middleware of the service\'s own that answers 401 with the Error record for them all); ' +
      `or ${PASSPORT_FAILS}`
    )
  }
  if (response.status === 404 && request.method === 'GET') {
    return (
      'a 404 to a request without a valid key is a router that has no route for the operation answering before any check of the key: NestJS runs guards only for a route it has, ' +
      "and Express, Koa and Hono answer a path no route took past middleware mounted on other paths, as hapi does before its auth strategy and restify before what server.use() mounts (server.pre() runs first), and Dancer2 and Grape before their before hooks (a catch-all route, Dancer2's any qr{.*} or Grape's route :any, '*path', makes them run); §1 rule 2 and §5.1 require authentication for every operation the document names, " +
      'so the key is checked before the route is looked up (a middleware for every path), or the operation is routed'
    )
  }
  return undefined
}

/** Why a stored text came back other than sent, where a Node handler or driver changes it so (beside PHP's and Ruby's words). */
export function nodeChangedText(sent: unknown, got: unknown, at: number): string | undefined {
  if (sent === '' && (got === undefined || got === null)) {
    return "JavaScript's description || null (or any truthy test) takes '' for no value too, where description ?? null keeps it"
  }
  if (typeof sent !== 'string' || typeof got !== 'string') return undefined
  if (got.length < sent.length && got.length > 0 && (got === sent.trim() || got === sent.trimEnd()) && /^\s|\s$/.test(sent)) {
    return "in Node, String.prototype.trim() in the handler, zod's .trim(), express-validator's trim() and class-transformer's @Transform(({ value }) => value.trim()) do the same"
  }
  // measured: express-validator 7.3's escape() in a body() chain, as its guides write it
  if (entities(got) > entities(sent) && /[&<>"'/\\`]/.test(sent)) {
    return (
      "characters became HTML entities (\" as &quot;, < as &lt;): express-validator's escape() sanitizer does so (validator.js's escape(): & < > \" ' / \\ and ` each), before the value is stored; " +
      'keep the value as sent (§4.2 rule 2), and escape it where it is written into HTML'
    )
  }
  const unit = sent.charCodeAt(at)
  if (unit >= 0xd800 && unit <= 0xdfff && got.charCodeAt(at) === 0xfffd) {
    return (
      'a lone surrogate became U+FFFD: Node writes a string to UTF-8 so (Buffer.from(), TextEncoder, and a driver that writes text with them: better-sqlite3, measured), ' +
      "and Go's encoding/json reads it so; a service whose store cannot hold it refuses it with 400 (§4.2 rule 1; in Node, value.isWellFormed() is false)"
    )
  }
  return undefined
}
