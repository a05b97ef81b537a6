/**
 * Conforming variants: servers that use a freedom the interface document leaves. The suite must
 * pass every one of them (exit 0); a failure here is a false alarm in the suite, not in the server.
 */
import { stringify as losslessStringify } from 'lossless-json'
import { mediaType } from '../http/media-type.ts'
import { INT64_MAX, INT64_MIN } from '../json/exact-json.ts'
import { conformingBehaviour, type Reply, type StoredCategory } from './reference-server.ts'
import { INPUT_VARIANTS } from './variants/inputs.ts'
import { TRANSPORT_VARIANTS } from './variants/transport.ts'
import { ROUTING_VARIANTS } from './variants/routing.ts'
import { CONNECTION_RACE_VARIANTS } from './variants/connection-races.ts'
import { STACK_VARIANTS } from './variants/stacks.ts'
import { combinedVariants } from './variants/combinations.ts'
import { errorReply, isPlainObject, LIST_LAG_MS, listBehindWrites, recordWithRawId, seedCategories, storedNow, type Variant } from './server-cases.ts'

export type { Variant } from './server-cases.ts'

const withHeader = (reply: Reply, name: string, value: string): Reply => ({ ...reply, headers: { ...reply.headers, [name]: value } })
/** Per server (one store each): how many lists it has answered (busy-service-behind-replicas reads every second one from a replica). */
const listsRead = new WeakMap<StoredCategory[], number>()


/** A record as JSON text in forms JSON allows but serialisers rarely write: escaped keys, odd whitespace, extra numbers. */
const unusualRecordText = (r: { id: bigint; name: string; description?: string }) =>
  `{ "\\u0069d" :\t${r.id} ,\n "n\\u0061me":${JSON.stringify(r.name)}` +
  (r.description !== undefined ? `, "descr\\u0069ption" : ${JSON.stringify(r.description)}` : '') +
  ` , "0": 1E2, "rev": -0, "rev": 1.0e0 }`

/**
 * A list read from a replica (or a search index) `lagMs` behind the writes. The table has it at
 * LIST_LAG_MS; test/cli/list-lag.test.ts starts it seconds behind, past a --list-lag it is given.
 */
export function listLagsBehindWrites(lagMs: number): Variant {
  return {
    name: 'list-lags-behind-writes',
    description: `the list is read from a replica (or a search index) that shows a category ${lagMs} ms after it was created: "all categories available" (§4.1) does not say how soon`,
    // a list that differed from read to read is read again once --list-lag has passed (list-lag.ts readPastTheLag)
    slow: 'the list, whole only on a re-read, is read again past --list-lag (5 s)',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation === 'createCategory' && reply.status === 201) storedNow(store, (reply.body as StoredCategory).id)
        return reply
      },
      listBody: (store) => listBehindWrites(store, lagMs),
    },
  }
}

