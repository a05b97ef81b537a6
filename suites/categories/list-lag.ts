/**
 * A list may lag behind the writes it follows (a read replica, a search index such as Elasticsearch
 * under load, an eventually consistent store): §4.1 says the list holds "all categories available"
 * without saying how soon. So when created records are missing from the list that follows the
 * run's POSTs, the list is read again, with growing waits that add up to --list-lag, before they
 * count as missing. A list that shows them at once is read once more (readOnceMore): a server
 * that does not lag pays one GET, and a wait only when a write came after the last create. The re-reads are GETs (no write), journalled like every request, and kept as the
 * check's evidence. The refusal checks judge the list so read too: a lag hides a refused create
 * that was stored as it hides a created one (list-checks.ts settledList). A lag cannot make a
 * record listed first look gone, so that check judges the list as first read, and each re-read too.
 */
import { missingFromList, type CategoryRecord, type Creation } from '../../lib/checks/category.ts'
import { ConformanceFailure } from '../../lib/checks/failure.ts'
import type { HttpResult } from '../../lib/http/client.ts'
import { farSlowerCreate } from '../../lib/http/slow-create.ts'

/** The first wait: a replica a few hundred milliseconds behind is read again soon. */
const FIRST_WAIT_MS = 200
/** The longest wait: a lag of many seconds is still found within this much of when it ends. */
const LONGEST_WAIT_MS = 5_000
/** Room left before the run's deadline for a re-read to be answered and judged; a wait that would leave less is not begun. */
export const REREAD_ROOM_MS = 1_000

/**
 * The waits before each re-read for a list that may lag `lagMs` behind the writes, adding up to
 * `lagMs`: doubling from 200 ms up to 5 s, then 5 s each, none shorter than the one before (a
 * remainder shorter than the last wait is added to it). 0: none, the first list is judged.
 */
export function rereadWaits(lagMs: number): number[] {
  const waits: number[] = []
  let left = lagMs
  for (let step = FIRST_WAIT_MS; left > 0; step = Math.min(step * 2, LONGEST_WAIT_MS)) {
    const wait = Math.min(step, left)
    // a remainder shorter than the wait before it goes into that wait, so that the waits keep growing
    if (waits.length > 0 && wait < waits[waits.length - 1]) waits[waits.length - 1] += wait
    else waits.push(wait)
    left -= wait
  }
  return waits
}

/** How long a lagging list is waited for: the waits before each re-read, and the time left before the run's deadline. */
export interface ListLag {
  waits: readonly number[]
  /** Milliseconds until the run's deadline (Infinity: none). */
  msLeft: () => number
  /** Told when a re-read showed created records an earlier read lacked, or reads differed: the list lags (the ledger's last read waits for it). */
  seen?: () => void
}

/**
 * Waits `ms` before a re-read, unless that would leave less than REREAD_ROOM_MS before the run's
 * deadline (a run ends at its deadline, and a check unfinished then is not verified: better to
 * judge what was read). Says whether it waited.
 */
export async function waitToReread(ms: number, lag: Pick<ListLag, 'msLeft'>): Promise<boolean> {
  if (ms + REREAD_ROOM_MS > lag.msLeft()) return false
  await new Promise((resolve) => setTimeout(resolve, ms))
  return true
}

/** The lists read: every one, the first first; the one to judge; how long the re-reads were waited for, and whether the deadline ended the waiting while records were missing. */
export interface LaggedList {
  lists: HttpResult[]
  judged: HttpResult
  waitedMs: number
  cutShort: boolean
  /** The judged list was read past --list-lag after the last create was answered, when earlier reads had differed (readPastTheLag). */
  pastTheLag?: boolean
  /**
   * Where in `lists` the reads asked as the first list was begin (readAsFirstAsked): judged for the
   * records they hold, not again for what the browser's list, which asks for the same codings, judged.
   */
  askedAsFirstFrom?: number
}

