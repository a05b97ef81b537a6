/**
 * What an answer's headers say of a cache in front that answered it or may keep it: an Age header,
 * a cache's HIT (X-Cache, CF-Cache-Status, X-Cache-Status, X-Proxy-Cache), a Cache-Control that
 * lets a shared cache keep it (public with a max-age, s-maxage). Measured (stackhunt11): a Node
 * gateway keeping the list 30 s under the origin's Cache-Control: public, max-age=30, keyed by the
 * URL and the Authorization header, and by the URL alone.
 */
import type { Exchange } from '../http/exchange.ts'
import { KEY_PLACEHOLDER } from '../http/redact.ts'

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
  return seconds('s-maxage') ?? (directives.includes('public') ? seconds('max-age') : undefined)
}

/** What the headers say of a cache that answered or may keep the answer, in words; undefined when they say nothing. */
export function cacheOf(headers: Readonly<Record<string, string>>): string | undefined {
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
  return `${said.join('; ')}${lifetime !== undefined ? `, which lets a cache keep it ${lifetime} s` : ''}`
}

/** Whether the headers say a cache answered from its store (an Age above 0, a HIT): a Cache-Control alone says only that one may keep it. */
export function answeredByCache(headers: Readonly<Record<string, string>>): boolean {
  const age = Number(headers.age)
  return (Number.isInteger(age) && age > 0) || HIT_HEADERS.some((name) => headers[name] !== undefined && /\b(?:hit|stale)\b/i.test(headers[name]))
}

/**
 * Where a request without a valid key was served by a cache in front (its own answer says a cache
 * gave it: an Age, a HIT): the words for the cause, in place of an authentication not mounted;
 * undefined when none says so. The answers to the key (Bearer $CONFORM_API_KEY) say nothing of
 * those without it, nor does a shared Cache-Control alone (an origin with no authentication sends it).
 */
export function servedByCache(exchanges: readonly Exchange[]): string | undefined {
  const cache = exchanges
    .flatMap((e) => (e.response !== undefined && e.response.status < 300 && e.request.headers.authorization !== `Bearer ${KEY_PLACEHOLDER}` && answeredByCache(e.response.headers) ? [cacheOf(e.response.headers)] : []))
    .find((words) => words !== undefined)
  if (cache === undefined) return undefined
  return `a cache in front answered them (${cache}): its key holds the URL, not the Authorization header, so the list answered to the key is answered to anyone; mark answers to a key Cache-Control: private (or no-store), or key the cache by Authorization`
}
