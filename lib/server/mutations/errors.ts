/** Mutations of §7, §2, §4: every documented error is an Error record whose status matches, and documented responses are application/json. */
import { conformingBehaviour } from '../reference-server.ts'
import { errorReply, isInvalidJson, isPlainObject, type Mutation } from '../server-cases.ts'
import { columnLimits } from '../variants/inputs.ts'

export const ERROR_MUTATIONS: readonly Mutation[] = [
  // §7: every 400 and 401 carries an Error record
  {
    name: 'error-without-status',
    breaks: 'error-body-is-error-record',
    code: 'SCHEMA_MISMATCH',
    description: 'Error records carry code and message but no status',
    behaviour: { errorBody: (_status, code, message) => ({ code, message }) },
  },
  {
    name: 'error-as-problem-details',
    breaks: 'error-body-is-error-record',
    code: 'SCHEMA_MISMATCH',
    description: 'errors are RFC 9457 problem details (type, title, status, detail) without code and message',
    behaviour: { errorBody: (status, code, message) => ({ type: `https://petstore.example/problems/${code}`, title: code, status, detail: message }) },
  },
  {
    name: 'error-code-as-number',
    breaks: 'error-body-is-error-record',
    code: 'SCHEMA_MISMATCH',
    description: 'the Error code is a number (40101) instead of a string',
    behaviour: { errorBody: (status, _code, message) => ({ code: status * 100 + 1, message, status }) },
  },
  {
    name: 'error-status-as-string',
    breaks: 'error-body-is-error-record',
    code: 'SCHEMA_MISMATCH',
    description: 'the Error status is the HTTP status as a string ("401") instead of an integer',
    behaviour: { errorBody: (status, code, message) => ({ code, message, status: String(status) }) },
  },
  // §7: all error responses, a refusal in a status it does not show that only the service gives (409, 422) too
  {
    name: 'repeated-name-409-with-a-detail-body',
    breaks: 'error-body-is-error-record',
    code: 'SCHEMA_MISMATCH',
    // confirmed by repeating the run's stored name (repeated-names.ts namedAsInTheRun): "intermittent" before, its attempt's repeat a new name, taken
    recurrence: 'deterministic',
    description:
      'names are unique, and a repeated one is refused with 409 {"detail": "Category already exists"} (FastAPI\'s HTTPException, raised by the handler): ' +
      'every 400 and 401 carries the Error record, the 409 does not',
    behaviour: repeatsRefused(409, { detail: 'Category already exists' }),
  },
  {
    name: 'repeated-name-422-with-an-error-body',
    breaks: 'error-body-is-error-record',
    code: 'SCHEMA_MISMATCH',
    // confirmed by repeating the run's stored name (repeated-names.ts namedAsInTheRun): "intermittent" before, its attempt's repeat a new name, taken
    recurrence: 'deterministic',
    description:
      'names are unique, and a repeated one is refused with 422 {"error": "name has already been taken"} (a Rails controller\'s render json: { error: … }, status: :unprocessable_entity): ' +
      'every 400 and 401 carries the Error record, the 422 does not',
    behaviour: repeatsRefused(422, { error: 'name has already been taken' }),
  },
  {
    name: 'unauthorized-empty-body',
    breaks: 'error-body-is-error-record',
    code: 'NOT_JSON',
    description: '401 comes with an empty body (a gateway in front of the service)',
    behaviour: { finish: (reply) => (reply.status === 401 ? { ...reply, body: '' } : reply) },
  },

  // §2: Error.status equals the HTTP status
  {
    name: 'error-status-always-400',
    breaks: 'error-status-matches-http',
    code: 'ERROR_STATUS_MISMATCH',
    description: 'every Error record says status 400, whatever the HTTP status',
    behaviour: { errorBody: (_status, code, message) => ({ code, message, status: 400 }) },
  },
  {
    name: 'error-status-is-app-code',
    breaks: 'error-status-matches-http',
    code: 'ERROR_STATUS_MISMATCH',
    description: 'the Error status field carries an application code (40101) instead of the HTTP status',
    behaviour: { errorBody: (status, code, message) => ({ code, message, status: status * 100 + 1 }) },
  },
  // a refusal in a status §7 does not show, whose Error record says another: the record's status is its response's (§2)
  {
    name: 'conflict-answered-with-the-400-record',
    breaks: 'error-status-matches-http',
    code: 'ERROR_STATUS_MISMATCH',
    // confirmed by repeating the run's stored name (repeated-names.ts namedAsInTheRun): "intermittent" before, its attempt's repeat a new name, taken
    recurrence: 'deterministic',
    description:
      "names are unique, and a repeated one is refused with 409 whose Error record comes from the service's validation-error helper, " +
      "which writes status 400 (res.status(409).json(validationError('name is taken'))): every 400 and 401 is right",
    behaviour: {
      finish: (reply, request, store) => {
        const name = isPlainObject(request.body) ? request.body.name : undefined
        if (request.operation !== 'createCategory' || reply.status !== 201 || !store.slice(0, -1).some((r) => r.name === name)) return reply
        store.pop()
        return { ...errorReply(409, 'invalid_request', 'name is taken'), body: conformingBehaviour.errorBody(400, 'invalid_request', 'name is taken') }
      },
    },
  },
  {
    name: 'body-limit-413-with-the-parse-error-record',
    breaks: 'error-status-matches-http',
    code: 'ERROR_STATUS_MISMATCH',
    description:
      "a create body over 4,096 bytes is refused with 413 (a size limit, which §8 leaves open) by an Express error handler written for body-parser's " +
      "parse errors: res.status(err.status) with the Error record it writes for entity.parse.failed, status 400, also for entity.too.large",
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || Buffer.byteLength(request.rawBody ?? '') <= 4_096) return reply
        if (reply.status === 201) store.pop()
        return { status: 413, headers: {}, body: conformingBehaviour.errorBody(400, 'invalid_json', 'request entity too large') }
      },
    },
  },

  // §4: responses are application/json
  {
    name: 'no-content-type',
    breaks: 'json-content-type',
    code: 'WRONG_CONTENT_TYPE',
    description: 'no response declares a Content-Type',
    behaviour: { finish: (reply) => ({ ...reply, headers: { ...reply.headers, 'content-type': '' } }) },
  },
  {
    name: 'list-as-text-plain',
    breaks: 'json-content-type',
    code: 'WRONG_CONTENT_TYPE',
    description: 'the list is JSON but declared text/plain',
    behaviour: {
      finish: (reply, request) =>
        request.operation === 'listCategories' && reply.status === 200 ? { ...reply, headers: { ...reply.headers, 'content-type': 'text/plain; charset=utf-8' } } : reply,
    },
  },
  {
    name: 'invalid-json-plain-text-400',
    breaks: 'json-content-type',
    code: 'WRONG_CONTENT_TYPE',
    description: 'invalid JSON is answered 400 by the body parser, in text/plain: "Bad Request"',
    behaviour: {
      finish: (reply, request) => (isInvalidJson(reply, request) ? { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Bad Request' } : reply),
    },
  },
  {
    name: 'html-errors-unless-json-accepted',
    breaks: 'json-content-type',
    code: 'WRONG_CONTENT_TYPE',
    description:
      'errors are negotiated on Accept: a client that asks for application/json gets the Error record, curl\'s Accept: */* gets an HTML error page (Rails renders its first format, html)',
    behaviour: {
      finish: (reply, request) =>
        reply.status >= 400 && !/application\/json/i.test(request.accept ?? '')
          ? { status: reply.status, headers: { ...reply.headers, 'content-type': 'text/html; charset=utf-8' }, body: `<h1>${reply.status}</h1>` }
          : reply,
    },
  },
  {
    // caught by the 400s the suite asks for as curl does (an empty object) and with no Accept (truncated JSON)
    name: 'bad-request-page-unless-json-accepted',
    breaks: 'json-content-type',
    code: 'WRONG_CONTENT_TYPE',
    description:
      "the service's 400s are negotiated on Accept, its 401s not (a gateway answers those): a client that asks for application/json gets the Error record, curl's Accept: */* and no Accept get public/400.html (Rails' public exceptions render HTML for any format but JSON)",
    behaviour: {
      finish: (reply, request) =>
        reply.status === 400 && !/application\/json/i.test(request.accept ?? '')
          ? { status: 400, headers: { ...reply.headers, 'content-type': 'text/html; charset=utf-8' }, body: '<!DOCTYPE html><title>Bad Request (400)</title><h1>Bad Request</h1>' }
          : reply,
    },
  },
  {
    name: 'xml-for-a-browser',
    breaks: 'json-content-type',
    code: 'WRONG_CONTENT_TYPE',
    description:
      "the list is negotiated on Accept, and a browser's (text/html, application/xhtml+xml, application/xml;q=0.9, */*;q=0.8) gets XML (Spring with jackson-dataformat-xml on its class path)",
    behaviour: {
      finish: (reply, request) =>
        request.operation === 'listCategories' && reply.status === 200 && /application\/xml/i.test(request.accept ?? '')
          ? { status: 200, headers: { ...reply.headers, 'content-type': 'application/xml;charset=UTF-8' }, body: '<List><item><id>1</id></item></List>' }
          : reply,
    },
  },
  {
    name: 'errors-as-problem-json',
    breaks: 'json-content-type',
    code: 'WRONG_CONTENT_TYPE',
    description: 'errors are declared application/problem+json instead of application/json',
    behaviour: { finish: (reply) => (reply.status >= 400 ? { ...reply, headers: { ...reply.headers, 'content-type': 'application/problem+json' } } : reply) },
  },
  {
    // measured (stackhunt11): a front answering as Spring negotiates a ProblemDetail; the words say so (more-stacks-answers.ts problemJsonWords)
    name: 'problem-json-unless-json-asked',
    breaks: 'json-content-type',
    code: 'WRONG_CONTENT_TYPE',
    description:
      "errors are declared application/problem+json to a request whose Accept does not name application/json (*/*, none, a browser's), application/json to one that does, as Spring negotiates a ProblemDetail",
    behaviour: {
      finish: (reply, request) =>
        reply.status >= 400 && !/application\/json/i.test(request.accept ?? '') ? { ...reply, headers: { ...reply.headers, 'content-type': 'application/problem+json' } } : reply,
    },
  },
  {
    name: 'json-only-if-accepted',
    breaks: 'json-content-type',
    code: 'WRONG_CONTENT_TYPE',
    description: "answers are declared application/json only to a client whose Accept names it; curl's Accept: */* gets the same JSON as text/plain",
    behaviour: {
      finish: (reply, request) =>
        reply.status < 300 && !(request.accept ?? '').includes('application/json') ? { ...reply, headers: { ...reply.headers, 'content-type': 'text/plain; charset=utf-8' } } : reply,
    },
  },
  {
    name: 'text-plain-without-accept',
    breaks: 'json-content-type',
    code: 'WRONG_CONTENT_TYPE',
    description: 'a request with no Accept header gets its answer (the same JSON) declared text/plain',
    behaviour: {
      finish: (reply, request) => (reply.status < 300 && request.accept === undefined ? { ...reply, headers: { ...reply.headers, 'content-type': 'text/plain; charset=utf-8' } } : reply),
    },
  },
  {
    // caught by the creates refused for their lengths (a 400 to a valid body): the service's other errors are application/json
    name: 'length-refusals-declared-text-plain',
    breaks: 'json-content-type',
    code: 'WRONG_CONTENT_TYPE',
    description:
      "a VARCHAR(32) name and a VARCHAR(255) description whose length errors are written apart from the service's other errors, with Go's http.Error(w, text, 400) and the Error record's JSON as the text: " +
      'the record comes declared text/plain; charset=utf-8 (http.Error sets it), every other error application/json',
    behaviour: {
      ...columnLimits(32, 255),
      finish: (reply, request) =>
        request.operation === 'createCategory' && reply.status === 400 && request.body !== undefined && conformingBehaviour.validate(request.body) === null
          ? { ...reply, headers: { ...reply.headers, 'content-type': 'text/plain; charset=utf-8' } }
          : reply,
    },
  },
  {
    // measured: Express 4.22 with express.json({ verify }) whose TextDecoder('utf-8', { fatal: true }) throws
    // a TypeError: body-parser 1.20 answers createError(403, err), entity.verify.failed. Every such
    // answer comes to a POST with the key, last in the run once confirmed: it read as a revoked key
    name: 'not-utf8-answers-403',
    breaks: 'create-rejects-invalid-json',
    code: 'UNEXPECTED_STATUS',
    description:
      "a body that is not UTF-8 is refused with 403 and the Error record, as Express's body-parser answers an error its verify option throws without a status " +
      "(entity.verify.failed): the strict decoder express.json({ verify }) runs, with the valid key",
    behaviour: {
      finish: (reply, request) => (isInvalidJson(reply, request) && (request.rawBody ?? '').includes('\ufffd') ? errorReply(403, 'entity.verify.failed', 'The encoded data was not valid for encoding utf-8') : reply),
    },
  },
]

/** A create whose name is stored already refused with `status` and `body`, the record not kept. */
function repeatsRefused(status: number, body: Record<string, string>): Mutation['behaviour'] {
  return {
    finish: (reply, request, store) => {
      const name = isPlainObject(request.body) ? request.body.name : undefined
      if (request.operation !== 'createCategory' || reply.status !== 201 || !store.slice(0, -1).some((r) => r.name === name)) return reply
      store.pop()
      return { status, headers: { 'content-type': 'application/json' }, body }
    },
  }
}
