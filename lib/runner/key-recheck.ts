/**
 * A key that stopped working (every answer to it 401 or 403 from some request on, after it was
 * served) is asked about once more before the run calls it revoked: after a pause, one GET it was
 * refused on goes again with it. (A key refused from the first request on is not: served a second
 * later, it may only just have become valid, a new key still propagating.) Served (2xx), the key
 * works, and its refusals were the service's (a limiter that answers 401 where 429 is meant, a
 * fault that surfaces as 401): they are judged as the failures they are, the answer that served it
 * standing beside them as evidence (lib/result/key-revoked.ts sees it, and no longer blames the key).
 * Refused again, one GET of another operation the key was served on goes too: a key that is gone is
 * refused everywhere, while a cache in front keyed by the URL alone, which keeps the 401 it answered
 * to a request without a key, refuses it on that URL only. Refused there too, the key is gone, and
 * the run says so, as before. When the key was refused on POSTs alone (a service that answers 403
 * to one kind of body, which confirmation sends last: body-parser's verify), a GET it was served
 * on goes instead: a key that is gone is refused there too.
 */
import { refusedTheKey, type Exchange } from '../http/exchange.ts'
import { KEY_AUTHORIZATION } from '../http/redact.ts'
import type { RunScope } from '../suite-kit/run-context.ts'

/** How long the run waits before it asks again: a limiter's window of a second has passed. */
export const KEY_RECHECK_PAUSE_MS = 1_000

/**
 * Sends one GET the key was refused on again, after the pause, unless `stopped` says the run is
 * over (its deadline). The exchange when the key was served; undefined when it was refused again,
 * or could not be asked.
 */
export async function keyServedAgain(exchanges: readonly Exchange[], scope: RunScope, stopped: () => boolean): Promise<Exchange | undefined> {
  const refused = exchanges.find((e) => e.request.method === 'GET' && refusedTheKey(e))
  const client = scope.client
  if (!client || stopped()) return undefined
  await new Promise((resolve) => setTimeout(resolve, KEY_RECHECK_PAUSE_MS).unref())
  if (stopped()) return undefined
  const basePath = new URL(scope.context.baseUrl).pathname.replace(/\/+$/, '')
  const pathOf = (e: Exchange) => {
    const url = new URL(e.request.url)
    return url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) + url.search : undefined
  }
  const served = (e: Exchange | undefined) => e?.response !== undefined && e.response.status >= 200 && e.response.status < 300
  const askAgain = async (path: string | undefined) => {
    if (path === undefined || stopped()) return undefined
    const again = await client.send({ method: 'GET', path, headers: { authorization: KEY_AUTHORIZATION } })
    return served(again.exchange) ? { ...again.exchange, keyRecheck: true as const } : undefined
  }
  const refusedPath = refused ? pathOf(refused) : undefined
  const other = exchanges.find((e) => e.request.method === 'GET' && e.request.headers.authorization === KEY_AUTHORIZATION && served(e) && pathOf(e) !== refusedPath)
  return (await askAgain(refusedPath)) ?? (other ? askAgain(pathOf(other)) : undefined)
}
