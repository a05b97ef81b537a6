/**
 * Mutations of §4.1 "all categories" whose list differs by how it is asked for (its Accept, its
 * Accept-Encoding) or by when it is read: the run's own list, asked
 * for with Accept: application/json and no coding, shows every record as sent. Caught by
 * created-in-list on the run's other lists (suites/categories/list-checks.ts, the lists asked for
 * otherwise) and on the list read again.
 */
import type { Behaviour, Reply, RequestInfo, StoredCategory } from '../reference-server.ts'
import { recordWithRawId, seedCategories, type Mutation } from '../server-cases.ts'

const LISTED = { breaks: 'created-in-list', code: 'LISTED_FIELD_CHANGED' } as const

/** The records of a list answered 200, changed by `change`, when `applies` to its request. */
const listAnsweredAs =
  (applies: (request: RequestInfo) => boolean, change: (record: StoredCategory) => object) =>
  (reply: Reply, request: RequestInfo): Reply =>
    request.operation === 'listCategories' && reply.status === 200 && Array.isArray(reply.body) && applies(request)
      ? { ...reply, body: (reply.body as StoredCategory[]).map(change) }
      : reply

const eachText = (f: (text: string) => string) => (r: StoredCategory) => ({ ...r, name: f(r.name), ...(r.description !== undefined ? { description: f(r.description) } : {}) })

/** UTF-8 bytes taken one by one for characters (a 'binary' string) and encoded as UTF-8 again: é becomes Ã©. */
const doubleEncoded = (text: string) => Buffer.from(text, 'utf8').toString('latin1')
const forBrowsers = (request: RequestInfo) => /^\s*text\/html/i.test(request.accept ?? '')
/** Snowflake-like ids: past 2^60, 2^22 + 1 apart (a new millisecond each), so that no two round to one double. */
const snowflakeAfter = (store: StoredCategory[]) => (store.length === 0 ? 2n ** 60n + 1n : store[store.length - 1].id + 2n ** 22n + 1n)
const htmlEscaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

export const LIST_VIEW_MUTATIONS: readonly Mutation[] = [
  {
    // caught by the list asked for as a browser asks, after the run's creates (gzip, deflate, br)
    name: 'gzipped-list-double-encoded',
    ...LISTED,
    description:
      "a compression step of the service's own, for clients that accept gzip (browsers, curl --compressed, most HTTP libraries), collects the body as a 'binary' string (chunk.toString('binary'): a character for each byte) and gzips that string, which zlib encodes as UTF-8: " +
      'every character beyond ASCII reaches them double-encoded (é as Ã©), valid JSON still; a client that asks for no coding gets the list right',
    behaviour: { finish: listAnsweredAs((request) => /\bgzip\b/i.test(request.acceptEncoding ?? ''), eachText(doubleEncoded)) },
  },
  {
    // caught by the list asked for with a browser's Accept, after the run's creates
    name: 'browser-list-html-escaped',
    ...LISTED,
    description:
      'an output-encoding filter against cross-site scripting (a servlet filter with an HTML encoder) HTML-escapes every string value of the answers to browsers, told by an Accept that puts text/html first: ' +
      '& reaches them as &amp; and " as &quot; inside JSON that stays valid; API clients get the values as stored',
    behaviour: { finish: listAnsweredAs(forBrowsers, eachText(htmlEscaped)) },
  },
  {
    // caught by the list asked for with no Accept header: sent beside the creates, it shows those the
    // server stored before it (this one takes requests in the order they came); on the records it shows
    name: 'bare-list-without-descriptions',
    ...LISTED,
    description:
      'the list has two representations chosen by Accept, a summary one (id and name) declared first and the full record for application/json; a request with no Accept matches both, and the router takes the first, ' +
      'written as application/json all the same: a client that sends the key alone (§5.2) gets every category without its description',
    behaviour: { finish: listAnsweredAs((request) => request.accept === undefined, ({ id, name }) => ({ id, name })) },
  },
  {
    // caught by the list read again after the run's POSTs (or by the last list, when a list read before it was the first to show the records)
    name: 'names-trimmed-after-first-read',
    ...LISTED,
    description:
      "reads of the writer's own records go to the primary once (read-your-writes: a record just created is read from a cache of fresh records, as sent, and leaves it once read), and to the database after, " +
      "whose row an ORM mutator wrote trimmed (Eloquent's setNameAttribute with trim()): a category's name loses its leading and trailing spaces from its second read on",
    behaviour: (() => {
      const readOnce = new WeakSet<StoredCategory>()
      return {
        listBody: (store) =>
          store.map((r) => {
            if (!readOnce.has(r)) return (readOnce.add(r), r)
            return { ...r, name: r.name.trim() }
          }),
      } satisfies Partial<Behaviour>
    })(),
  },
  {
    // caught by the list asked for as a browser asks, after the run's creates: it shows each created
    // record under another id (listed-under-another-id.ts), which a list behind the writes does not
    name: 'browser-list-ids-rounded',
    ...LISTED,
    description:
      "ids are snowflakes past 2^53, written exactly by the service; an edge function in front (Lambda@Edge, a Cloudflare Worker) rewrites the answers to browsers with JSON.parse and JSON.stringify to add a field, and every id comes out rounded to a double " +
      '(1152921504606846977 as 1152921504606847000): API clients get them exact, and no two of them round alike',
    behaviour: {
      nextId: snowflakeAfter,
      finish: (reply, request) =>
        request.operation === 'listCategories' && reply.status === 200 && Array.isArray(reply.body) && forBrowsers(request)
          ? { ...reply, body: `[${(reply.body as StoredCategory[]).map((r) => recordWithRawId(r, String(Number(r.id)))).join(',')}]` }
          : reply,
    },
  },
  {
    // caught by comparing the records the list with no Accept shows with the first list's (still-listed.ts):
    // it shows none of the run's creates, which a list behind the writes may not
    name: 'bare-list-cached-without-descriptions',
    breaks: 'created-in-list',
    code: 'CHANGED_BETWEEN_LISTS',
    description:
      'the summary representation (id and name), which the router picks for a request with no Accept, is served from a cache filled by the first list the service answered and not refreshed during the run: ' +
      'a client that sends the key alone (§5.2) gets the categories stored before without their descriptions, and none of the run\'s',
    behaviour: (() => {
      let cached: unknown
      return {
        finish: (reply: Reply, request: RequestInfo) => {
          if (request.operation !== 'listCategories' || reply.status !== 200 || !Array.isArray(reply.body)) return reply
          cached ??= (reply.body as StoredCategory[]).map(({ id, name }) => ({ id, name }))
          return request.accept === undefined ? { ...reply, body: cached } : reply
        },
      } satisfies Partial<Behaviour>
    })(),
    seed: () => seedCategories(5),
  },
  {
    // caught by ids-unique on the list asked for as a browser asks
    name: 'browser-list-join-repeats-rows',
    breaks: 'ids-unique',
    code: 'DUPLICATE_ID',
    description:
      "the page for browsers (an Accept with text/html first) lists the categories with a count of their pets, read with a LEFT JOIN on pets whose rows the view groups by nothing: a category with two pets is listed twice under its id; API clients get each once",
    behaviour: {
      finish: (reply, request) =>
        request.operation === 'listCategories' && reply.status === 200 && Array.isArray(reply.body) && forBrowsers(request)
          ? { ...reply, body: (reply.body as StoredCategory[]).flatMap((r) => (r.id === 2n ? [r, r] : [r])) }
          : reply,
    },
    seed: () => seedCategories(5),
  },
]
