/**
 * A list may lag behind the writes it follows (a read replica, a search index): §4.1 says the list
 * holds "all categories available" without saying how soon. So when created records are missing
 * from the list that follows the run's POSTs, the list is read again, a few times with a growing
 * wait, before they count as missing. The re-reads are GETs (no write), journalled like every
 * request, and kept as the check's evidence. The refusal checks judge the list so read too: a lag
 * hides a refused create that was stored as it hides a created one (list-checks.ts settledList).
 * A lag cannot make a record listed first look gone, so that check judges the list as first read.
 */
import { missingFromList, type CategoryRecord, type Creation } from '../../lib/checks/category.ts'
import type { HttpResult } from '../../lib/http/client.ts'

/** The waits before each re-read: four more reads within about two seconds. */
export const LIST_REREAD_WAITS_MS: readonly number[] = [200, 300, 500, 1_000]

/**
 * The list that follows the creations, read again while some of them are missing from it. Returns
 * every list read, the first one first; the last usable one (`recordsOf` gives its records) is the
 * one to judge. A re-read that is not a usable list ends the waiting: the lists before it are judged.
 */
export async function listedAfterLag(
  creations: readonly Creation[],
  first: HttpResult,
  read: () => Promise<HttpResult>,
  recordsOf: (list: HttpResult) => CategoryRecord[] | undefined,
  waits: readonly number[] = LIST_REREAD_WAITS_MS,
): Promise<{ lists: HttpResult[]; judged: HttpResult }> {
  const lists = [first]
  let judged = first
  for (const wait of waits) {
    const records = recordsOf(judged)
    if (records === undefined || missingFromList(creations, records).length === 0) break
    await new Promise((resolve) => setTimeout(resolve, wait))
    const again = await read()
    lists.push(again)
    if (recordsOf(again) === undefined) break
    judged = again
  }
  return { lists, judged }
}
