/**
 * How the suite tells whether a POST whose answer the connection race lost was applied
 * (lib/http/lost-answer.ts): every POST names itself with the run's prefix, so the list says
 * whether it was stored. A create is found by the fields it sent (§4.2 rule 2: a record carries
 * every field sent, unchanged), a refused body by the marker it carries.
 */
import { recordsHolding, type CategoryRecord } from '../../lib/checks/category.ts'
import type { NewCategory } from '../../lib/checks/category.ts'
import type { HttpResult } from '../../lib/http/client.ts'
import type { AppliedOrNot, WhetherApplied } from '../../lib/http/lost-answer.ts'
import { exactIntegerTextAt, parseJsonExact } from '../../lib/json/exact-json.ts'
import type { Run } from '../../lib/suite-kit/run-context.ts'
import { VALID_AUTHORIZATION } from './credentials.ts'

/** The records of the list that a POST stored. */
export type StoredAs = (records: CategoryRecord[]) => CategoryRecord[]

/** A create: the records with exactly the fields it sent. */
export const sameRecord =
  (sent: NewCategory): StoredAs =>
  (records) =>
    records.filter((r) => r.name === sent.name && r.description === sent.description)

/** A body that must be refused: the records that hold its marker. */
export const holding =
  (marker: string): StoredAs =>
  (records) =>
    recordsHolding(records, marker)

/** A body with nothing a record could be stored under (null, true, 3): no list can show it applied, and no category can come of it. */
export const NOTHING_TO_FIND: StoredAs = () => []

function listedRecords(list: HttpResult): CategoryRecord[] | undefined {
  if (list.exchange.response?.status !== 200) return undefined
  try {
    const parsed = parseJsonExact(list.text ?? '')
    return Array.isArray(parsed) ? (parsed.filter((r) => r !== null && typeof r === 'object') as CategoryRecord[]) : undefined
  } catch {
    return undefined
  }
}

/** Reads the list once and says whether `storedAs` finds the POST's record in it; `untold` when the list cannot tell. */
export function whetherStored(run: Run, storedAs: StoredAs): WhetherApplied {
  return async (): Promise<AppliedOrNot | undefined> => {
    const list = await run.client().send({ method: 'GET', path: '/categories', headers: { authorization: VALID_AUTHORIZATION }, critical: true })
    // the run's ledger reads it too (a record stored though refused, lib/result/ledger-from-list.ts)
    run.context.listsRead?.note(list)
    const records = listedRecords(list)
    if (!records) return { list, untold: true }
    const found = storedAs(records)[0]
    if (!found) return { list }
    const id = exactIntegerTextAt(found, 'id') ?? String(found.id)
    return { list, record: { id, name: String(found.name), value: found } }
  }
}
