/**
 * A field of a created record given back holding what the create body sent under another key:
 * another field's (values bound by their place), or the field's name in another case ("Name"
 * after "name": a binder that matches keys in any case, the later member winning); or holding
 * what another create sent (the answer read back another create's row).
 */
import type { HttpResult } from '../http/client.ts'

/** NewCategory's fields in the order the body sent them, or undefined when the body is not at hand. */
function fieldOrder(result?: HttpResult): string[] | undefined {
  try {
    const members: unknown = JSON.parse(result?.exchange.request.body ?? '')
    return members !== null && typeof members === 'object' && !Array.isArray(members) ? Object.keys(members).filter((key) => Object.hasOwn(FIELD_PLACE, key)) : undefined
  } catch {
    return undefined
  }
}

/** The place of each field in a Category record's columns (INSERT INTO categories (name, description)). */
const FIELD_PLACE: Record<string, number> = { name: 0, description: 1 }

/**
 * When a field came back holding what another field was sent: values bound by their position in
 * the body, not by their names. Bound so, a field holds the member the body sent at its place
 * (name the first, description the second): a body that sent name first is not swapped by it.
 */
export function heldByAnotherField(sent: object, field: string, got: unknown, result?: HttpResult): string {
  const other = Object.entries(sent).find(([name, value]) => name !== field && value === got)?.[0]
  if (other === undefined) return ''
  const order = fieldOrder(result)
  if (order !== undefined && order[FIELD_PLACE[field] ?? -1] !== other) return ''
  return `; it holds the "${other}" sent: the values were bound to the fields by their place in the body, not by their names (Object.values(body) into INSERT … VALUES (?, ?)), though an object's members are unordered (RFC 8259 §4)`
}

/** A record name's marker (suites/cases: the run's prefix and a case's key), as every name or description of a create carries one. */
const MARKER = /cf-[a-z0-9]{5}-[a-z0-9-]*/g

/** The answer that read back another create's row, and the change. */
export const ANOTHER_CREATES_RECORD =
  'a service that reads its record back as the newest row after the insert (SELECT … ORDER BY id DESC LIMIT 1, SELECT MAX(id)), or takes the id from state every request shares, answers another create\'s record when creates run at once; ' +
  "answer the row of the insert's own id (PDO::lastInsertId() or LAST_INSERT_ID() on the insert's connection, INSERT … RETURNING)"

/**
 * When the record holds a marker no value of this create's body holds: it is another create's record,
 * not this one's changed. Compared in lower case, as MARKER reads one: a name lower-cased
 * ("cf-ab12c-desc-16" for "cf-ab12c-Desc-16") is this create's own value changed.
 */
export function heldByAnotherCreate(sent: object, record: Record<string, unknown>): string {
  const sentText = Object.values(sent)
    .filter((value): value is string => typeof value === 'string')
    .map((value) => value.toLowerCase())
  for (const [field, value] of Object.entries(record)) {
    if (typeof value !== 'string' || !Object.hasOwn(FIELD_PLACE, field)) continue
    const foreign = (value.match(MARKER) ?? []).find((marker) => !sentText.some((text) => text.includes(marker)))
    if (foreign !== undefined) return `; the answer is another create's record (its "${field}" holds ${foreign}, which this body did not send): ${ANOTHER_CREATES_RECORD}`
  }
  return ''
}

/** What such a binder is, and its change. JSON names compare exactly (RFC 8259 §8.3): "Name" is a field NewCategory does not name. */
const KEY_CASE_IGNORED_AFTER =
  'the service bound the body to its fields whatever the case of their keys, the later member winning, as Go\'s encoding/json does (gin\'s ShouldBindJSON, echo\'s Bind, DisallowUnknownFields too, after a map[string]json.RawMessage checked for "name") ' +
  "and ASP.NET Core's web defaults (PropertyNameCaseInsensitive); RFC 8259 §8.3 compares names exactly, so that member is a field NewCategory does not name, to ignore or refuse with 400 " +
  '(Go: read the fields from the map the check used, or refuse a key that only folds to a field; ASP.NET Core: PropertyNameCaseInsensitive = false)'

/** The words for a changed field held under another case of its key in the request body, or ''. */
export function heldUnderAnotherCase(result: HttpResult, field: string, got: unknown): string {
  let members: unknown
  try {
    members = JSON.parse(result.exchange.request.body ?? '')
  } catch {
    return ''
  }
  if (members === null || typeof members !== 'object' || Array.isArray(members)) return ''
  const sent = members as Record<string, unknown>
  const key = Object.keys(sent).find((k) => k !== field && k.toLowerCase() === field.toLowerCase() && sent[k] === got)
  return key === undefined ? '' : `; it holds what the body sent under the key "${key}" after "${field}": ${KEY_CASE_IGNORED_AFTER}`
}

/** A create answered with the record another create of the run sent, under another name than its own (create-echoes-fields tells it). */
export const answeredAnothersRecord = (c: { sent: { name: string; description?: string }; record: { name?: unknown; description?: unknown } }, creations: readonly { sent: { name: string; description?: string } }[]) =>
  c.record.name !== c.sent.name && creations.some((o) => o !== c && o.sent.name === c.record.name && o.sent.description === c.record.description)
