/** Checks on Category records across requests: fields echoed, ids unique, created ones listed. */
import type { HttpResult } from '../http/client.ts'
import { exactIntegerTextAt, numberText } from '../json/exact-json.ts'
import { fail, NotApplicable } from './failure.ts'
import { jsonBodyOf } from './response.ts'

export interface NewCategory {
  name: string
  description?: string
}

export interface CategoryRecord {
  id: number
  name: string
  description?: string
  [extra: string]: unknown
}

/** The id of a parsed record as exact decimal text (JSON.parse would round it past 2^53). */
export function idOf(record: CategoryRecord): string {
  return exactIntegerTextAt(record, 'id') ?? numberText(record, 'id')
}

/** §4.2 rule 2: every field sent comes back, unchanged (extra fields are allowed). */
export function expectEchoedFields(sent: NewCategory, result: HttpResult): CategoryRecord {
  let record: CategoryRecord
  try {
    record = jsonBodyOf(result) as CategoryRecord
  } catch {
    throw new NotApplicable('the body is not JSON; create-returns-category reports it')
  }
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    throw new NotApplicable('the body is not a record; create-returns-category reports it')
  }
  for (const [field, value] of Object.entries(sent)) {
    if (record[field] !== value) {
      fail(
        {
          code: 'FIELD_CHANGED',
          message: `the created record changed "${field}"`,
          expected: `${field}: ${JSON.stringify(value)} (as sent)`,
          actual: field in record ? `${field}: ${JSON.stringify(record[field])}` : `no "${field}" in the record`,
        },
        result.exchange,
      )
    }
  }
  return record
}

/** §2: ids are unique, both across creations and within one list. */
export function expectDistinctIds(records: CategoryRecord[], where: string, ...results: HttpResult[]): void {
  const seen = new Map<string, number>()
  records.forEach((record, index) => {
    const id = idOf(record)
    const first = seen.get(id)
    if (first !== undefined) {
      fail(
        {
          code: 'DUPLICATE_ID',
          message: `${where}: two records share id ${id}`,
          expected: 'every id unique',
          actual: `id ${id} at positions ${first} and ${index}`,
        },
        ...results.map((r) => r.exchange),
      )
    }
    seen.set(id, index)
  })
}

/** A created record and the body that created it. */
export interface Creation {
  sent: NewCategory
  record: CategoryRecord
}

/**
 * §4.1: the list holds all categories, so every created one is in it, once, with the fields that
 * were sent (§4.2 rule 2 binds only those: a default for a field not sent may differ).
 */
export function expectListed(created: Creation[], list: CategoryRecord[], ...results: HttpResult[]): void {
  const byId = new Map<string, CategoryRecord[]>()
  for (const record of list) {
    const id = idOf(record)
    byId.set(id, [...(byId.get(id) ?? []), record])
  }
  for (const { sent, record } of created) {
    const id = idOf(record)
    // §1 rule 1: one create, one category (names carry the run id, so no one else made another)
    const sameName = list.filter((r) => r.name === sent.name)
    if (sameName.length > 1) {
      fail(
        {
          code: 'DUPLICATE_CREATE',
          message: `the create of ${JSON.stringify(sent.name)} made ${sameName.length} categories`,
          expected: `one listed category named ${JSON.stringify(sent.name)}`,
          actual: `ids ${sameName.map(idOf).join(', ')}`,
        },
        ...results.map((r) => r.exchange),
      )
    }
    const listed = byId.get(id) ?? []
    if (listed.length !== 1) {
      fail(
        {
          code: listed.length === 0 ? 'MISSING_FROM_LIST' : 'DUPLICATE_ID',
          message:
            listed.length === 0
              ? `created category ${id} (${JSON.stringify(record.name)}) is missing from the list that followed`
              : `created category ${id} is listed ${listed.length} times`,
          expected: `one record with id ${id} among the ${list.length} listed`,
          actual: listed.length === 0 ? 'no such id in the list' : `${listed.length} records with that id`,
        },
        ...results.map((r) => r.exchange),
      )
    }
    for (const [field, value] of Object.entries(sent)) {
      if (listed[0][field] !== value) {
        fail(
          {
            code: 'LISTED_FIELD_CHANGED',
            message: `category ${id} is listed with a different ${field} than it was created with`,
            expected: `${field}: ${JSON.stringify(value)} (as sent)`,
            actual: field in listed[0] ? `${field}: ${JSON.stringify(listed[0][field])}` : `no "${field}" in the listed record`,
          },
          ...results.map((r) => r.exchange),
        )
      }
    }
  }
}
