/**
 * A created category that a list does not show under the id its create answered, though the list
 * shows a record with the very name and description that create sent, under an id no create of the
 * run was answered, or only creates that sent other values. The run's names carry its prefix and no two of its creates send the same pair
 * (suites/cases/valid-creates.ts), so that record is the category, listed under an id it was not
 * given: §2 makes the id its unique identifier, assigned on creation, and no operation changes one.
 * A list behind the writes lacks a record; it does not show it under another id. So such a record
 * is not missing (no re-read waits for it) but changed, whichever answer rounded or rewrote the id.
 */
import type { HttpResult } from '../http/client.ts'
import { fail } from './failure.ts'
import { idOf, IdIndex } from './id-index.ts'

/** A listed record, and a create with the body it sent and the record it was answered (category.ts's, which imports this). */
interface Listed {
  id?: unknown
  name?: unknown
  description?: unknown
}
interface Created {
  sent: { name: string; description?: string }
  record: { id?: unknown }
}

/**
 * The record of `list` that holds what `creation` sent under an id none of `created` was answered,
 * or under the id of creates that sent other values (`createdIndex` is built of `created`'s records,
 * positions alike): a list that rounds consecutive ids past 2^53 (2^60 + 1 … 2^60 + 25) shows the
 * first under 1152921504606847000, which is 2^60 + 24, another create's id, with the first's values.
 */
export function listedUnderAnotherId<T extends Listed>(creation: Created, list: readonly T[], createdIndex: IdIndex, created: readonly Created[]): T | undefined {
  const { name, description } = creation.sent
  const othersValues = (r: T) => createdIndex.positionsOf(r).every((position) => created[position]!.sent.name !== name || created[position]!.sent.description !== description)
  return list.find((r) => r.name === name && r.description === description && (!createdIndex.has(r) || othersValues(r)))
}

/** An integer text that is a double's: its shortest form ("1152921504606847000") or its exact digits ("1152921504606846976"). */
const isDoubleText = (text: string) => /^-?\d+$/.test(text) && (String(Number(text)) === text || BigInt(Number(text)) === BigInt(text))

/** Which of two ids is the other read into a double (a JavaScript number) and written again, in words; '' when neither. */
function roundedOrigin(answered: string, listed: string): string {
  if (!/^-?\d+$/.test(answered) || !/^-?\d+$/.test(listed) || Number(answered) !== Number(listed) || isDoubleText(answered) === isDoubleText(listed)) return ''
  const [rounded, exact, where] = isDoubleText(listed) ? [listed, answered, 'the list'] : [answered, listed, 'the create answer']
  return (
    `; ${rounded} is ${exact} rounded to a double: past 2^53 a JavaScript number holds only every second integer, then every fourth, and ${where} read the id into a number and wrote it again ` +
    '(JSON.parse and JSON.stringify in a proxy, an edge function or a view, Number(id) of a driver that gives BIGINTs as text, or a driver that reads them as numbers); read the ids as text or BigInt, and write them into the JSON as numbers'
  )
}

/** Fails: `creation` is listed as `other`, under another id. */
export function failListedUnderAnotherId(creation: Created, other: Listed, ...results: HttpResult[]): never {
  const [id, listedId] = [idOf(creation.record), idOf(other)]
  const origin = roundedOrigin(id, listedId)
  return fail(
    {
      code: 'LISTED_FIELD_CHANGED',
      message: `category ${id} is listed under another id, ${listedId}, with the name and description it was created with${origin}`,
      expected: `the record named ${JSON.stringify(creation.sent.name).slice(0, 80)} listed with id ${id}, as the create answered`,
      actual: `id ${listedId}`,
      observed: origin ? 'the id rounded to a double' : 'the id listed differs',
    },
    ...results.map((r) => r.exchange),
  )
}