/** Reads past --list-lag of a list that differed from read to read: more of them reach more replicas of a fleet. */
export const READS_PAST_THE_LAG = 3

/**
 * A list that showed every created record only on a re-read differed from read to read: a lag
 * (a read replica catching up) or replicas that never all get the write (one keeps the records it
 * created: a lost write on the others, which a re-read that reached the one that holds them
 * hid). A lag is over once --list-lag has passed since the last create was answered, so the list
 * is then read READS_PAST_THE_LAG more times, one after another, and the first that lacks a record
 * is the one judged. A list shown whole on its first read pays nothing; one that lagged, the rest
 * of --list-lag and a few GETs.
 */
export async function readPastTheLag(
  creations: readonly Creation[],
  read: LaggedList,
  reread: () => Promise<HttpResult>,
  recordsOf: (list: HttpResult) => CategoryRecord[] | undefined,
  lag: ListLag,
  lastCreateAnsweredAt: number,
): Promise<LaggedList> {
  const whole = read.lists.filter((list) => {
    const records = recordsOf(list)
    return records !== undefined && missingFromList(creations, records).length === 0
  })
  // read whole every time, or never: nothing differed (a list that never shows a record fails as it is)
  if (read.cutShort || whole.length === 0 || whole.length === read.lists.length) return read
  // reads that differed: a lag, or replicas; either way a record stored late may show late
  lag.seen?.()
  const lagMs = lag.waits.reduce((a, b) => a + b, 0)
  const wait = Math.max(0, lastCreateAnsweredAt + lagMs - Date.now())
  if (lagMs === 0 || (wait > 0 && !(await waitToReread(wait, lag)))) return read
  const lists = [...read.lists]
  let judged = read.judged
  for (let i = 0; i < READS_PAST_THE_LAG; i++) {
    const again = await reread()
    lists.push(again)
    const listed = recordsOf(again)
    if (listed === undefined) break
    judged = again
    if (missingFromList(creations, listed).length > 0) break
  }
  return { lists, judged, waitedMs: read.waitedMs + wait, cutShort: false, pastTheLag: true }
}

/**
 * The list that follows the creations, read again while some of them are missing from it. The last
 * usable list (`recordsOf` gives its records) is the one to judge. A re-read that is not a usable
 * list ends the waiting: the lists before it are judged; so does the run's deadline drawing near.
 */
export async function listedAfterLag(
  creations: readonly Creation[],
  first: HttpResult,
  read: () => Promise<HttpResult>,
  recordsOf: (list: HttpResult) => CategoryRecord[] | undefined,
  lag: ListLag,
): Promise<LaggedList> {
  const lists = [first]
  let judged = first
  let waitedMs = 0
  for (const wait of lag.waits) {
    const records = recordsOf(judged)
    if (records === undefined || missingFromList(creations, records).length === 0) break
    if (!(await waitToReread(wait, lag))) return { lists, judged, waitedMs, cutShort: true }
    waitedMs += wait
    const again = await read()
    lists.push(again)
    const listed = recordsOf(again)
    if (listed === undefined) break
    judged = again
    if (missingFromList(creations, listed).length === 0) lag.seen?.()
  }
  return { lists, judged, waitedMs, cutShort: false }
}

/**
 * The list read once more, asked for as the list before the run's POSTs was (its Accept and
 * Accept-Encoding; the list after them asks otherwise): a cache in front keyed by those headers
 * (Vary) that no create clears answers it as it did before the POSTs, where the list after them,
 * the first of its kind the cache saw, was whole. One GET; when it lacks a created record the others
 * showed, the reads differed, and it is read again so past --list-lag (readPastTheLag): a lag is
 * over by then, a cache's minute is not. A list already lacking records, or cut short, is left as it is.
 * `sent`: that GET, already sent beside the read once more (settledList), so that it costs no round trip.
 */
