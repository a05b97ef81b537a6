/**
 * A body's every problem (Ajv's allErrors: what `actual`, a baseline entry's alsoObserved and
 * compare read) costs one record's errors at a time and is found once per body: over a whole list
 * of a million records with ids as strings, Ajv held 2 million errors (585 MiB, 3.2 s), for each of
 * the checks that judged the list. The words are the same as the whole list's would be.
 */
import { describe, expect, test, vi } from 'vitest'

const calls: { schema: string; list: number | undefined }[] = []
vi.mock('../../lib/spec/schema-registry.ts', async (original) => {
  const real = await original<typeof import('../../lib/spec/schema-registry.ts')>()
  return {
    ...real,
    everySchemaProblem: (schema: Parameters<typeof real.everySchemaProblem>[0], body: unknown) => {
      calls.push({ schema, list: Array.isArray(body) ? body.length : undefined })
      return real.everySchemaProblem(schema, body)
    },
  }
})

const { ConformanceFailure } = await import('../../lib/checks/failure.ts')
const { expectSchema } = await import('../../lib/checks/schema.ts')
const { jsonBodyOf } = await import('../../lib/checks/response.ts')
const { makeResponse } = await import('./make-response.ts')

function detailOf(check: () => unknown) {
  try {
    check()
  } catch (error) {
    if (error instanceof ConformanceFailure) return error.detail()
    throw error
  }
  throw new Error('it passed')
}

describe("a list's every problem", () => {
  test('found record by record, once for the checks that judge the same body, in the same words', () => {
    const records = Array.from({ length: 2000 }, (_, i) => (i % 2 === 0 ? { id: String(i), name: `c${i}` } : { id: i, name: `c${i}`, description: 7 }))
    const list = makeResponse({ body: JSON.stringify(records) })
    jsonBodyOf(list)
    calls.length = 0
    const first = detailOf(() => expectSchema(list, 'CategoryList', 'a list'))
    const second = detailOf(() => expectSchema(list, 'CategoryList', 'a list'))
    expect(calls.filter((c) => c.list !== undefined)).toEqual([])
    expect(calls.length).toBe(records.length)
    expect(second).toEqual(first)
    expect(first.actual).toBe('body[0].id must be integer; body[1].description must be string; body[2].id must be integer; body[3].description must be string; body[4].id must be integer')
    expect(first.observed).toBe('body[].description must be string')
    expect(first.alsoObserved).toEqual(['body[].id must be integer'])
  })
})
