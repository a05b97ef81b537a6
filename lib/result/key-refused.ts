/**
 * A run whose key the server refused: every request sent with the key was answered 401 (or 403).
 * The document gives the issued key access to every operation (§5), so the failures that follow
 * say first that the key is wrong, expired or another environment's (a CI secret rotated, the
 * staging key against production), or that the service refuses valid keys (a PHP service behind
 * Apache's FastCGI or CGI never sees the header unless CGIPassAuth is on, nor a service behind
 * Squid as a reverse proxy unless its cache_peer line says login=PASSTHRU); either way the run
 * verified nothing, and says so instead of reading as a service that broke its contract.
 */
import { refusedTheKey, type Exchange } from '../http/exchange.ts'
import { KEY_AUTHORIZATION } from '../http/redact.ts'
import type { RunProblem } from './run-problems.ts'

/** Fewer answers than this say too little to blame the key (a --rule run of one check). */
const ENOUGH = 3

/** The key as the advice names it: the variable it came from, the flag, or (not known: a result merged from elsewhere) just "the key". */
export function theKey(keyFrom: string | undefined): string {
  if (keyFrom === undefined) return 'the key'
  return keyFrom.startsWith('--') ? `the key given by ${keyFrom}` : keyFrom
}


/**
 * The checks of a run whose key was refused: every check whose evidence holds an answer that
 * refused the key is not verified, whatever it found. A failure there is the key's, not the
 * service's, and a pass judged nothing (a refused create "not shown" by a list that was itself
 * refused): no rule may read as broken, or as verified, for it (the key-refused problem says why,
 * first). Checks that never sent the key (every request without a valid one) stay as they are.
 */
export function withoutChecksOfTheRefusedKey<C extends { status: string; exchanges: readonly Exchange[] }>(checks: C[], problem: RunProblem): C[] {
  const skipReason = `not verified: ${problem.message.split(';')[0]}`
  return checks.map((c) =>
    c.status !== 'skip' && c.exchanges.some(refusedTheKey) ? { ...c, status: 'skip', cause: 'key-refused', skipReason, failure: undefined, reproduce: [] } : c,
  )
}

/** Why the key looks refused (a problem of kind key-refused), or undefined; `keyFrom`: where the key came from, named in the advice. */
export function keyRefused(exchanges: readonly Exchange[], keyFrom?: string): RunProblem | undefined {
  const answers = new Map<string, number>()
  for (const e of exchanges) {
    if (e.request.headers.authorization === KEY_AUTHORIZATION && e.response) answers.set(e.id, e.response.status)
  }
  const statuses = [...answers.values()]
  if (statuses.length < ENOUGH || !statuses.every((s) => s === 401 || s === 403)) return undefined
  const which = [...new Set(statuses)].join(' or ')
  // CloudFront, which says so in every answer (X-Amz-Cf-Id), drops Authorization unless a cache policy keys on it (AWS knowledge center, "cloudfront-authorization-header")
  const cloudFront = exchanges.some((e) => e.request.headers.authorization === KEY_AUTHORIZATION && e.response?.headers['x-amz-cf-id'] !== undefined)
  const reaches = cloudFront
    ? 'CloudFront answered (X-Amz-Cf-Id): it forwards Authorization to its origin only when the cache policy puts it in the cache key (with caching off, the AllViewer origin request policy)'
    : 'Apache hands it to PHP-FPM or CGI only with CGIPassAuth On; Squid as a reverse proxy to its cache_peer only with login=PASSTHRU'
  return { kind: 'key-refused', message: `the server refused the key: all ${statuses.length} requests sent with it were answered ${which}; check ${theKey(keyFrom)} (wrong, expired, another environment's?), and that the Authorization header reaches the service (${reaches})` }
}

/**
 * A key refused on every POST it was sent with (401 or 403), enough of them, while a request of
 * another method was served with it: a key without write permission (create-returns-201 says so
 * once). Its GETs show the key is not simply wrong (keyRefused).
 */
export function writesRefused(exchanges: readonly Exchange[]): boolean {
  const posts = new Map<string, Exchange>()
  let served = false
  for (const e of exchanges) {
    if (e.request.headers.authorization !== KEY_AUTHORIZATION || !e.response) continue
    if (e.request.method === 'POST') posts.set(e.id, e)
    else if (!refusedTheKey(e)) served = true
  }
  return served && posts.size >= ENOUGH && [...posts.values()].every(refusedTheKey)
}
