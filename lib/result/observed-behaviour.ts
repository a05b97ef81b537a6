/**
 * What a deployment did where the document leaves it free, read from the run's journal and
 * evidence: notes, never verdicts. An acceptance engineer reads how a vendor's deployment behaves
 * beyond the contract, and `compare` shows when that changes between two runs. The lengths it
 * accepted and refused (not shown, §8) come from the valid creates and the plain ASCII of a
 * refused one's sizes (suites/cases/write-order.ts, sameSizeKey).
 */
import type { Exchange } from '../http/exchange.ts'
import type { JournalEntry } from '../http/journal.ts'
import { farSlowerCreate } from '../http/slow-create.ts'

export interface ObservedLengths {
  /** The longest name and description (in characters) the service answered 201 to. */
  acceptedName?: number
  acceptedDescription?: number
  /** The shortest plain ASCII name and description it refused (400 or 413) after a create refused for length. */
  refusedName?: number
  refusedDescription?: number
}

const fieldsOf = (body: string | undefined): { name?: unknown; description?: unknown } | undefined => {
  try {
    const value = JSON.parse(body ?? '') as unknown
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as { name?: unknown; description?: unknown }) : undefined
  } catch {
    return undefined // cut to the evidence limit, or not JSON: it tells no length
  }
}

const chars = (text: unknown) => (typeof text === 'string' ? [...text].length : undefined)
const max = (a: number | undefined, b: number | undefined) => (b === undefined ? a : a === undefined ? b : Math.max(a, b))
const min = (a: number | undefined, b: number | undefined) => (b === undefined ? a : a === undefined ? b : Math.min(a, b))

export function observedLengths(journal: readonly JournalEntry[]): ObservedLengths {
  const seen: ObservedLengths = {}
  for (const entry of journal) {
    if (entry.method !== 'POST' || entry.probe === undefined || !entry.probe.startsWith('create-')) continue
    const fields = fieldsOf(entry.body)
    if (!fields) continue
    if (entry.status === 201) {
      seen.acceptedName = max(seen.acceptedName, chars(fields.name))
      seen.acceptedDescription = max(seen.acceptedDescription, chars(fields.description))
    } else if ((entry.status === 400 || entry.status === 413) && entry.probe.endsWith('-same-size')) {
      seen.refusedName = min(seen.refusedName, chars(fields.name))
      seen.refusedDescription = min(seen.refusedDescription, chars(fields.description))
    }
  }
  return seen
}

/** The note a report shows, or undefined when the run met no limit. */
export function lengthsNote(seen: ObservedLengths): string | undefined {
  if (seen.refusedName === undefined && seen.refusedDescription === undefined) return undefined
  const accepted = `names of up to ${seen.acceptedName ?? 0} and descriptions of up to ${seen.acceptedDescription ?? 0} characters were accepted`
  const refused = `plain ASCII of a ${seen.refusedName}-character name${seen.refusedDescription === undefined ? '' : ` and a ${seen.refusedDescription}-character description`} was refused`
  return `Length limits (not shown, §8: a freedom, not a failure): ${accepted}; ${refused}, so the classes of strings went again in short values`
}

export interface ObservedBehaviour {
  lengths: ObservedLengths
  /** The answer to each create that uses a freedom (an empty name, a field NewCategory does not name, a repeated name, a byte order mark), by probe. */
  freedoms: Record<string, string>
  /** Answers that came compressed although the run asked for identity, by coding. */
  compression: Record<string, number>
  /** 429 and 503 answers met, and the Retry-After values they gave. */
  rateLimits: { answers: Record<string, number>; retryAfter: string[] }
  /** The WWW-Authenticate values of the 401 answers. */
  wwwAuthenticate: string[]
  /** The Content-Type values of the answers. */
  mediaTypes: string[]
  /** The order of the ids of the list after the run's creates. */
  listOrder?: 'ascending ids' | 'descending ids' | 'another order' | 'one record or none'
  /**
   * Connections the server closed before any answer, fresh ones too (a limit on the connections
   * open at once): how many requests were sent again with fewer in flight, and the fewest it came to.
   */
  connectionLimit?: { resent: number; atMost: number }
  /** Connections the server did not take within --timeout (a full listen backlog): requests sent again, which had never left, with fewer in flight, and the fewest it came to. */
  connectionsNotTaken?: { resent: number; atMost: number }
  /**
   * The server served one connection at a time: requests written on the others waited unread
   * (lib/http/one-connection-at-a-time.ts). How many were then sent on one connection.
   */
  oneConnectionAtATime?: { sent: number }
  /** One create took far longer than the others (lib/http/slow-create.ts), from its write to its answer: the list after the POSTs is read once more, --list-lag later. */
  slowCreate?: { slowestMs: number; medianMs: number }
}

/**
 * The note a report shows when one create took far longer than the others, or undefined: the run
 * then read the list once more, --list-lag after the last create, and took seconds longer (a first
 * create of 2 s: 7.4 s in place of 0.8), which no report said.
 */
