/** Checks on what a request without a valid key must not get (§1 rule 2, §5.1). */
import type { HttpResult } from '../http/client.ts'
import type { Exchange } from '../http/exchange.ts'
import { servedByCache } from './cache-headers.ts'
import { schemaProblems } from '../spec/schema-registry.ts'
import { fail, NotApplicable } from './failure.ts'
import { describeStatus, jsonBodyOf } from './response.ts'

/**
 * A path the document does not show but a router may take for GET /categories (a trailing slash):
 * any answer is free (401, 404, a redirect …) but the category list itself, which would mean the
 * list operation ran without authentication. A 2xx whose body is a non-empty array of Category
 * records fails; so does one that holds a record named `created` (a category this run created),
 * at any depth: the list's data in another shape (an envelope, a legacy route's {"items": …}).
 */
export function expectListNotServedWithoutKey(result: HttpResult, created?: string): void {
  const response = result.exchange.response
  if (!response) throw new NotApplicable(`no response to judge: ${result.exchange.error?.message ?? 'transport error'}`)
  if (response.status < 200 || response.status > 299) return
  let body: unknown
  try {
    body = jsonBodyOf(result)
  } catch {
    return // not JSON, so not the list: the path serves something else, which the document leaves open
  }
  if (!Array.isArray(body) || schemaProblems('CategoryList', body) !== null) {
    if (created === undefined || !holdsRecordNamed(body, created)) return
    fail(
      {
        code: 'SERVED_WITHOUT_KEY',
        message: `${result.exchange.request.method} ${pathOf(result)} answered ${describeStatus(response)} with the categories' data in another shape (a category this run created, ${JSON.stringify(created)}) to a request without a valid key, expected 401`,
        expected: 'status 401, or any answer that does not serve the categories',
        actual: `status ${describeStatus(response)} and a body holding the category ${JSON.stringify(created)}`,
      },
      result.exchange,
    )
  }
  // [] shows no category: the list of an empty store, or any route's empty answer, which the document leaves free
  if (body.length === 0) throw new NotApplicable(`answered ${describeStatus(response)} with an empty array, which shows no category: not judged`)
  fail(
    {
      code: 'SERVED_WITHOUT_KEY',
      message: `${result.exchange.request.method} ${pathOf(result)} answered ${describeStatus(response)} with the category list (${body.length} records) to a request without a valid key, expected 401`,
      expected: 'status 401, or any answer that does not serve the list',
      actual: `status ${describeStatus(response)} and an array of ${body.length} Category records`,
    },
    result.exchange,
  )
}

/** Whether a JSON value holds, at any depth (a few levels: envelopes are shallow), an object whose name is `name`. */
function holdsRecordNamed(value: unknown, name: string, depth = 0): boolean {
  if (depth > 8 || value === null || typeof value !== 'object') return false
  if (Array.isArray(value)) return value.some((item) => holdsRecordNamed(item, name, depth + 1))
  if ((value as { name?: unknown }).name === name) return true
  return Object.values(value).some((inner) => holdsRecordNamed(inner, name, depth + 1))
}

/** The path as it went on the wire, below the origin: the evidence of which form was served. */
const pathOf = (result: HttpResult) => result.exchange.request.url.replace(/^[a-z]+:\/\/[^/]+/i, '')

/**
 * A form of the path of GET /pets/{petId} or GET /store/orders (§1 rule 2, §5.1): their shapes are
 * not shown (§4.3), so any JSON served with a 2xx to a request without a key is the operation's
 * answer, given to anyone. Everything else is free: 401, 403, 404, a redirect, an HTML page of a
 * catch-all route (a single-page app or a gateway in front).
 */
export function expectOperationNotServedWithoutKey(result: HttpResult, operation: string): void {
  const response = result.exchange.response
  if (!response) throw new NotApplicable(`no response to judge: ${result.exchange.error?.message ?? 'transport error'}`)
  if (response.status < 200 || response.status > 299) return
  try {
    jsonBodyOf(result)
  } catch {
    return // not JSON: an HTML page or other content of a route that is not the operation
  }
  fail(
    {
      code: 'SERVED_WITHOUT_KEY',
      message: `GET ${pathOf(result)} answered ${describeStatus(response)} with JSON to a request without a valid key: a router took it for ${operation}, which ran unauthenticated`,
      expected: 'status 401, or any answer that is not the operation\'s (404, 403, a redirect, an HTML page)',
      actual: `status ${describeStatus(response)} and a JSON body`,
    },
    result.exchange,
  )
}

/**
 * A 404 to a header that is not the valid key, where the same path answered 401 to a request
 * without any (or 500: a key check that threw on it, measured on Fastify 5 with Node's
 * timingSafeEqual): the key is looked at before the route there, so this header passed that look. Said
 * as such, not as a router answering before any key check (known-answers.ts's words for a 404).
 * Measured: a Rack service under Puma that took `header.sub(/\ABearer /, '')` as the token, and so
 * the key without a scheme, then had no route for GET /store/orders.
 */
export function expectNotRoutedPastTheKeyCheck(result: HttpResult, withoutKey: HttpResult): void {
  const response = result.exchange.response
  // a 500 there is a key check that failed on no key (Node's timingSafeEqual throwing for buffers of other lengths): looked at before the route all the same
  const noKey = withoutKey.exchange.response?.status
  if (response?.status !== 404 || (noKey !== 401 && noKey !== 500)) return
  fail(
    {
      code: 'UNEXPECTED_STATUS',
      observed: 'status 404',
      message:
        `GET answered 404, expected 401: the same path answered ${noKey} to a request without a key, so the key is checked before the route is looked up there, and this header passed that check: ` +
        "the service took it for the valid key (a token read by stripping a prefix, Ruby's header.sub(/\\ABearer /, '') or Go's strings.TrimPrefix, takes the bare key too) and then had no route for the operation, " +
        'or it checks only that a key is present before routing; compare the whole header to "Bearer <key>" before the route is looked up (§5.3)',
      expected: 'status 401',
      actual: `status 404, where the request without a key got ${noKey}`,
    },
    result.exchange,
    withoutKey.exchange,
  )
}

/**
 * Where to look for a key not checked, from what was served (`exchanges`: the failed checks'): a
 * request with no Authorization header at all served says the route has no authentication; when
 * only headers with a key not issued (an empty token, the key without its last character) were
 * served, authentication ran and let them through: the key is compared loosely (token-compared-as-prefix
 * served those and refused every request without the header, and the words sent its reader to look
 * for an unmounted route). Answers that say a cache in front gave them (Age, X-Cache: HIT) name the
 * cache instead: the key check is not the cause (cache-headers.ts).
 */
export function keyNotCheckedHint(exchanges: readonly Exchange[]): string {
  const servedWithoutHeader = exchanges.some((e) => e.response !== undefined && e.response.status < 300 && e.request.headers.authorization === undefined)
  const cache = servedByCache(exchanges)
  if (servedWithoutHeader) return cache ?? 'is authentication mounted on every route? a middleware registered after the routes, or a gateway route without its authorizer'
  return cache ?? 'requests with no Authorization header were refused: is the key compared whole? an empty token, or a part of the key, taken for it'
}
