/**
 * Whether a service takes repeated names, from the creates whose name every run sends alike
 * (valid-create.ts, nameOfEveryRun): for create-returns-201's excuse of a 409 or 400 to such a name
 * as a repeat's, when this run's own repeated name says nothing of repeats (its first create was
 * refused: a name column shorter than the prefix makes it).
 */
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
