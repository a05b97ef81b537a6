/**
 * A created category that a list does not show under its id, though the list shows a record with
 * the very name and description that create sent, under another id. The run's names carry its
 * prefix and no two of its creates send the same pair (valid-creates.ts), so that record is the
 * category, listed under an id it was not given: §2 makes the id its unique identifier, assigned on
 * creation, and no operation changes one. A list behind the writes lacks a record; it does not
 * show it under another id.
 */
import type { HttpResult } from '../http/client.ts'
import { fail } from './failure.ts'
import { idOf, type CategoryRecord, type Creation } from './category.ts'

/** What turned an id into the one listed, when it is the id read into a double (a JavaScript number) and written again. */
function roundedOrigin(id: string, listed: string): string {
  // "1152921504606847000", the shortest text of the double, or its exact digits, "1152921504606846976"
  if (!/^-?\d+$/.test(id) || !/^-?\d+$/.test(listed) || Number(id) !== Number(listed)) return ''
  return (
    `; ${listed} is ${id} rounded to a double: past 2^53 a JavaScript number holds only every second integer, then every fourth, and the list asked for so was read into numbers and written again ` +
    '(JSON.parse and JSON.stringify in a proxy, an edge function or a view in front of the service, or a driver that reads BIGINTs as numbers on that path only); read the ids as text or BigInt there, and write them into the JSON as numbers'
  )
}

/** Fails for the first of `missing` (created records `list` does not show under their ids) that it shows under another id. */
export function expectNotListedUnderAnotherId(missing: readonly Creation[], list: readonly CategoryRecord[], ...results: HttpResult[]): void {
  if (missing.length === 0) return
  const byName = new Map<unknown, CategoryRecord[]>()
  for (const record of list) {
    const named = byName.get(record.name)
    if (named) named.push(record)
    else byName.set(record.name, [record])
  }
  for (const { sent, record } of missing) {
    const other = (byName.get(sent.name) ?? []).find((r) => r.description === sent.description)
    if (other === undefined) continue
    const [id, listedId] = [idOf(record), idOf(other)]
    fail(
      {
        code: 'LISTED_FIELD_CHANGED',
        message: `category ${id} is listed under another id, ${listedId}, with the name and description it was created with${roundedOrigin(id, listedId)}`,
        expected: `the record named ${JSON.stringify(sent.name).slice(0, 80)} listed with id ${id}, as the create answered`,
        actual: `id ${listedId}`,
        observed: roundedOrigin(id, listedId) ? 'the id listed rounded to a double' : 'the id listed differs',
      },
      ...results.map((r) => r.exchange),
    )
  }
}
