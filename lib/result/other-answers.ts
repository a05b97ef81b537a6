/**
 * Answers that belong to other requests (hostile11): a 2xx answer to one request, byte for byte the
 * answer a request of another method got, holding a name this run's creates made up. A GET of the
 * list answered 201 with a create's record, or a POST answered 200 with the list, was not written
 * for its own request: a server or front whose answers are out of step with the requests on a kept-alive
 * connection (each request answered with the one before it), or a cache that keys answers without
 * the method. A server that answered so failed as "answered differently on a second probe (one
 * replica behind a load balancer?)" and "requests without a valid key were served".
 */
import { refusedTheKey, type Exchange } from '../http/exchange.ts'
import { KEY_AUTHORIZATION } from '../http/redact.ts'

/** Names shorter than this could be anyone's: the run's made-up names are longer (cf-XXXXX-…). */
const MIN_NAME = 10

/** The names this run's POSTs sent, as JSON strings (how an answer's body holds them). */
export function sentNames(exchanges: readonly Exchange[]): Set<string> {
  const names = new Set<string>()
  for (const e of exchanges) {
    if (e.request.method !== 'POST' || e.request.body === undefined) continue
    try {
      const name = (JSON.parse(e.request.body) as { name?: unknown }).name
      if (typeof name === 'string' && name.length >= MIN_NAME) names.add(JSON.stringify(name))
    } catch {
      // not JSON: no name
    }
  }
  return names
}

/** The name a POST's body sent, as JSON strings: as sent, trimmed and in NFC (a store may keep it so). */
function ownNames(body: string | undefined): Set<string> {
  const name = (parsed(body ?? '') as { name?: unknown } | undefined)?.name
  return typeof name === 'string' ? new Set([name, name.trim(), name.normalize('NFC'), name.trim().normalize('NFC')].map((n) => JSON.stringify(n))) : new Set()
}

const twoHundreds = (e: Exchange) => e.response !== undefined && e.response.status >= 200 && e.response.status < 300 && !e.response.bodyTruncated

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/**
 * What `judged` was answered that was written for another request, in words; undefined when its
 * answer may be its own: a GET answered 201 with one record (an object, not a list) whose name one
 * of the run's POSTs sent, a create's answer; a POST answered 2xx with a list of the run's records
 * without its own, a GET's. `names`: the names the run's POSTs sent, as JSON strings (sentNames).
 */
export function answerOfAnother(judged: Exchange, names: ReadonlySet<string>): string | undefined {
  if (!twoHundreds(judged)) return undefined
  const body = parsed(judged.response!.body)
  const path = `${judged.request.method} ${new URL(judged.request.url).pathname}`
  // 201: the status §4.2 gives a create, never a list
  if (judged.request.method === 'GET' && judged.response!.status === 201 && body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const name = (body as { name?: unknown }).name
    if (typeof name === 'string' && names.has(JSON.stringify(name))) return `${path} was answered ${judged.response!.status} with one record, the one a create of this run sent (${JSON.stringify(name)}), where a list was asked for`
  }
  // a list without the record this POST sent (a service that answers a create with the whole list shows it there)
  const listed = (r: unknown) => (r !== null && typeof r === 'object' ? JSON.stringify((r as { name?: unknown }).name) : undefined)
  // its own name of any length ('' and '0' are valid creates), as sent or as a store keeps it (trimmed, NFC)
  const own = ownNames(judged.request.body)
  if (judged.request.method === 'POST' && Array.isArray(body) && body.some((r) => names.has(listed(r) ?? '')) && !body.some((r) => own.has(listed(r) ?? ''))) {
    return `${path} was answered ${judged.response!.status} with a list of this run's records, where a create was sent`
  }
  return undefined
}

/**
 * Whether the run's answers are shown out of step with its requests: one answer written for another request
 * (answerOfAnother), and requests with the run's key refused 401 or 403, refusals written for requests without it.
 * A request without the key served 2xx in such a run (a keyless GET handed a keyed GET's list, hostile12) was read as a
 * key not checked; a service that checks no key refuses nothing, so that reading stays where no refusal of the key is.
 * Nor is one refusal of the key enough (review35): a service that checks no key, with a fault that refuses the key once
 * and a cache that hands one answer to another request, had its key not checked told as answers out of step. A service
 * that checks the key wrote a refusal for each request without it; each served one's went on to the request after it,
 * the first after a row of requests without the key one with it (85 refused for 76 served, measured, behind a front one
 * answer behind): at least half as many refused as served, the other half for refusals no check recorded.
 */
export function outOfStep(exchanges: readonly Exchange[], names: ReadonlySet<string>): boolean {
  const refused = exchanges.filter(refusedTheKey).length
  const served = exchanges.filter((e) => servedForAnother(e) !== undefined).length
  return refused > 0 && 2 * refused >= served && exchanges.some((e) => answerOfAnother(e, names) !== undefined)
}

/** What `judged`, a request without the run's key, was served in a run whose answers are out of step (outOfStep), in words. */
export function servedForAnother(judged: Exchange): string | undefined {
  if (!twoHundreds(judged) || judged.request.headers.authorization === KEY_AUTHORIZATION) return undefined
  const path = `${judged.request.method} ${new URL(judged.request.url).pathname}`
  return `${path} without the run's key was answered ${judged.response!.status}, while requests with the key were refused 401: answers handed to the requests after theirs`
}

/** The words for checks that met answers of other requests: one example, and where to look. */
export function otherAnswersWords(checks: number, example: string): string {
  return (
    `${checks} ${checks === 1 ? 'check' : 'checks'} met answers written for other requests: ${example} ` +
    '(answers out of step with the requests on a kept-alive connection, each answered with the one before it, or a cache that keys answers without the method)'
  )
}
