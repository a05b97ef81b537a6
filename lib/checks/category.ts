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

/** §4.1: the list holds all categories, so every created one is in it, with the same fields. */
export function expectListed(created: CategoryRecord[], list: CategoryRecord[], ...results: HttpResult[]): void {
  const byId = new Map<string, CategoryRecord>()
  for (const record of list) byId.set(idOf(record), record)
  for (const record of created) {
    const id = idOf(record)
    const listed = byId.get(id)
    if (!listed) {
      fail(
        {
          message: `created category ${id} (${JSON.stringify(record.name)}) is missing from the list that followed`,
          expected: `a record with id ${id} among the ${list.length} listed`,
          actual: 'no such id in the list',
        },
        ...results.map((r) => r.exchange),
      )
    }
    for (const field of ['name', 'description'] as const) {
      if (listed[field] !== record[field]) {
        fail(
          {
            message: `category ${id} is listed with a different ${field} than it was created with`,
            expected: `${field}: ${JSON.stringify(record[field])}`,
            actual: `${field}: ${JSON.stringify(listed[field])}`,
          },
          ...results.map((r) => r.exchange),
        )
      }
    }
  }
}