export function slowCreateNote(o: Pick<ObservedBehaviour, 'slowCreate'>): string | undefined {
  const slow = o.slowCreate
  if (slow === undefined) return undefined
  const ms = (n: number) => (n >= 1_000 ? `${(n / 1_000).toFixed(1)} s` : `${Math.round(n)} ms`)
  return `A slow create (not a failure): one create took ${ms(slow.slowestMs)} from its write to its answer, the others ${ms(slow.medianMs)} (the median), so the list after the POSTs is read once more, --list-lag after the last create was answered (once --deadline leaves room for the wait: else as soon as it would have been), for a record a front that sent that create again may store late`
}

/**
 * The note a report shows when the server refused connections past a number of its own, or served
 * one connection at a time (both, when it did both), or undefined.
 */
export function connectionLimitNote(o: ObservedBehaviour): string | undefined {
  const { connectionLimit: limit, connectionsNotTaken: notTaken, oneConnectionAtATime: one } = o
  const resent = (r: { resent: number; atMost: number }) =>
    `${r.resent} ${r.resent === 1 ? 'request was' : 'requests were'} sent again with fewer in flight, down to ${r.atMost} at once (--concurrency ${r.atMost} sends no more than that from the start)`
  const notes = [
    ...(limit ? [`the server closed fresh connections before any answer; ${resent(limit)}`] : []),
    ...(notTaken ? [`the server took no new connection within --timeout while it served others (a full listen backlog), to requests that had not left yet; ${resent(notTaken)}`] : []),
    ...(one
      ? [`the server served one connection at a time, and left requests written on the others unread meanwhile; the run went on with one connection, ${one.sent} ${one.sent === 1 ? 'request' : 'requests'} on it (--concurrency 1 does so from the start)`]
      : []),
  ]
  return notes.length === 0 ? undefined : `Connections (${limit || notTaken ? 'a limit is not shown, ' : ''}a freedom, not a failure): ${notes.join('; and ')}`
}

/** The creates that use a freedom the document leaves, and what their answer means. */
const FREEDOMS: Record<string, string> = {
  'create-empty-name': 'an empty name',
  'create-sends-id': 'a field NewCategory does not name (id)',
  'create-repeated-name': 'a repeated name',
  'malformed-bom': 'a byte order mark before the JSON',
}

const distinct = (values: (string | undefined)[]) => [...new Set(values.filter((v): v is string => v !== undefined && v !== ''))].sort()

/** The last list the run read that was answered 200. */
const lastListRead = (exchanges: readonly Exchange[]): Exchange | undefined =>
  exchanges.filter((e) => e.request.method === 'GET' && /\/categories$/.test(e.request.url) && e.response?.status === 200).at(-1)

/**
 * Whether the last list read shows a record with an empty name (an earlier run's, when this run's
 * was refused): in the part the evidence kept, which for a long list is its start.
 */
/**
 * Which name the last list holds that a store with unique names takes for the empty one: the empty
 * name, or one of spaces alone (a PAD SPACE collation's, MariaDB's default: " " = "").
 */
function emptyNameListed(exchanges: readonly Exchange[]): 'empty' | 'blank' | undefined {
  const body = lastListRead(exchanges)?.response?.body ?? ''
  return /"name"\s*:\s*""/.test(body) ? 'empty' : /"name"\s*:\s*" +"/.test(body) ? 'blank' : undefined
}
const REPEAT_OF = { empty: "the list holds an earlier run's empty name", blank: 'the list holds a name of spaces, which a PAD SPACE collation (MariaDB\'s default) takes for the empty one' }

function listOrderOf(exchanges: readonly Exchange[]): ObservedBehaviour['listOrder'] {
  const last = lastListRead(exchanges)
  if (!last?.response) return undefined
  let ids: bigint[]
  try {
    // ids as written, past 2^53 too: the digits after "id": in the body (of a cut body, its part)
    ids = [...last.response.body.matchAll(/"id"\s*:\s*(-?\d+)/g)].map((m) => BigInt(m[1] as string))
  } catch {
    return undefined
  }
  if (ids.length < 2) return 'one record or none'
  if (ids.every((id, i) => i === 0 || (ids[i - 1] as bigint) < id)) return 'ascending ids'
  if (ids.every((id, i) => i === 0 || (ids[i - 1] as bigint) > id)) return 'descending ids'
  return 'another order'
}

const remapped = (value: string | undefined) => (value === undefined ? undefined : `none, but x-amzn-Remapped-WWW-Authenticate: ${value}`)

