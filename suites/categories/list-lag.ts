/**
 * A list may lag behind the writes it follows (a read replica, a search index such as Elasticsearch
 * under load, an eventually consistent store): §4.1 says the list holds "all categories available"
 * without saying how soon. So when created records are missing from the list that follows the
 * run's POSTs, the list is read again, with growing waits that add up to --list-lag, before they
 * count as missing. A list that shows them at once is read once: a server that does not lag pays
 * nothing. The re-reads are GETs (no write), journalled like every request, and kept as the
 * check's evidence. The refusal checks judge the list so read too: a lag hides a refused create
 * that was stored as it hides a created one (list-checks.ts settledList). A lag cannot make a
 * record listed first look gone, so that check judges the list as first read.
 */
import { missingFromList, type CategoryRecord, type Creation } from '../../lib/checks/category.ts'
import { ConformanceFailure } from '../../lib/checks/failure.ts'
import type { HttpResult } from '../../lib/http/client.ts'

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
    if (recordsOf(again) === undefined) break
    judged = again
  }
  return { lists, judged, waitedMs, cutShort: false }
}

/**
 * A record missing from the list says how long the list was read again for: a service whose list
 * lags further than --list-lag is told what to raise (--list-lag, or --deadline when it ended the
 * waiting), one whose list never shows the record that the wait was long. Any other error as it is.
 */
export function withLagSaid(error: unknown, read: Pick<LaggedList, 'waitedMs' | 'cutShort'>, lag: Pick<ListLag, 'waits'>): unknown {
  if (!(error instanceof ConformanceFailure) || error.code !== 'MISSING_FROM_LIST') return error
  const listLagMs = lag.waits.reduce((a, b) => a + b, 0)
  const why = read.cutShort ? `, of --list-lag ${listLagMs}: the run's --deadline was near` : ` (--list-lag ${listLagMs})`
  return new ConformanceFailure({ ...error.detail(), message: `${error.message} after ${read.waitedMs} ms of re-reads${why}` }, error.exchanges)
}
