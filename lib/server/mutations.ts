/**
 * Misbehaving servers: each mutation makes the reference server break one rule of
 * spec/rules.yaml the way real services go wrong. The kill matrix (test/mutants/) runs the suite
 * against each one and demands exit 1 with the named rule among the failed ones; every must-rule
 * has at least two mutations.
 */
import { conformingBehaviour, type Behaviour, type StoredCategory } from './reference-server.ts'
import {
  errorReply,
  isInvalidBody,
  isInvalidJson,
  isMissingBody,
  isPlainObject,
  recordWithRawId,
  seedCategories,
  type Mutation,
} from './server-cases.ts'

export type { Mutation } from './server-cases.ts'

const BEARER = /^Bearer (\S+)$/

/** Authentication that compares a bearer token to the key in its own, too lenient, way. */
const tokenAccepted = (accepts: (token: string, key: string) => boolean): Pick<Behaviour, 'authorize'> => ({
  authorize: (authorization, key) => {
    const token = BEARER.exec(authorization ?? '')?.[1]
    return token !== undefined && accepts(token, key)
  },
})

/** Authorization that is conforming except for one operation, which lets anyone in. */
const forgetsAuthOn = (operation: string): Behaviour['authorize'] => (authorization, key, op) =>
  op === operation || conformingBehaviour.authorize(authorization, key, op)

const withoutDescription = ({ description: _dropped, ...rest }: StoredCategory) => rest