export async function readAsFirstAsked(
  creations: readonly Creation[],
  read: LaggedList,
  rereadAsFirst: () => Promise<HttpResult>,
  recordsOf: (list: HttpResult) => CategoryRecord[] | undefined,
  lag: ListLag,
  lastCreateAnsweredAt: number,
  sent?: Promise<HttpResult>,
): Promise<LaggedList> {
  if (!wholeAsRead(creations, read, recordsOf)) return read
  const again = await (sent ?? rereadAsFirst())
  const withIt = { ...read, lists: [...read.lists, again], askedAsFirstFrom: read.lists.length }
  const listed = recordsOf(again)
  if (listed === undefined || missingFromList(creations, listed).length === 0) return withIt
  // its re-reads past the lag ask as it did: the first that lacks a record is judged
  return { ...(await readPastTheLag(creations, withIt, rereadAsFirst, recordsOf, lag, lastCreateAnsweredAt)), askedAsFirstFrom: read.lists.length }
}

/** The run's created records all in the judged list, read whole (not cut short by the deadline): a read asked as the first list was can tell a cache from it. */
export function wholeAsRead(creations: readonly Creation[], read: LaggedList, recordsOf: (list: HttpResult) => CategoryRecord[] | undefined): boolean {
  const records = recordsOf(read.judged)
  return creations.length > 0 && !read.cutShort && records !== undefined && missingFromList(creations, records).length === 0
}

/**
 * A record missing from the list says how long the list was read again for: a service whose list
 * lags further than --list-lag is told what to raise (--list-lag, or --deadline when it ended the
 * waiting), one whose list never shows the record that the wait was long. Any other error as it is.
 */
export function withLagSaid(error: unknown, read: Pick<LaggedList, 'waitedMs' | 'cutShort' | 'pastTheLag'> & Partial<Pick<LaggedList, 'lists' | 'judged'>>, lag: Pick<ListLag, 'waits'>): unknown {
  if (!(error instanceof ConformanceFailure) || error.code !== 'MISSING_FROM_LIST') return error
  const listLagMs = lag.waits.reduce((a, b) => a + b, 0)
  if (read.pastTheLag) {
    const message = `${error.message}: a read sent more than --list-lag ${listLagMs} ms after the last create was answered, though an earlier read listed every created record: the list differs from read to read (${askedOtherwise(read) ?? 'replicas that do not all hold the write?'})`
    return new ConformanceFailure({ ...error.detail(), message }, error.exchanges)
  }
  const why = read.cutShort ? `, of --list-lag ${listLagMs}: the run's --deadline was near` : ` (--list-lag ${listLagMs})`
  return new ConformanceFailure({ ...error.detail(), message: `${error.message} after ${read.waitedMs} ms of re-reads${why}` }, error.exchanges)
}

/**
 * How long after the last create the list is read once more when one create took far longer than
 * the others (at least 1 s from its write to its answer, and 4 times their median): --list-lag; else 0.
 * A front that sends a create again when the service has not answered it in time (HAProxy's retry-on
 * response-timeout, Envoy's retry_policy, nginx's proxy_next_upstream non_idempotent) answers the
 * resend's record, while the first attempt, still running, may store its own after that answer and
 * after the first list (measured: HAProxy 2.6 before a service slow on one create in 10).
 */
export function settleAfterSlowCreate(createdBy: readonly HttpResult[], lag: Pick<ListLag, 'waits'>): number {
  const took = createdBy.flatMap((r) => (r.exchange.writtenAtMs === undefined ? [] : [Date.parse(r.exchange.startedAt) + r.exchange.durationMs - r.exchange.writtenAtMs]))
  return farSlowerCreate(took) !== undefined ? lag.waits.reduce((a, b) => a + b, 0) : 0
}

