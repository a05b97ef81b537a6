/**
 * §4.1: the list holds all categories available. A list that lacks created records and says itself
 * that a cache answered it (an Age header, a cache's HIT: X-Cache, CF-Cache-Status, X-Cache-Status,
 * X-Proxy-Cache), or that it may be kept for a while by any cache (Cache-Control: public or
 * s-maxage with an age above 0), is a cache's copy that no create clears, not a list behind the
 * writes: the failure says so, beside what the re-reads found (measured: a Node gateway that keeps
 * the list 30 s, as a CDN does under the origin's Cache-Control: public, max-age=30).
 */
import { ConformanceFailure } from '../../lib/checks/failure.ts'
import type { HttpResult } from '../../lib/http/client.ts'

/** Headers in which a cache in front says it answered from its store (Varnish, Squid, Fastly, CloudFront, Cloudflare, nginx, Akamai). */
const HIT_HEADERS = ['x-cache', 'cf-cache-status', 'x-cache-status', 'x-proxy-cache', 'x-cache-lookup', 'x-drupal-cache']

/** How long Cache-Control lets a shared cache keep the answer, in seconds; undefined when it says nothing of it. */
function sharedLifetime(cacheControl: string): number | undefined {
  const directives = cacheControl.toLowerCase().split(',').map((d) => d.trim())
  if (directives.some((d) => d === 'no-store' || d === 'private' || d === 'no-cache')) return undefined
  const seconds = (name: string) => {
    const found = directives.find((d) => d.startsWith(`${name}=`))
    const value = found === undefined ? NaN : Number(found.slice(name.length + 1).replace(/"/g, ''))
    return Number.isInteger(value) && value > 0 ? value : undefined
  }
  const shared = seconds('s-maxage')
  if (shared !== undefined) return shared
  return directives.includes('public') ? seconds('max-age') : undefined
}

/** What the list's headers say of a cache that answered it or may keep it, in words; undefined when they say nothing. */
export function cacheOf(list: HttpResult): string | undefined {
  const headers = list.exchange.response?.headers ?? {}
  const said: string[] = []
  const age = Number(headers.age)
  if (Number.isInteger(age) && age > 0) said.push(`Age: ${age}`)
  for (const name of HIT_HEADERS) {
    const value = headers[name]
    if (value !== undefined && /\b(?:hit|stale)\b/i.test(value)) said.push(`${name}: ${value}`)
  }
  const lifetime = headers['cache-control'] === undefined ? undefined : sharedLifetime(headers['cache-control'])
  if (said.length === 0 && lifetime === undefined) return undefined
  if (lifetime !== undefined) said.push(`Cache-Control: ${headers['cache-control']}`)
  const kept = lifetime !== undefined ? `, which lets a cache keep it ${lifetime} s` : ''
  return `${said.join('; ')}${kept}`
}

/** A MISSING_FROM_LIST failure on `list`, with what its headers say of a cache in front. */
export function withCacheSaid(error: unknown, list: HttpResult): unknown {
  if (!(error instanceof ConformanceFailure) || error.code !== 'MISSING_FROM_LIST') return error
  const cache = cacheOf(list)
  if (cache === undefined) return error
  const message =
    `${error.message}; the list says a cache answered it or may keep it (${cache}): a cache in front (a CDN, Varnish, nginx's proxy_cache) that no create clears answers the list as it was, ` +
    'where §4.1 lists all categories: mark the list Cache-Control: no-store (or private, no-cache), or purge it on every create'
  return new ConformanceFailure({ ...error.detail(), message }, error.exchanges)
}
