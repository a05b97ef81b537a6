/**
 * The stable code of every kind of failure, with what it means. Reports carry the code, the kill
 * matrix pins each mutation to one, and tools that read results.json or JUnit should match on the
 * code, not on the message (undici's error codes, Schemathesis' failure classes). Declared once,
 * here; a check names the code when it fails.
 */
export const FAILURE_CODES = {
  NO_RESPONSE: 'no complete HTTP response came back (timeout, reset, size cap, malformed HTTP)',
  UNEXPECTED_STATUS: 'the response status is not the one the rule demands',
  SERVER_ERROR: 'a request whose answer the document fixes (200, 201, 400 or 401) got a 5xx: a server fault, whatever the input',
  SERVED_WITHOUT_KEY: "a request without a key got the operation's data at a form of its path a lenient router takes for it",
  REFUSED_FOR_CONTENT: 'a create was refused although plain ASCII of the same sizes was accepted: the refusal is of its characters, not of a length limit',
  WRONG_CONTENT_TYPE: 'a documented response is not declared as application/json',
  NOT_JSON: 'the body is not valid JSON (RFC 8259: UTF-8, no byte order mark)',
  SCHEMA_MISMATCH: 'the body does not have the documented shape (spec/openapi.yaml)',
  ERROR_STATUS_MISMATCH: "the Error record's status differs from the response's HTTP status",
  FIELD_CHANGED: 'a field sent in a create came back changed in the created record',
  DUPLICATE_ID: 'two records share an id',
  CLIENT_ID_ACCEPTED: 'the created record carries the id the client sent: the service did not assign it (mass assignment)',
  MISSING_FROM_LIST: 'a created category is missing from a list read after it was created',
  LISTED_FIELD_CHANGED: 'a category is listed with other field values than it was created with',
  DUPLICATE_CREATE: 'one create made more than one category',
  VANISHED_FROM_LIST: 'a category an earlier list showed is missing from a later list (the interface has no delete)',
  CHANGED_BETWEEN_LISTS: 'a category shows other field values in a later list than in an earlier one',
  REFUSED_CREATE_STORED: 'a create the server refused was stored all the same',
  BASE_PATH_NOT_V1: 'the base address does not end in /v1',
  CHECK_ERROR: 'the check itself failed unexpectedly (a fault in the suite or its input)',
} as const

export type FailureCode = keyof typeof FAILURE_CODES

export const isFailureCode = (code: string): code is FailureCode => Object.hasOwn(FAILURE_CODES, code)

/**
 * Codes earlier versions gave that this one no longer does, with what became of their failures. A
 * baseline recorded by such a version may name one: it is read (an unknown code is refused, exit 2,
 * which would turn an upgrade's first run red), matches no failure, and reads as fixed, as it did
 * before codes were checked; --update-baseline drops it.
 */
export const RETIRED_FAILURE_CODES: Readonly<Record<string, string>> = {
  CHECK_UNFINISHED: "0.1.0's check that did not finish before --deadline: such a check is now not verified, no failure",
}

export const isRetiredFailureCode = (code: string): boolean => Object.hasOwn(RETIRED_FAILURE_CODES, code)