export const MUTATIONS: readonly Mutation[] = [
  // §4.1 listCategories answers 200
  {
    name: 'list-500-after-first-create',
    breaks: 'list-returns-200',
    description: 'the list works while the store is empty and answers 500 once a category has been created',
    behaviour: {
      finish: (reply, request, store) =>
        request.operation === 'listCategories' && reply.status === 200 && store.length > 0
          ? errorReply(500, 'internal', 'Cannot serialise category: undefined')
          : reply,
    },
  },
  {
    name: 'list-demands-paging-parameters',
    breaks: 'list-returns-200',
    description: 'the list answers 400 unless undeclared paging parameters (?limit=…) are sent',
    behaviour: {
      finish: (reply, request) =>
        request.operation === 'listCategories' && reply.status === 200 ? errorReply(400, 'invalid_request', 'query parameter "limit" is required') : reply,
    },
  },
  {
    name: 'list-redirects-to-trailing-slash',
    breaks: 'list-returns-200',
    description: 'GET /categories answers 301 to /categories/ (a framework that appends slashes)',
    behaviour: {
      finish: (reply, request) =>
        request.operation === 'listCategories' && reply.status === 200 ? { status: 301, headers: { location: `${request.path}/` }, body: '' } : reply,
    },
  },

  // §4.1 the list is an array of Category records
  {
    name: 'list-wrapped-in-items',
    breaks: 'list-returns-category-array',
    description: 'the list comes wrapped in an envelope: {"items": [...]}',
    behaviour: { listBody: (store) => ({ items: store }) },
  },
  {
    name: 'list-ids-as-strings',
    breaks: 'list-returns-category-array',
    description: 'the list writes ids as strings ("17"), as some serialisers do for 64-bit integers',
    behaviour: { listBody: (store) => store.map((r) => ({ ...r, id: r.id.toString() })) },
  },
  {
    name: 'list-null-descriptions',
    breaks: 'list-returns-category-array',
    description: 'the list writes "description": null for categories without one (description is a string when present)',
    behaviour: { listBody: (store) => store.map((r) => ({ ...r, description: r.description ?? null })) },
    seed: () => seedCategories(3),
  },

  // §4.2 create answers 201
  {
    name: 'create-answers-200',
    breaks: 'create-returns-201',
    description: 'a successful create answers 200 instead of 201',
    behaviour: { finish: (reply, request) => (request.operation === 'createCategory' && reply.status === 201 ? { ...reply, status: 200 } : reply) },
  },
  {
    name: 'create-answers-202',
    breaks: 'create-returns-201',
    description: 'a successful create answers 202 Accepted (queued) instead of 201',
    behaviour: { finish: (reply, request) => (request.operation === 'createCategory' && reply.status === 201 ? { ...reply, status: 202 } : reply) },
  },
  {
    name: 'non-ascii-name-rejected',
    breaks: 'create-returns-201',
    description: 'a name outside ASCII (Ñandú 🐇) is refused with 400, as by a Latin-1 database column',
    behaviour: {
      validate: (body) =>
        conformingBehaviour.validate(body) ?? (/[^\x20-\x7e]/.test((body as { name: string }).name) ? 'name must contain printable ASCII only' : null),
    },
  },

  // §4.2 the created record is a Category with an int64 id
  {
    name: 'created-id-as-string',
    breaks: 'create-returns-category',
    description: 'the created record carries its id as a string ("17")',
    behaviour: { createdBody: (record) => ({ ...record, id: record.id.toString() }) },
  },
  {
    name: 'created-id-fraction',
    breaks: 'create-returns-category',
    description: 'the created id is a fraction (a timestamp with milliseconds, 1732112345.123)',
    behaviour: { createdBody: (record) => recordWithRawId(record, `${record.id}.5`) },
  },
  {
    name: 'id-past-int64',
    breaks: 'create-returns-category',
    description: 'ids start at 2^63 (9223372036854775808), one past the largest int64',
    behaviour: { nextId: (store) => (store.length === 0 ? 2n ** 63n : store[store.length - 1].id + 1n) },
  },
  {
    name: 'created-id-missing',
    breaks: 'create-returns-category',
    description: 'the create answers with the fields sent but without the assigned id',
    behaviour: { createdBody: ({ id: _id, ...rest }) => rest },
  },

  // §4.2 rule 2: every field sent comes back unchanged
  {
    name: 'name-lower-cased',
    breaks: 'create-echoes-fields',
    description: 'names are stored lower-cased ("Ñandú" becomes "ñandú")',
    behaviour: { toRecord: (body, id) => conformingBehaviour.toRecord({ ...body, name: body.name.toLowerCase() }, id) },
  },
  {
    name: 'name-trimmed',
    breaks: 'create-echoes-fields',
    description: 'leading and trailing spaces are trimmed from names',
    behaviour: { toRecord: (body, id) => conformingBehaviour.toRecord({ ...body, name: body.name.trim() }, id) },
  },
  {
    name: 'description-dropped',
    breaks: 'create-echoes-fields',
    description: 'the description is accepted and silently dropped',
    behaviour: { toRecord: (body, id) => ({ id, name: body.name }) },
  },

  // §2: ids are unique
  {
    name: 'id-sequence-stuck',
    breaks: 'ids-unique',
    description: 'every created category gets id 1 (the sequence is read but never advanced)',
    behaviour: { nextId: () => 1n },
  },
  {
    name: 'list-repeats-last-row',
    breaks: 'ids-unique',
    description: 'the list repeats its last record (an off-by-one in a paging loop)',
    behaviour: { listBody: (store) => (store.length === 0 ? [] : [...store, store[store.length - 1]]) },
    seed: () => seedCategories(3),
  },

  // §4.1: a created category is among all categories listed afterwards
  {
    name: 'list-omits-newest',
    breaks: 'created-in-list',
    description: 'the list leaves out the most recently created category (an off-by-one)',
    behaviour: { listBody: (store) => store.slice(0, -1) },
  },
  {
    name: 'list-omits-description',
    breaks: 'created-in-list',
    description: 'the list shows summaries: every category without its description',
    behaviour: { listBody: (store) => store.map(withoutDescription) },
  },
  {
    name: 'list-mojibake-names',
    breaks: 'created-in-list',
    description: 'the list decodes stored UTF-8 names as Latin-1 (mojibake: "Ñandú" is listed as "Ã‘andÃº"); the create answer is right',
    behaviour: { listBody: (store) => store.map((r) => ({ ...r, name: Buffer.from(r.name, 'utf8').toString('latin1') })) },
  },
  {
    name: 'list-id-differs-from-created',
    breaks: 'created-in-list',
    description: 'the create answers a provisional id; the list shows the stored one, which differs (provisional + 1000)',
    behaviour: { createdBody: (record) => ({ ...record, id: record.id + 1000n }) },
  },
  {
    name: 'create-stores-nothing',
    breaks: 'created-in-list',
    description: 'a create answers 201 with the record but the write is lost (never committed)',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation === 'createCategory' && reply.status === 201) store.pop()
        return reply
      },
    },
  },

  // §4.2 rule 1: a body without name is answered 400
  {
    name: 'missing-name-gets-default',
    breaks: 'create-rejects-missing-name',
    description: 'a body without name creates a category named "unnamed"',
    behaviour: {
      validate: (body) => (isPlainObject(body) && !('name' in body) ? conformingBehaviour.validate({ ...body, name: 'unnamed' }) : conformingBehaviour.validate(body)),
      toRecord: (body, id) => conformingBehaviour.toRecord({ ...body, name: body.name ?? 'unnamed' }, id),
    },
  },
  {
    name: 'missing-name-answers-422',
    breaks: 'create-rejects-missing-name',
    description: 'a body without name is answered 422 Unprocessable Entity instead of 400',
    behaviour: {
      finish: (reply, request) =>
        isInvalidBody(reply, request) && isPlainObject(request.body) && !('name' in request.body)
          ? errorReply(422, 'unprocessable', 'name is required')
          : reply,
    },
  },

  // §4.2 rule 1: a value of the wrong type is answered 400
  {
    name: 'name-number-coerced',
    breaks: 'create-rejects-invalid-values',
    description: 'a numeric name is accepted and stored as a string (42 becomes "42")',
    behaviour: {
      validate: (body) => conformingBehaviour.validate(isPlainObject(body) && typeof body.name === 'number' ? { ...body, name: String(body.name) } : body),
      toRecord: (body, id) => conformingBehaviour.toRecord({ ...body, name: String(body.name) }, id),
    },
  },
  {
    name: 'null-description-accepted',
    breaks: 'create-rejects-invalid-values',
    description: '"description": null is accepted as "no description"',
    behaviour: {
      validate: (body) => conformingBehaviour.validate(isPlainObject(body) && body.description === null ? { name: body.name } : body),
      toRecord: (body, id) => conformingBehaviour.toRecord({ name: body.name, ...(typeof body.description === 'string' ? { description: body.description } : {}) }, id),
    },
  },
  {
    name: 'array-body-takes-first',
    breaks: 'create-rejects-invalid-values',
    description: 'a body that is an array is taken as a batch of one: its first element is created',
    behaviour: {
      validate: (body) => conformingBehaviour.validate(Array.isArray(body) ? body[0] : body),
      toRecord: (body, id) => conformingBehaviour.toRecord(Array.isArray(body) ? (body[0] as typeof body) : body, id),
    },
  },
  {
    name: 'validation-answers-422',
    breaks: 'create-rejects-invalid-values',
    description: 'every body that fails validation is answered 422 (Rails style) instead of 400',
    behaviour: {
      finish: (reply, request) => (isInvalidBody(reply, request) ? errorReply(422, 'unprocessable', 'the body does not validate') : reply),
    },
  },

  // §5.4: invalid JSON is answered 400
  {
    name: 'invalid-json-answers-500',
    breaks: 'create-rejects-invalid-json',
    description: 'the JSON parse error escapes to the error handler: 500',
    behaviour: { finish: (reply, request) => (isInvalidJson(reply, request) ? errorReply(500, 'internal', 'Unexpected end of JSON input') : reply) },
  },
  {
    name: 'invalid-json-answers-422',
    breaks: 'create-rejects-invalid-json',
    description: 'invalid JSON is answered 422 "JSON decode error" (FastAPI style)',
    behaviour: { finish: (reply, request) => (isInvalidJson(reply, request) ? errorReply(422, 'json_invalid', 'JSON decode error') : reply) },
  },
  {
    name: 'lenient-json-parser',
    breaks: 'create-rejects-invalid-json',
    description: 'a forgiving parser repairs trailing commas and unclosed braces, and creates the category',
    behaviour: {
      parseBody(text) {
        try {
          return JSON.parse(text) as unknown
        } catch (error) {
          const trimmed = text.trim().replace(/,$/, '')
          if (trimmed === '') throw error
          const open = (trimmed.match(/\{/g) ?? []).length - (trimmed.match(/\}/g) ?? []).length
          return JSON.parse(trimmed + '}'.repeat(Math.max(open, 0))) as unknown
        }
      },
    },
  },

  // §4.2, §5.4: a create without a body is answered 400
  {
    name: 'missing-body-answers-500',
    breaks: 'create-rejects-missing-body',
    description: 'an empty body crashes the handler (reading a property of undefined): 500',
    behaviour: {
      finish: (reply, request) =>
        isMissingBody(reply, request) ? errorReply(500, 'internal', "Cannot read properties of undefined (reading 'name')") : reply,
    },
  },
  {
    name: 'missing-body-answers-411',
    breaks: 'create-rejects-missing-body',
    description: 'an empty body is answered 411 Length Required',
    behaviour: { finish: (reply, request) => (isMissingBody(reply, request) ? errorReply(411, 'length_required', 'a request body is required') : reply) },
  },

  // §5.3: a missing key is answered 401
  {
    name: 'missing-key-answers-403',
    breaks: 'auth-missing-key-401',
    description: 'a request without Authorization is answered 403 "Missing Authentication Token" (an API gateway)',
    behaviour: {
      finish: (reply, request) =>
        reply.status === 401 && request.authorization === undefined ? errorReply(403, 'forbidden', 'Missing Authentication Token') : reply,
    },
  },
  {
    name: 'token-compared-as-prefix',
    breaks: 'auth-missing-key-401',
    description: 'the token is compared as a prefix of the key, so an empty bearer token is let in',
    behaviour: {
      authorize: (authorization, key) => {
        const match = /^Bearer ?(.*)$/.exec(authorization ?? '')
        return match !== null && key.startsWith(match[1])
      },
    },
  },
  {
    name: 'get-pet-without-auth',
    breaks: 'auth-missing-key-401',
    description: 'GET /pets/{petId} forgets authentication (answers 404 to anyone)',
    behaviour: { authorize: forgetsAuthOn('getPet') },
  },
  {
    name: 'store-orders-without-auth',
    breaks: 'auth-missing-key-401',
    description: 'GET /store/orders forgets authentication (answers 200 to anyone)',
    behaviour: { authorize: forgetsAuthOn('listStoreOrders') },
  },

  // §5.2, §5.3: an invalid key, or the key not sent as a bearer token, is answered 401
  {
    name: 'any-bearer-token-accepted',
    breaks: 'auth-invalid-key-401',
    description: 'any non-empty bearer token is accepted (the key is never compared)',
    behaviour: { authorize: (authorization) => BEARER.test(authorization ?? '') },
  },
  {
    name: 'basic-scheme-accepted',
    breaks: 'auth-invalid-key-401',
    description: 'the scheme is not checked: the key is accepted under Basic too',
    behaviour: { authorize: (authorization, key) => conformingBehaviour.authorize((authorization ?? '').replace(/^\S+ /, 'Bearer '), key, undefined) },
  },
  {
    name: 'bare-key-accepted',
    breaks: 'auth-invalid-key-401',
    description: 'the key is accepted without any scheme (Authorization: <key>)',
    behaviour: {
      authorize: (authorization, key, op) => authorization === key || conformingBehaviour.authorize(authorization, key, op),
    },
  },
  {
    name: 'invalid-key-answers-403',
    breaks: 'auth-invalid-key-401',
    description: 'a wrong key is answered 403 Forbidden instead of 401',
    behaviour: {
      finish: (reply, request) =>
        reply.status === 401 && request.authorization !== undefined ? errorReply(403, 'forbidden', 'The API key is not valid.') : reply,
    },
  },

  // §7: every 400 and 401 carries an Error record
  {
    name: 'error-without-status',
    breaks: 'error-body-is-error-record',
    description: 'Error records carry code and message but no status',
    behaviour: { errorBody: (_status, code, message) => ({ code, message }) },
  },
  {
    name: 'error-as-problem-details',
    breaks: 'error-body-is-error-record',
    description: 'errors are RFC 9457 problem details (type, title, status, detail) without code and message',
    behaviour: { errorBody: (status, code, message) => ({ type: `https://petstore.example/problems/${code}`, title: code, status, detail: message }) },
  },
  {
    name: 'error-code-as-number',
    breaks: 'error-body-is-error-record',
    description: 'the Error code is a number (40101) instead of a string',
    behaviour: { errorBody: (status, _code, message) => ({ code: status * 100 + 1, message, status }) },
  },
  {
    name: 'error-status-as-string',
    breaks: 'error-body-is-error-record',
    description: 'the Error status is the HTTP status as a string ("401") instead of an integer',
    behaviour: { errorBody: (status, code, message) => ({ code, message, status: String(status) }) },
  },
  {
    name: 'unauthorized-empty-body',
    breaks: 'error-body-is-error-record',
    description: '401 comes with an empty body (a gateway in front of the service)',
    behaviour: { finish: (reply) => (reply.status === 401 ? { ...reply, body: '' } : reply) },
  },

  // §2: Error.status equals the HTTP status
  {
    name: 'error-status-always-400',
    breaks: 'error-status-matches-http',
    description: 'every Error record says status 400, whatever the HTTP status',
    behaviour: { errorBody: (_status, code, message) => ({ code, message, status: 400 }) },
  },
  {
    name: 'error-status-is-app-code',
    breaks: 'error-status-matches-http',
    description: 'the Error status field carries an application code (40101) instead of the HTTP status',
    behaviour: { errorBody: (status, code, message) => ({ code, message, status: status * 100 + 1 }) },
  },

  // §4: responses are application/json
  {
    name: 'no-content-type',
    breaks: 'json-content-type',
    description: 'no response declares a Content-Type',
    behaviour: { finish: (reply) => ({ ...reply, headers: { ...reply.headers, 'content-type': '' } }) },
  },
  {
    name: 'list-as-text-plain',
    breaks: 'json-content-type',
    description: 'the list is JSON but declared text/plain',
    behaviour: {
      finish: (reply, request) =>
        request.operation === 'listCategories' && reply.status === 200 ? { ...reply, headers: { ...reply.headers, 'content-type': 'text/plain; charset=utf-8' } } : reply,
    },
  },
  {
    name: 'invalid-json-plain-text-400',
    breaks: 'json-content-type',
    description: 'invalid JSON is answered 400 by the body parser, in text/plain: "Bad Request"',
    behaviour: {
      finish: (reply, request) => (isInvalidJson(reply, request) ? { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Bad Request' } : reply),
    },
  },
  {
    name: 'errors-as-problem-json',
    breaks: 'json-content-type',
    description: 'errors are declared application/problem+json instead of application/json',
    behaviour: { finish: (reply) => (reply.status >= 400 ? { ...reply, headers: { ...reply.headers, 'content-type': 'application/problem+json' } } : reply) },
  },

  // §9.2: the base address ends in /v1
  {
    name: 'served-under-v2',
    breaks: 'base-url-ends-v1',
    description: 'the service is served under /v2, checked with --allow-any-base-path',
    behaviour: {},
    basePath: '/v2',
    args: ['--allow-any-base-path'],
  },
  {
    name: 'served-under-api',
    breaks: 'base-url-ends-v1',
    description: 'the service is served under /api with no version, checked with --allow-any-base-path',
    behaviour: {},
    basePath: '/api',
    args: ['--allow-any-base-path'],
  },
  {
    name: 'served-at-root',
    breaks: 'base-url-ends-v1',
    description: 'the service is served at the root of the host, checked with --allow-any-base-path',
    behaviour: {},
    basePath: '',
    args: ['--allow-any-base-path'],
  },
  {
    name: 'key-compared-case-insensitively',
    breaks: 'auth-invalid-key-401',
    description: 'the key is compared case-insensitively (a database collation does that)',
    behaviour: tokenAccepted((token, key) => token.toLowerCase() === key.toLowerCase()),
  },
  {
    name: 'token-with-key-as-prefix-accepted',
    breaks: 'auth-invalid-key-401',
    description: 'any bearer token that starts with the key is accepted ("Bearer <key>x")',
    behaviour: tokenAccepted((token, key) => token.startsWith(key)),
  },
  {
    name: 'key-truncated-prefix-accepted',
    breaks: 'auth-invalid-key-401',
    description: 'a non-empty bearer token that is a prefix of the key is accepted',
    behaviour: tokenAccepted((token, key) => key.startsWith(token)),
  },
  {
    name: 'new-id-collides-with-existing',
    breaks: 'ids-unique',
    description: 'the next id is the count of categories plus one, so after gaps in the ids a new category gets an id already taken',
    behaviour: { nextId: (store) => BigInt(store.length + 1) },
    seed: () => [2, 4, 6, 8, 10].map((i) => ({ id: BigInt(i), name: `seeded-${i}` })),
  },
  {
    name: 'unauthenticated-create-stored',
    breaks: 'auth-missing-key-401',
    description: 'a create without a valid key is answered 401, but the category is stored anyway (authentication checked after the write)',
    behaviour: (() => {
      let theKey = ''
      return {
        authorize: (a, key, op) => {
          theKey = key
          return op === 'createCategory' || conformingBehaviour.authorize(a, key, op)
        },
        finish: (reply, request) =>
          request.operation === 'createCategory' && !conformingBehaviour.authorize(request.authorization, theKey, 'createCategory')
            ? errorReply(401, 'unauthorized', 'The API key is missing or invalid.', { 'www-authenticate': 'Bearer' })
            : reply,
      } satisfies Partial<Behaviour>
    })(),
  },
  {
    name: 'create-inserts-twice',
    breaks: 'created-in-list',
    description: 'every create stores the category twice (a retried insert); the answer names only the first',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation === 'createCategory' && reply.status === 201 && store) {
          const last = store[store.length - 1]
          store.push({ ...last, id: last.id + 1n })
        }
        return reply
      },
    },
  },
]
