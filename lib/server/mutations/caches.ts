/**
 * Mutations a cache in front of the service gets wrong, beside list-cached-before-auth
 * (authentication.ts): what it keeps, and for whom.
 */
import type { Behaviour, Reply } from '../reference-server.ts'
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
]
