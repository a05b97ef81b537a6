/**
 * Mutations a cache in front of the service gets wrong, beside list-cached-before-auth
 * (authentication.ts): what it keeps, for whom, and for which way of asking.
 */
import type { Behaviour, Reply, RequestInfo } from '../reference-server.ts'
import type { Mutation } from '../server-cases.ts'

export const CACHE_MUTATIONS: readonly Mutation[] = [
  {
    // caught by the list asked for with the key right after the same request without one
    // (suites/categories/probes.ts, keyAfterNone); the run's later lists, refused too, are judged
    // as well once the key is asked about on another operation (lib/runner/key-recheck.ts), not
    // taken for a revoked key
    name: 'url-cache-keeps-401',
    breaks: 'list-returns-200',
    code: 'UNEXPECTED_STATUS',
    description:
      "a cache in front keyed by the URL alone keeps the list's 401, answered to a request without a key, for a minute and answers it to every request of that URL, the key's too " +
      "(nginx's proxy_cache_valid any 1m under its default proxy_cache_key, which holds no Authorization); the service marks its answers to the key private, so the list itself is never kept",
    behaviour: (() => {
      // one cache per server: each has its own store
      const cached = new WeakMap<object, { at: number; reply: Reply }>()
      return {
        finish: (reply, request, store) => {
          if (request.operation !== 'listCategories' || request.method !== 'GET' || request.path !== '/v1/categories') return reply
          const hit = cached.get(store)
          if (hit && Date.now() - hit.at < 60_000) return hit.reply
          if (reply.status === 401) cached.set(store, { at: Date.now(), reply })
          return reply
        },
      } satisfies Partial<Behaviour>
    })(),
  },
  {
    // caught by the list read again after the run's POSTs, asked for as the first list was
    // (suites/categories/probes.ts, listAgain): the list after the POSTs asks otherwise, and is
    // the first of its kind the cache sees, so it shows every create
    name: 'list-cached-per-variant',
    breaks: 'created-in-list',
    code: 'MISSING_FROM_LIST',
    slow: 'a list that keeps missing the creates after --list-lag (5 s) in each of 3 probes (--confirm 2)',
    description:
      "the list view is cached for a minute by Django's cache_page(60) (as Django REST framework's caching guide shows it on list), whose key holds the values of the headers the answer's Vary names " +
      "(DRF's Accept, GZipMiddleware's Accept-Encoding): no create clears it, so each way of asking for the list is answered, for a minute, as it was first answered",
    behaviour: (() => {
      // one cache per server: each has its own store
      const caches = new WeakMap<object, Map<string, { at: number; reply: Reply }>>()
      return {
        finish: (reply, request, store) => {
          if (request.operation !== 'listCategories' || reply.status !== 200) return reply
          const cache = caches.get(store) ?? caches.set(store, new Map()).get(store)!
          const key = `${request.accept ?? ''}|${request.acceptEncoding ?? ''}`
          const hit = cache.get(key)
          if (hit && Date.now() - hit.at < 60_000) return hit.reply
          // the records as they were: the store's array changes under a reply kept by reference
          cache.set(key, { at: Date.now(), reply: { ...reply, body: Array.isArray(reply.body) ? [...(reply.body as unknown[])] : reply.body } })
          return reply
        },
      } satisfies Partial<Behaviour>
    })(),
  },
  {
    // caught as created records missing from the list; its Age, X-Cache and Cache-Control name the
    // cache (suites/categories/cached-list.ts). Measured (stackhunt11): a Node gateway that keeps
    // the list 30 s under the origin's Cache-Control: public, max-age=30
    name: 'list-kept-by-a-cdn',
    breaks: 'created-in-list',
    code: 'MISSING_FROM_LIST',
    slow: 'a list that keeps missing the creates after --list-lag (5 s) in each of 3 probes (--confirm 2)',
    description:
      'the list is marked Cache-Control: public, max-age=60, and a CDN in front keeps it a minute (one copy for every way of asking, to the key alone), answering with Age and X-Cache: HIT: ' +
      'no create clears it, so the list is answered as it was first read, where §4.1 lists all categories',
    // a 200 goes to the key alone: the copy is never answered to a request without it
    behaviour: cdnKeptList((request, reply) => request.operation === 'listCategories' && reply.status === 200),
  },
  {
    // caught by the requests without a key served the list; the run's headline names the cache from
    // their Age and X-Cache (lib/checks/unauthenticated.ts keyNotCheckedHint). Measured (stackhunt11):
    // a Node gateway keyed by the URL alone, keeping the list 30 s under Cache-Control: public
    name: 'list-kept-by-url-by-a-cdn',
    breaks: 'auth-missing-key-401',
    code: 'UNEXPECTED_STATUS',
    description:
      'the list is marked Cache-Control: public, max-age=60, and a CDN in front keeps it a minute under its URL alone (not the Authorization header), answering with Age and X-Cache: HIT: ' +
      'once the list was answered to the key, every request of that URL gets it, without a key too',
    // every request of the list's URL, with a key or without
    behaviour: cdnKeptList((request) => request.operation === 'listCategories' && request.method === 'GET' && request.path === '/v1/categories'),
  },
]

/**
 * A CDN in front that keeps the list's 200 a minute under Cache-Control: public, max-age=60, and
 * answers the requests `served` picks from that copy with its Age and X-Cache: HIT (the first with
 * MISS): list-kept-by-a-cdn keys it to the key's requests, list-kept-by-url-by-a-cdn to the URL alone.
 */
function cdnKeptList(served: (request: RequestInfo, reply: Reply) => boolean): Partial<Behaviour> {
  // one cache per server: each has its own store
  const cached = new WeakMap<object, { at: number; reply: Reply }>()
  return {
    finish: (reply, request, store) => {
      if (!served(request, reply)) return reply
      const hit = cached.get(store)
      if (hit && Date.now() - hit.at < 60_000) {
        return { ...hit.reply, headers: { ...hit.reply.headers, age: String(Math.floor((Date.now() - hit.at) / 1000)), 'x-cache': 'HIT' } }
      }
      if (reply.status !== 200) return reply
      // the records as they were: the store's array changes under a reply kept by reference
      const kept = { ...reply, headers: { ...reply.headers, 'cache-control': 'public, max-age=60' }, body: Array.isArray(reply.body) ? [...(reply.body as unknown[])] : reply.body }
      cached.set(store, { at: Date.now(), reply: kept })
      return { ...kept, headers: { ...kept.headers, 'x-cache': 'MISS' } }
    },
  }
}
