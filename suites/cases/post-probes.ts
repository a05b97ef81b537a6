/**
 * How the suite sends a POST: only one declared in suites/cases/write-order.ts and within the
 * run's write budget; the HTTP client's journal records it and what it created. Every name
 * carries the run's prefix, so records can be found afterwards. Also the create bodies typed by hand.
 */
import type { HttpResult } from '../../lib/http/client.ts'
import { httpClient, recordPrefix } from '../../lib/suite-kit/run-context.ts'
import { assertWriteAllowed } from '../../lib/suite-kit/write-budget.ts'
import { POST_PROBES } from './write-order.ts'

export { VALID_CREATES, createText, type ValidCreate } from './valid-creates.ts'

export interface InvalidBody {
  key: string
  label: string
  rule: 'create-rejects-missing-name' | 'create-rejects-missing-body'
  /** The raw request body. */
  body: (prefix: string) => string
  /** What the body carries that a stored record would show (the refusal checks look for it in the list). */
  marker?: (prefix: string) => string
}

/**
 * §4.2 rule 1, §5.4: the bodies typed by hand, because a schema cannot say them (malformed JSON is
 * suites/cases/malformed-json.ts, values of the wrong type suites/cases/wrong-types.ts).
 */
export const INVALID_BODIES: readonly InvalidBody[] = [
  { key: 'missing-name', label: 'a body without name', rule: 'create-rejects-missing-name',
    body: (p) => JSON.stringify({ description: `${p}-missing-name` }), marker: (p) => `${p}-missing-name` },
  { key: 'empty-body', label: 'an empty body', rule: 'create-rejects-missing-body', body: () => '' },
  { key: 'empty-object', label: 'an empty object', rule: 'create-rejects-missing-name', body: () => '{}' },
  // JSON names compare code unit by code unit (RFC 8259 §8.3): "Name" is not name,
  // though Go's encoding/json and ASP.NET Core's web defaults bind it to name
  { key: 'name-key-capitalised', label: 'the name under the key "Name"', rule: 'create-rejects-missing-name',
    body: (p) => JSON.stringify({ Name: `${p}-name-key-capitalised` }), marker: (p) => `${p}-name-key-capitalised` },
]

export { POST_PROBE_ORDER, unauthenticatedCreateKey } from './write-order.ts'

/** Sends one declared POST to /categories, within the write budget; the journal ledgers what it created. */
export async function postCategory(key: string, body: string | Uint8Array, authorization: string | undefined): Promise<HttpResult> {
  assertWriteAllowed(key, POST_PROBES, { path: '/categories', body })
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (authorization !== undefined) headers.authorization = authorization
  return httpClient().send({ method: 'POST', path: '/categories', headers, body, probe: key })
}

export { recordPrefix }