/**
 * A list whole on its first read is read once more (one GET): a balancer sends it to another
 * replica, and one replica of a fleet that keeps its writes to itself answers the first read one
 * time in so many. A second read that lacks a created record makes the list one that differs from
 * read to read (readPastTheLag); a second read whole is judged (it holds what the first did, and
 * any write stored since); no list at all leaves the first judged.
 *
 * The second read goes at once, unless a write was answered after the last create (a refusal, which
 * a service may have stored all the same): a list behind the writes by less than the first read
 * came after the last create shows the creates, and may still hide that write. It gets as long as
 * the creates had: the second read waits as long as it was answered after the last create (at
 * most until --list-lag has passed since it was). Without the wait, a lagging list that stored a
 * refused create passed whenever the first list came late (a loaded machine, checks one at a time).
 * `beside`: called once the second read is sent, for a request that goes with it (settledList's);
 * `settleMs`: the second read goes at least this long after the last create was answered (settleAfterSlowCreate).
 */
export async function readOnceMore(
  creations: readonly Creation[],
  read: LaggedList,
  reread: () => Promise<HttpResult>,
  recordsOf: (list: HttpResult) => CategoryRecord[] | undefined,
  lag: ListLag,
  lastCreateAnsweredAt: number,
  lastWriteAnsweredAt = lastCreateAnsweredAt,
  beside?: () => void,
  settleMs = 0,
): Promise<LaggedList> {
  if (creations.length === 0 || lag.waits.length === 0 || read.lists.length !== 1 || recordsOf(read.judged) === undefined) return read
  const lagMs = lag.waits.reduce((a, b) => a + b, 0)
  const asBefore = Math.min(lastWriteAnsweredAt - lastCreateAnsweredAt, lastWriteAnsweredAt + lagMs - Date.now())
  // a slow create's wait that --deadline leaves no room for gives way: the read once more still goes (as it went without one)
  const settle = lastCreateAnsweredAt + settleMs - Date.now()
  const wait = settle > asBefore && settle + REREAD_ROOM_MS <= lag.msLeft() ? settle : asBefore
  if (wait > 0 && !(await waitToReread(wait, lag))) return read
  const pending = reread()
  beside?.()
  const again = await pending
  const records = recordsOf(again)
  const twice = { ...read, lists: [...read.lists, again] }
  if (records === undefined) return twice
  if (missingFromList(creations, records).length === 0) {
    // a record the first read lacked (a refusal stored all the same, shown late): the list lags,
    // and the ledger's last read waits for it too (complete-ledger.test.ts under load)
    const first = new Set(recordsOf(read.judged)!.map((r) => String(r.id)))
    if (records.some((r) => !first.has(String(r.id)))) lag.seen?.()
    return { ...twice, judged: again }
  }
  return readPastTheLag(creations, twice, reread, recordsOf, lag, lastCreateAnsweredAt)
}

/**
 * Why reads of one list differ when the one judged was asked for otherwise than the first read
 * after the POSTs (the re-reads ask as the first list before them did: probes.ts listAgain): a
 * cache keyed by those headers that no create clears; undefined when both asked alike.
 */
function askedOtherwise(read: Partial<Pick<LaggedList, 'lists' | 'judged'>>): string | undefined {
  const first = read.lists?.[0]?.exchange.request.headers
  const judged = read.judged?.exchange.request.headers
  if (!first || !judged) return undefined
  const how = (h: Record<string, string>) => `Accept: ${h.accept ?? 'none'}, Accept-Encoding: ${h['accept-encoding'] ?? 'identity'}`
  if (how(first) === how(judged)) return undefined
  return (
    `the read that lacks it asked as the list before the run's POSTs did (${how(judged)}), the one that listed every record otherwise (${how(first)}): ` +
    "a cache in front whose key holds those headers (a Vary: Accept, Accept-Encoding; Django's cache_page, a CDN or nginx's proxy_cache) and that no create clears answers as it did before the POSTs " +
    '(clear it on every create, or keep the list out of it); or replicas that do not all hold the write'
  )
}
