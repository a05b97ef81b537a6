/**
 * Whether a service takes repeated names, from the creates whose name every run sends alike
 * (valid-create.ts, nameOfEveryRun): for create-returns-201's excuse of a 409 or 400 to such a name
 * as a repeat's, when this run's own repeated name says nothing of repeats (its first create was
 * refused: a name column shorter than the prefix makes it).
 */
import { fail } from '../../lib/checks/failure.ts'
import { describeStatus, responseOf, statusFailure } from '../../lib/checks/response.ts'
import type { HttpResult } from '../../lib/http/client.ts'
import { readableRecords } from './list-checks.ts'
import type { CreateProbe } from './probes.ts'

/**
 * The create of `creates` (not `judged`) whose name every run sends that was answered 201 though
 * `list` shows a record of exactly that name with another description (an earlier run's, another
 * client's): the service took a repeated name, so it refuses none as a repeat. Undefined when none was.
 * The empty name is no evidence: a UNIQUE index compares no NULL, and a store may keep '' as one.
 */
export async function takenRepeat(judged: CreateProbe, creates: readonly CreateProbe[], list: HttpResult): Promise<{ result: HttpResult; name: string } | undefined> {
  const records = readableRecords(list)
  for (const other of creates.filter((p) => p !== judged && p.case.nameOfEveryRun)) {
    const result = await other.probe().catch(() => undefined)
    if (result?.exchange.response?.status !== 201) continue
    const sent = await other.sent()
    // not the empty name: a store that keeps it as NULL (Oracle's '' = NULL) lets a UNIQUE index repeat it, and may list NULL as ""
    if (sent.name !== '' && records.some((record) => record.name === sent.name && record.description !== sent.description)) return { result, name: sent.name }
  }
  return undefined
}

/**
 * A 409 or a 400 to a name every run sends (`result`), where the list shows no record of that name,
 * though this run's own repeated name (create-repeated-name) got the same status after its first
 * create was taken: the service refuses repeats so, and holds a record of this name the list does not
 * show (measured by stackhunt11: Flask over SQLite, a UNIQUE name over every account's records,
 * each account's list its own). It fails as before, in those words; false when the repeat says otherwise.
 */
export async function unlistedRepeat(result: HttpResult, creates: readonly CreateProbe[], t: { evidence(result: HttpResult): void }): Promise<false> {
  const repeats = creates.find((p) => p.case.repeats)
  const [repeated, first] = await Promise.all([repeats, creates.find((p) => p.case.key === repeats?.case.repeats)].map((p) => p?.probe().catch(() => undefined)))
  const status = responseOf(result).status
  if (repeated?.exchange.response?.status !== status || first?.exchange.response?.status !== 201) return false
  t.evidence(repeated)
  return fail(
    {
      ...statusFailure(responseOf(result)),
      message:
        `POST answered ${describeStatus(responseOf(result))}, expected 201: the service refuses a repeated name so (this run's own, create-repeated-name, got ${status} too), and this is a name every run sends, but the list shows no record of it: ` +
        "a record the list does not show holds it (another account's or tenant's, under a unique index over them all; a record the list leaves out), where §4.1 lists all categories available to the key: " +
        'a name unique within what the key lists, or a list that shows every record a name clashes with',
      expected: 'status 201: the values are valid (§4.2 rule 2); a repeated name may be refused where the list shows the record it repeats',
      actual: `status ${describeStatus(responseOf(result))}`,
    },
    result.exchange,
  )
}
