/**
 * One parse of an answer's body, whoever reads it first: the run's journal (the record a create
 * made, lib/http/journal.ts) and the checks (lib/checks/response.ts) read the same answers, and a
 * server's records can make a body heavy to parse (100,000 members a record: 60 ms an answer, two
 * seconds a list, measured). Kept per owner (the answer's Exchange) for as long as it is.
 */
import { parseJsonExact } from './exact-json.ts'

/** What parseJsonExact made of a text: its value, or the error it threw. */
export type Parsed = { value: unknown } | { error: Error }

const parsedBodies = new WeakMap<object, { text: string; parsed: Parsed }>()

/** parseJsonExact(text), once per owner and text: a later call with the same text hands back the first one's outcome. Read-only. */
export function parsedOnce(owner: object, text: string): Parsed {
  const kept = parsedBodies.get(owner)
  if (kept !== undefined && kept.text === text) return kept.parsed
  let parsed: Parsed
  try {
    parsed = { value: parseJsonExact(text) }
  } catch (error) {
    parsed = { error: error as Error }
  }
  parsedBodies.set(owner, { text, parsed })
  return parsed
}
