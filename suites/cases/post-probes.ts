/**
 * Every POST the suite can send, in priority order. A run sends the first --max-writes of them
 * (all by default, none under --read-only), so this table is the bound on what one run can create:
 * the valid creations create a record each, and the others create one only on a server that
 * wrongly accepts them. Every name carries the run's prefix, so records can be found afterwards.
 */
import type { HttpResult } from '../../lib/http/client.ts'
import { parseJsonExact } from '../../lib/json/exact-json.ts'
import { idOf, type CategoryRecord, type NewCategory } from '../../lib/checks/category.ts'
import { recordCreated } from '../../lib/suite-kit/check.ts'
import { httpClient, recordPrefix } from '../../lib/suite-kit/run-context.ts'
import { assertWriteAllowed } from '../../lib/suite-kit/write-budget.ts'
import { POST_PROBE_ORDER } from './write-order.ts'

export interface ValidCreate {
  key: string
  label: string
  body: (prefix: string) => NewCategory
}

/** §4.2 rule 2: valid bodies, answered 201 with every field sent returned unchanged. */
export const VALID_CREATES: readonly ValidCreate[] = [
  {
    key: 'create-described',
    label: 'name and description',
    body: (p) => ({ name: `${p}-described`, description: 'Created by the conformance suite; the interface has no delete.' }),
  },
  { key: 'create-name-only', label: 'name only', body: (p) => ({ name: `${p}-plain` }) },
  { key: 'create-non-ascii', label: 'a non-ASCII name', body: (p) => ({ name: `${p}-Ñandú 🐇` }) },
  { key: 'create-padded-name', label: 'a name with leading and trailing spaces', body: (p) => ({ name: `  ${p}-padded  ` }) },
]

export interface InvalidBody {
  key: string
  label: string
  rule: 'create-rejects-missing-name' | 'create-rejects-invalid-values' | 'create-rejects-invalid-json' | 'create-rejects-missing-body'
  /** The raw request body. */
  body: (prefix: string) => string
}

const json = (value: unknown) => JSON.stringify(value)

/** §4.2 rule 1, §5.4, §7: bodies answered 400 with an Error record. */
export const INVALID_BODIES: readonly InvalidBody[] = [
  { key: 'missing-name', label: 'a body without name', rule: 'create-rejects-missing-name', body: (p) => json({ description: `${p} missing name` }) },
  { key: 'name-number', label: 'name as a number', rule: 'create-rejects-invalid-values', body: (p) => json({ name: 42, description: `${p} name number` }) },
  { key: 'malformed-json', label: 'malformed JSON', rule: 'create-rejects-invalid-json', body: (p) => `{"name": "${p}-malformed",` },
  { key: 'empty-body', label: 'an empty body', rule: 'create-rejects-missing-body', body: () => '' },
  { key: 'empty-object', label: 'an empty object', rule: 'create-rejects-missing-name', body: () => '{}' },
  { key: 'name-boolean', label: 'name as a boolean', rule: 'create-rejects-invalid-values', body: (p) => json({ name: true, description: `${p} name boolean` }) },
  { key: 'name-null', label: 'name as null', rule: 'create-rejects-invalid-values', body: (p) => json({ name: null, description: `${p} name null` }) },
  { key: 'name-array', label: 'name as an array', rule: 'create-rejects-invalid-values', body: (p) => json({ name: [`${p}-array`] }) },
  { key: 'name-object', label: 'name as an object', rule: 'create-rejects-invalid-values', body: (p) => json({ name: { value: `${p}-object` } }) },
  { key: 'description-number', label: 'description as a number', rule: 'create-rejects-invalid-values', body: (p) => json({ name: `${p}-description-number`, description: 7 }) },
  { key: 'description-null', label: 'description as null', rule: 'create-rejects-invalid-values', body: (p) => json({ name: `${p}-description-null`, description: null }) },
  { key: 'body-array', label: 'a body that is an array', rule: 'create-rejects-invalid-values', body: (p) => json([{ name: `${p}-in-array` }]) },
  { key: 'body-string', label: 'a body that is a string', rule: 'create-rejects-invalid-values', body: (p) => json(`${p}-string`) },
  { key: 'body-null', label: 'a body that is null', rule: 'create-rejects-invalid-values', body: () => 'null' },
]

export { POST_PROBE_ORDER, unauthenticatedCreateKey } from './write-order.ts'

/** Sends one declared POST to /categories, within the write budget, and ledgers what it created. */
export async function postCategory(key: string, body: string, authorization: string | undefined): Promise<HttpResult> {
  assertWriteAllowed(key, POST_PROBE_ORDER)
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (authorization !== undefined) headers.authorization = authorization
  const result = await httpClient().send({ method: 'POST', path: '/categories', headers, body })
  const status = result.exchange.response?.status ?? 0
  if (status >= 200 && status < 300) recordCreated({ ...ledgerFields(result.text, body), status, exchangeId: result.exchange.id })
  return result
}

/** Id and name of what a 2xx created, as far as the answer (or else the request) tells. */
function ledgerFields(answer: string | undefined, sent: string): { id: string; name: string } {
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