/** `listLagMs`: --list-lag; at 0 a slow create brings no read once more, and no note says it does. */
export function observedBehaviour(journal: readonly JournalEntry[], exchanges: readonly Exchange[], listLagMs?: number): ObservedBehaviour {
  const freedoms: Record<string, string> = {}
  const answers: Record<string, number> = {}
  const compression: Record<string, number> = {}
  // the requests that asked for a coding (a list read as curl --compressed does): a compressed answer to them is no note
  const askedForCodings = new Set(exchanges.filter((e) => (e.request.headers['accept-encoding'] ?? 'identity').trim().toLowerCase() !== 'identity').map((e) => e.id))
  const retryAfter: string[] = []
  // requests sent again with fewer in flight: after fresh connections were closed, or none was taken in time
  const limit = { resent: 0, atMost: Infinity }
  const notTaken = { resent: 0, atMost: Infinity }
  let onOne = 0
  for (const entry of journal) {
    if (entry.oneConnection) onOne++
    for (const [atMost, resends] of [[entry.fewerConnections, limit], [entry.connectionNotTaken, notTaken]] as const) {
      if (atMost === undefined) continue
      resends.resent++
      resends.atMost = Math.min(resends.atMost, atMost)
    }
    if (entry.probe && FREEDOMS[entry.probe] && entry.status !== undefined && entry.status !== 429 && entry.status !== 503) {
      const accepted = entry.status >= 200 && entry.status < 300
      // a store with unique names that an earlier run left an empty name in refuses this one as a repeat
      const listed = entry.probe === 'create-empty-name' && !accepted ? emptyNameListed(exchanges) : undefined
      const repeat = listed ? `, as a repeat: ${REPEAT_OF[listed]}` : ''
      freedoms[FREEDOMS[entry.probe] as string] = `${accepted ? 'accepted' : 'refused'} (${entry.status})${repeat}`
    }
    if (entry.status === 429 || entry.status === 503) {
      answers[entry.status] = (answers[entry.status] ?? 0) + 1
      if (entry.retryAfter !== undefined) retryAfter.push(entry.retryAfter)
    }
    if (entry.contentEncoding && !askedForCodings.has(entry.id)) compression[entry.contentEncoding] = (compression[entry.contentEncoding] ?? 0) + 1
  }
  const responses = exchanges.flatMap((e) => (e.response ? [e.response] : []))
  return {
    lengths: observedLengths(journal),
    freedoms,
    compression,
    rateLimits: { answers, retryAfter: distinct(retryAfter) },
    // AWS API Gateway's REST APIs rename a proxy integration's WWW-Authenticate (lib/checks/headers.ts)
    wwwAuthenticate: distinct(responses.filter((r) => r.status === 401).map((r) => r.headers['www-authenticate'] ?? remapped(r.headers['x-amzn-remapped-www-authenticate']))),
    mediaTypes: distinct(responses.map((r) => r.headers['content-type'])),
    ...(listOrderOf(exchanges) ? { listOrder: listOrderOf(exchanges) } : {}),
    ...(limit.resent > 0 ? { connectionLimit: limit } : {}),
    ...(notTaken.resent > 0 ? { connectionsNotTaken: notTaken } : {}),
    ...(onOne > 0 ? { oneConnectionAtATime: { sent: onOne } } : {}),
    ...(listLagMs === 0 ? {} : slowCreateOf(exchanges)),
  }
}

/** The creates answered 201, each once, and how long each took from its write to its answer. */
function slowCreateOf(exchanges: readonly Exchange[]): Pick<ObservedBehaviour, 'slowCreate'> {
  const took = new Map<string, number>()
  for (const e of exchanges) {
    if (e.request.method !== 'POST' || e.response?.status !== 201 || e.writtenAtMs === undefined) continue
    took.set(e.id, Date.parse(e.startedAt) + e.durationMs - e.writtenAtMs)
  }
  const slow = farSlowerCreate([...took.values()])
  return slow === undefined ? {} : { slowCreate: slow }
}

/** The lines a report shows: one per thing observed. */
export function observedLines(o: ObservedBehaviour): string[] {
  const lines: string[] = []
  const lengths = lengthsNote(o.lengths)
  if (lengths) lines.push(lengths)
  for (const [what, answer] of Object.entries(o.freedoms)) lines.push(`${what}: ${answer}`)
  lines.push(`compression when asked for identity: ${Object.keys(o.compression).length ? Object.entries(o.compression).map(([c, n]) => `${c} (${n} answers)`).join(', ') : 'none'}`)
  const limited = Object.entries(o.rateLimits.answers)
  lines.push(`rate limits met: ${limited.length ? `${limited.map(([s, n]) => `${n} × ${s}`).join(', ')}${o.rateLimits.retryAfter.length ? `, Retry-After ${o.rateLimits.retryAfter.join(', ')}` : ', no Retry-After'}` : 'none'}`)
  if (o.listOrder) lines.push(`list order: ${o.listOrder}`)
  const connections = connectionLimitNote(o)
  if (connections) lines.push(connections)
  const slow = slowCreateNote(o)
  if (slow) lines.push(slow)
  lines.push(`WWW-Authenticate on 401: ${o.wwwAuthenticate.length ? o.wwwAuthenticate.join(' | ') : 'none sent'}`)
  lines.push(`media types answered: ${o.mediaTypes.join(' | ') || 'none'}`)
  return lines
}