const SINGLE_VARIANTS: readonly Variant[] = [
  {
    name: 'reference-defaults',
    description: 'the reference server as it is: WWW-Authenticate on 401, 404 Error records for unknown pets, Deprecation and Sunset on GET /pets/{petId}',
    behaviour: {},
  },
  {
    name: 'json-with-charset',
    description: 'successes are declared application/json; charset=utf-8, errors Application/JSON;charset=UTF-8 (media types are case-insensitive)',
    behaviour: {
      finish: (reply) => withHeader(reply, 'content-type', reply.status < 400 ? 'application/json; charset=utf-8' : 'Application/JSON;charset=UTF-8'),
    },
  },
  {
    name: 'extra-properties',
    description: 'records and errors carry properties the document does not name, id last; creates add Location and ETag headers',
    behaviour: {
      createdBody: ({ id, ...rest }) => ({ createdAt: '2025-01-01T00:00:00Z', ...rest, links: { self: `/v1/categories/${id}` }, petCount: 0, id }),
      listBody: (store) => store.map(({ id, ...rest }) => ({ ...rest, createdAt: '2025-01-01T00:00:00Z', petCount: 3, id })),
      errorBody: (status, code, message) => ({ code, message, status, requestId: 'req-7f3a', details: [{ field: 'name', issue: code }] }),
      finish: (reply, request) =>
        request.operation === 'createCategory' && reply.status === 201
          ? { ...reply, headers: { ...reply.headers, location: `${request.path}/${(reply.body as { id: bigint }).id.toString()}`, etag: 'W/"1"' } }
          : reply,
    },
  },
  {
    name: 'newest-first',
    description: 'the list is ordered newest first',
    behaviour: { listBody: (store) => [...store].reverse() },
    seed: () => seedCategories(5),
  },
  listLagsBehindWrites(LIST_LAG_MS),
  {
    name: 'ids-from-2-pow-53',
    description: 'ids start at 2^53 (9007199254740992), where a double can no longer tell neighbours apart',
    behaviour: { nextId: (store) => (store.length === 0 ? 2n ** 53n : store[store.length - 1].id + 1n) },
  },
  {
    name: 'ids-down-from-int64-max',
    description: 'ids count down from 2^63-1, the largest int64',
    behaviour: { nextId: (store) => (store.length === 0 ? INT64_MAX : store[store.length - 1].id - 1n) },
  },
  {
    name: 'negative-ids',
    description: 'ids are negative, counting down from -1 (int64 is signed)',
    behaviour: { nextId: (store) => (store.length === 0 ? -1n : store[store.length - 1].id - 1n) },
  },
  {
    name: 'ids-up-from-int64-min',
    description: 'ids count up from -2^63, the smallest int64',
    behaviour: { nextId: (store) => (store.length === 0 ? INT64_MIN : store[store.length - 1].id + 1n) },
  },
  {
    name: 'sparse-random-ids',
    description: 'ids are scattered over the whole positive int64 range (a multiplicative hash of the sequence)',
    behaviour: { nextId: (store) => (BigInt(store.length + 1) * 0x9e3779b97f4a7c15n) % 2n ** 63n },
  },
  {
    name: 'busy-service',
    description: 'other clients create categories all the time: every list shows one more record that the run did not create',
    behaviour: {
      listBody: (store) => {
        // a write by someone else, landing just before this list is read
        const last = store[store.length - 1]
        store.push({ id: (last?.id ?? 0n) + 1n, name: `created-by-someone-else-${store.length}` })
        return store
      },
    },
  },
  {
    name: 'busy-service-behind-replicas',
    description: `other clients create categories all the time (one more before every list), and every second list is read from a replica ${LIST_LAG_MS} ms behind the writes, which lacks the newest of them and of the run's`,
    slow: 'the list, whole only on a re-read, is read again past --list-lag (5 s)',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation === 'createCategory' && reply.status === 201) storedNow(store, (reply.body as StoredCategory).id)
        return reply
      },
      listBody: (store) => {
        const last = store[store.length - 1]
        const someoneElses = { id: (last?.id ?? 0n) + 1n, name: `created-by-someone-else-${store.length}` }
        store.push(someoneElses)
        storedNow(store, someoneElses.id)
        return (listsRead.set(store, (listsRead.get(store) ?? 0) + 1).get(store)! % 2 === 0 ? listBehindWrites(store) : store)
      },
    },
  },
  {
    name: 'rejects-duplicate-names',
    description: 'category names are unique: a second create with a name already taken is refused with 409 Conflict',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || reply.status !== 201) return reply
        const { id, name } = reply.body as { id: bigint; name: string }
        if (!store.some((r) => r.name === name && r.id !== id)) return reply
        store.splice(store.findIndex((r) => r.id === id), 1)
        return errorReply(409, 'conflict', `a category named ${JSON.stringify(name)} exists`)
      },
    },
  },
  {
    name: 'chunked-bodies',
    description: 'bodies are sent with Transfer-Encoding: chunked, in two chunks split inside the first multi-byte UTF-8 character',
    behaviour: { transport: { delayMs: 0, chunked: true, connectionClose: false } },
  },
  {
    name: 'connection-close',
    description: 'every response closes the connection (Connection: close)',
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: true } },
  },
  {
    name: 'slow-answers',
    description: 'every answer takes 150 ms',
    behaviour: { transport: { delayMs: 150, chunked: false, connectionClose: false } },
  },
  {
    name: 'thirty-thousand-categories',
    description: '30,000 categories exist before the run; the list returns all of them in one array',
    behaviour: {},
    seed: () => seedCategories(30_000),
  },
  {
    name: 'empty-list-read-only',
    description: 'the list is empty throughout (run with --read-only, so nothing is created)',
    behaviour: {},
    args: ['--read-only'],
  },
  {
    name: 'rejects-unknown-fields',
    description: 'a create body with a property NewCategory does not name is refused with 400',
    behaviour: {
      validate: (body) =>
        conformingBehaviour.validate(body) ??
        (Object.keys(body as object).some((k) => k !== 'name' && k !== 'description') ? 'unknown property in the body' : null),
    },
  },
  {
    name: 'rejects-empty-names',
    description: 'an empty or blank name, or an empty description, is refused with 400 (an invalid value for this service)',
    behaviour: {
      validate(body) {
        const problem = conformingBehaviour.validate(body)
        if (problem !== null) return problem
        const { name, description } = body as { name: string; description?: string }
        return name.trim() === '' ? 'name must not be blank' : description === '' ? 'description must not be empty' : null
      },
    },
  },
  {
    name: 'no-www-authenticate',
    description: '401 answers carry no WWW-Authenticate header (advisory only: still exit 0)',
    behaviour: { finish: (reply) => (reply.status === 401 ? withHeader(reply, 'www-authenticate', '') : reply) },
  },
  {
    name: 'lower-case-bearer-accepted',
    description: 'the scheme name is matched case-insensitively, so "bearer KEY" is accepted too (RFC 9110 §11.1)',
    behaviour: { authorize: (authorization, key, op) => conformingBehaviour.authorize((authorization ?? '').replace(/^bearer /i, 'Bearer '), key, op) },
  },
  {
    name: 'authorization-read-by-exact-name',
    description:
      "the key is read from the header named exactly \"Authorization\", as §5.2 writes it (PHP's getallheaders()['Authorization'] under php -S): a request that names it in another case has no key",
    behaviour: {
      authorizationOf: (raw) => {
        for (let i = 0; i < raw.length; i += 2) if (raw[i] === 'Authorization') return raw[i + 1]
        return undefined
      },
    },
  },
  {
    name: 'pets-and-orders-served',
    description: 'GET /pets/1 answers a pet and GET /store/orders a list of orders, in shapes the document does not show, without Deprecation or Sunset',
    behaviour: {
      finish: (reply, request) => {
        if (request.operation === 'getPet' && reply.status === 404) {
          return { status: 200, headers: {}, body: { id: 1, name: 'Rex', category: { id: 1, name: 'dog' }, status: 'available' } }
        }
        if (request.operation === 'listStoreOrders' && reply.status === 200) {
          return { ...reply, body: { orders: [{ id: 7, petId: 1, quantity: 1 }], total: 1 } }
        }
        return reply
      },
    },
  },
  {
    name: 'deprecated-pet-gone-after-sunset',
    description:
      'GET /pets/{petId} answers 410 Gone in text/plain to everyone, key or none: its sunset date (not shown, §9.4) has passed and the operation is removed',
    behaviour: {
      finish: (reply, request) =>
        request.operation === 'getPet' ? { status: 410, headers: { 'content-type': 'text/plain; charset=utf-8', sunset: 'Wed, 01 Jan 2025 00:00:00 GMT' }, body: 'Gone' } : reply,
    },
  },
  {
    name: 'pet-id-route-constraint-404',
    description: 'GET /pets/{petId} answers 404 with an Error record before authentication: the route takes only UUID pet ids (the shape of petId is not shown, §4.3), so /pets/1 matches no route',
    behaviour: {
      finish: (reply, request) => (request.operation === 'getPet' ? errorReply(404, 'not_found', `no resource at ${request.path}`) : reply),
    },
  },
  {
    name: 'strict-about-undocumented',
    description: '404 in text/plain for unknown paths and unknown pets, 405 with Allow, 415 for bodies not declared JSON',
    behaviour: {
      finish: (reply, request) => {
        if (request.operation === 'createCategory' && reply.status !== 401 && mediaType(request.contentType) !== 'application/json') {
          return errorReply(415, 'unsupported_media_type', 'send Content-Type: application/json')
        }
        if (reply.status === 404) return { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not Found' }
        if (reply.status === 405) return withHeader(reply, 'allow', request.path.endsWith('/categories') ? 'GET, POST' : 'GET')
        return reply
      },
    },
  },
  {
    name: 'pretty-printed-json',
    description: 'bodies are pretty-printed with two-space indentation and end in a newline',
    behaviour: { finish: (reply) => (typeof reply.body === 'string' ? reply : { ...reply, body: `${losslessStringify(reply.body, undefined, 2) ?? ''}\n` }) },
  },
  {
    name: 'ascii-escaped-json',
    description: 'non-ASCII characters are written as \\u escapes ("\\u00d1and\\u00fa")',
    behaviour: {
      finish: (reply) => {
        if (typeof reply.body === 'string') return reply
        const text = losslessStringify(reply.body) ?? ''
        return { ...reply, body: text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) }
      },
    },
  },
  {
    name: 'errors-with-extra-headers',
    description: '401 names the realm and error in WWW-Authenticate (RFC 6750), errors carry cache and request-id headers',
    behaviour: {
      finish: (reply) => {
        if (reply.status < 400) return reply
        const headers: Record<string, string> = { ...reply.headers, 'cache-control': 'no-store', 'x-request-id': 'req-7f3a' }
        if (reply.status === 401) headers['www-authenticate'] = 'Bearer realm="petstore", error="invalid_token", error_description="The access token is invalid"'
        return { ...reply, headers, body: isPlainObject(reply.body) ? { ...reply.body, hint: 'see the documentation' } : reply.body }
      },
    },
  },
  {
    name: 'unusual-json-text',
    description: 'ids past 2^53 under escaped keys ("\\u0069d"), tabs and newlines between tokens, an integer-like key "0", and an extra property written twice (-0, then 1.0e0)',
    behaviour: {
      nextId: (store) => (store.length === 0 ? 2n ** 53n + 1n : store[store.length - 1].id + 1n),
      finish: (reply, request) => {
        if (request.operation === 'createCategory' && reply.status === 201) return { ...reply, body: unusualRecordText(reply.body as StoredCategory) }
        if (request.operation === 'listCategories' && reply.status === 200) {
          return { ...reply, body: ` [ ${(reply.body as StoredCategory[]).map(unusualRecordText).join(' ,\r\n ')} ]\n` }
        }
        return reply
      },
    },
  },
  {
    name: 'integer-ids-in-other-forms',
    description: 'ids are multiples of 100, written 1E2 in the create answer and 100.000 in the list (integers in JSON Schema terms)',
    behaviour: {
      // the next multiple of 100 past the last id, whoever wrote that (another client's record, a seed)
      nextId: (store) => (store.length === 0 ? 100n : (store[store.length - 1].id / 100n + 1n) * 100n),
      createdBody: (r) => recordWithRawId(r, `${r.id / 100n}E2`),
      listBody: (store) => `[${store.map((r) => recordWithRawId(r, `${r.id}.000`)).join(',')}]`,
    },
  },
  {
    name: 'ids-in-exponent-form-on-create',
    description: 'ids are multiples of 100000 beyond 2^53; the create answer writes them in exponent form (9999999999999e5), the list in plain digits',
    behaviour: {
      nextId: (store) => (store.length === 0 ? 999999999999900000n : (store[store.length - 1].id / 100000n + 1n) * 100000n),
      createdBody: (r) => recordWithRawId(r, `${r.id / 100000n}e5`),
    },
  },
  {
    name: 'list-shows-empty-description',
    description: 'the list writes "description": "" for categories created without one (a default for a field that was not sent)',
    behaviour: { listBody: (store) => store.map((r) => ({ ...r, description: r.description ?? '' })) },
  },
  {
    name: 'create-adds-empty-description',
    description: 'the create answer carries "description": "" when none was sent; the list leaves it out',
    behaviour: { createdBody: (r) => ({ ...r, description: r.description ?? '' }) },
  },
  {
    name: 'gzip-unless-identity',
    description: 'every body is gzipped unless the request allows only identity (RFC 9110: no Accept-Encoding means any coding is acceptable)',
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, gzipUnlessIdentity: true } },
  },
  ...INPUT_VARIANTS,
  ...TRANSPORT_VARIANTS,
  ...ROUTING_VARIANTS,
  ...CONNECTION_RACE_VARIANTS,
  ...STACK_VARIANTS,
]

/** Every variant: the table above, and those of its combinations the suite once failed (variants/combinations.ts). */
export const VARIANTS: readonly Variant[] = [...SINGLE_VARIANTS, ...combinedVariants(SINGLE_VARIANTS)]
