/**
 * One parse of an answer's body, whoever reads it first: the run's journal (the record a create
 * made, lib/http/journal.ts) and the checks (lib/checks/response.ts) read the same answers, and a
 * server's records can make a body heavy to parse (100,000 members a record: 60 ms an answer, two
 * seconds a list, measured). Kept per owner (the answer's Exchange) for as long as it is; answers
 * with the same large body share one (lib/http/same-bodies.ts).
 */
import { parseJsonExact } from './exact-json.ts'

/** What parseJsonExact made of a text: its value, or the error it threw. */
export type Parsed = { value: unknown } | { error: Error }

/** A body and, once read, its parse: one for every owner whose body it is. */
interface Body {
  text: string
  parsed?: Parsed
}

const bodies = new WeakMap<object, Body>()

function bodyOf(owner: object, text: string): Body {
  let body = bodies.get(owner)
  if (body === undefined || body.text !== text) bodies.set(owner, (body = { text }))
  return body
}

/** parseJsonExact(text), once per owner and text: a later call with the same text hands back the first one's outcome. Read-only. */
export function parsedOnce(owner: object, text: string): Parsed {
  const body = bodyOf(owner, text)
  if (body.parsed === undefined) {
    try {
      body.parsed = { value: parseJsonExact(text) }
    } catch (error) {
      body.parsed = { error: error as Error }
    }
  }
  return body.parsed
}

/** `owner`'s body is `text`, as `earlier`'s is: one parse for both, kept once. */
export function sameBodyAs(owner: object, earlier: object, text: string): void {
  bodies.set(owner, bodyOf(earlier, text))
}
