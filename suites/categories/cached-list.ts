/**
 * §4.1: the list holds all categories available. A list that lacks created records and says itself
 * that a cache answered it, or that any cache may keep it a while (lib/checks/cache-headers.ts), is
 * a cache's copy that no create clears, not a list behind the writes: the failure says so, beside
 * what the re-reads found (measured: a Node gateway that keeps the list 30 s, as a CDN does under
 * the origin's Cache-Control: public, max-age=30).
 */
import { answeredByCache, cacheOf } from '../../lib/checks/cache-headers.ts'
import { ConformanceFailure } from '../../lib/checks/failure.ts'
import type { HttpResult } from '../../lib/http/client.ts'

/**
 * A MISSING_FROM_LIST failure on `list`, with what its headers say of a cache in front. A list that
 * says only that a cache may keep it (a shared Cache-Control, no Age, no HIT: RFC 9111 §4 has a
 * cache that answers from its store send an Age) was answered by the origin, and where it holds
 * one of the run's creates (`holdsCreated`) it is no copy kept from before them: no cache is named.
 */
export function withCacheSaid(error: unknown, list: HttpResult, holdsCreated = false): unknown {
  if (!(error instanceof ConformanceFailure) || error.code !== 'MISSING_FROM_LIST') return error
  const headers = list.exchange.response?.headers ?? {}
  const cache = cacheOf(headers)
  if (cache === undefined || (holdsCreated && !answeredByCache(headers))) return error
  const message =
    `${error.message}; the list says a cache answered it or may keep it (${cache}): a cache in front (a CDN, Varnish, nginx's proxy_cache) that no create clears answers the list as it was, ` +
    'where §4.1 lists all categories: mark the list Cache-Control: no-store (or private, no-cache), or purge it on every create'
  return new ConformanceFailure({ ...error.detail(), message }, error.exchanges)
}
