/**
 * A field of a created record given back holding what the create body sent under another key:
 * another field's (values bound by their place), or the field's name in another case ("Name"
 * after "name": a binder that matches keys in any case, the later member winning).
 */
import type { HttpResult } from '../http/client.ts'

/** When a field came back holding what another field was sent: values bound by their position in the body, not by their names. */
export function heldByAnotherField(sent: object, field: string, got: unknown): string {
  const other = Object.entries(sent).find(([name, value]) => name !== field && value === got)?.[0]
  return other === undefined
    ? ''
    : `; it holds the "${other}" sent: the values were bound to the fields by their place in the body, not by their names (Object.values(body) into INSERT … VALUES (?, ?)), though an object's members are unordered (RFC 8259 §4)`
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
