/**
 * How the suite sends a POST: only one declared in suites/cases/write-order.ts and within the
 * run's write budget, and every record it created goes in the ledger. Every name carries the run's
 * prefix, so records can be found afterwards. Also the create bodies typed by hand.
 */
import type { HttpResult } from '../../lib/http/client.ts'
import { parseJsonExact } from '../../lib/json/exact-json.ts'
import { idOf, type CategoryRecord } from '../../lib/checks/category.ts'
import { recordCreated } from '../../lib/suite-kit/check.ts'
import { httpClient, recordPrefix } from '../../lib/suite-kit/run-context.ts'
import { assertWriteAllowed } from '../../lib/suite-kit/write-budget.ts'
import { POST_PROBE_ORDER } from './write-order.ts'

export { VALID_CREATES, createText, type ValidCreate } from './valid-creates.ts'

export interface InvalidBody {
  key: string
  label: string
  rule: 'create-rejects-missing-name' | 'create-rejects-missing-body'
  /** The raw request body. */
  body: (prefix: string) => string
}

/**
 * §4.2 rule 1, §5.4: the bodies typed by hand, because a schema cannot say them (malformed JSON is
 * suites/cases/malformed-json.ts, values of the wrong type suites/cases/wrong-types.ts).
 */
export const INVALID_BODIES: readonly InvalidBody[] = [
  { key: 'missing-name', label: 'a body without name', rule: 'create-rejects-missing-name', body: (p) => JSON.stringify({ description: `${p}-missing-name` }) },
  { key: 'empty-body', label: 'an empty body', rule: 'create-rejects-missing-body', body: () => '' },
  { key: 'empty-object', label: 'an empty object', rule: 'create-rejects-missing-name', body: () => '{}' },
]

export { POST_PROBE_ORDER, unauthenticatedCreateKey } from './write-order.ts'

/** Sends one declared POST to /categories, within the write budget, and ledgers what it created. */
export async function postCategory(key: string, body: string | Uint8Array, authorization: string | undefined): Promise<HttpResult> {
  assertWriteAllowed(key, POST_PROBE_ORDER)
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (authorization !== undefined) headers.authorization = authorization
  const result = await httpClient().send({ method: 'POST', path: '/categories', headers, body })
  const status = result.exchange.response?.status ?? 0
  if (status >= 200 && status < 300) recordCreated({ ...ledgerFields(result.text, body), status, exchangeId: result.exchange.id })
  return result
}

/** Id and name of what a 2xx created, as far as the answer (or else the request) tells. */
function ledgerFields(answer: string | undefined, bodySent: string | Uint8Array): { id: string; name: string } {
  const sent = typeof bodySent === 'string' ? bodySent : Buffer.from(bodySent).toString('latin1')
  let id = '(not returned)'
  let name = '(unknown)'
  try {
    const record = parseJsonExact(answer ?? '') as CategoryRecord
    if (record && typeof record === 'object' && 'id' in record) id = idOf(record)
    if (record && typeof record.name === 'string') name = record.name
  } catch {
    // an unreadable answer still goes in the ledger: a record may exist
  }
  if (name === '(unknown)') {
    try {
      const request = JSON.parse(sent) as { name?: unknown; description?: unknown }
      name = typeof request.name === 'string' ? request.name : `(sent: ${sent.slice(0, 80)})`
    } catch {
      name = `(sent: ${sent.slice(0, 80)})`
    }
  }
  return { id, name }
}

export { recordPrefix }
