/** suites/categories/paged-list.ts: what a list's headers say of paging, added to a created record missing from it. */
import { describe, expect, test } from 'vitest'
import { ConformanceFailure } from '../../lib/checks/failure.ts'
import { cutOf, pageOf, withPageSaid } from '../../suites/categories/paged-list.ts'
import { makeResponse } from './make-response.ts'

const list = (headers: Record<string, string>) => makeResponse({ headers: { 'content-type': 'application/json', ...headers }, body: '[]' })

describe('pageOf', () => {
  test.each([
    ['no paging headers', {}, undefined],
    ['a Link with rel="next" among others', { link: '</v1/categories?page=1>; rel="first", </v1/categories?page=2>; rel="next"' }, 'Link: </v1/categories?page=2>; rel="next"'],
    ['a Link with next among several relations, unquoted', { link: '<https://x/c?p=2>; rel=next' }, 'Link: <https://x/c?p=2>; rel=next'],
    ['a Link with no next page', { link: '</v1/categories?page=1>; rel="first"' }, undefined],
    ['X-Total-Count above the records held', { 'x-total-count': '33' }, 'x-total-count: 33, above the 20 records it holds'],
    ['a total equal to the records held', { total: '20' }, undefined],
    ['a total that is no number', { total: 'many' }, undefined],
  ])('%s', (_, headers, expected) => {
    expect(pageOf(list(headers), 20)).toBe(expected)
  })
})

describe('withPageSaid', () => {
  const missing = new ConformanceFailure({ code: 'MISSING_FROM_LIST', message: 'created category 21 ("x") is missing from the list that followed', expected: '', actual: '' }, [])
  test('a created record missing from a list that says it is one page: the page named', () => {
    const said = withPageSaid(missing, list({ link: '<?page=2>; rel="next"' }), 20) as ConformanceFailure
    expect(said.code).toBe('MISSING_FROM_LIST')
    expect(said.message).toMatch(/; the list answered one page of a paged list \(Link: <\?page=2>; rel="next"\), where §8 returns all categories in one array/)
  })
  test('other failures and lists that say nothing of paging are left as they are', () => {
    expect(withPageSaid(missing, list({}), 20)).toBe(missing)
    const other = new ConformanceFailure({ code: 'LISTED_FIELD_CHANGED', message: 'm', expected: '', actual: '' }, [])
    expect(withPageSaid(other, list({ link: '<?page=2>; rel="next"' }), 20)).toBe(other)
  })
  // measured by stackhunt12: one DynamoDB Scan call's page (no LastEvaluatedKey loop), the run's creates among those past it
  test('a created record missing from a list of about 1 MB that says nothing of paging: a cut at a size in bytes, as one DynamoDB call gives', () => {
    const page = makeResponse({ body: Array.from({ length: 373 }, (_, i) => ({ id: i, name: `seed-${i}`, description: 'x'.repeat(2700) })) })
    const said = withPageSaid(missing, page, 373) as ConformanceFailure
    expect(said.code).toBe('MISSING_FROM_LIST')
    expect(said.message).toMatch(/followed; the list is about 1 MB of JSON \(1\.0\d MB\), one DynamoDB call's page\? a list cut at a size in bytes, as a DynamoDB Scan or Query call returns at most 1 MB .*paginateScan\)$/)
    const small = makeResponse({ body: Array.from({ length: 373 }, (_, i) => ({ id: i, name: `seed-${i}` })) })
    expect(withPageSaid(missing, small, 373)).toBe(missing)
  })
})

// measured (stackhunt11): Flask over SQLite, ORDER BY id LIMIT 1000, with 990 records: the run's newest creates never listed, and no header said why
describe('cutOf: a list that says nothing of paging, cut at a round size', () => {
  const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i)
  test.each([
    ['1000 listed, every missing one newer', ids(1, 1000), [1001, 1012], 'it holds 1000 records, a round number, and lacks only records newer than every one it holds: a list cut at 1000 (a LIMIT, a default page size) with no header that says so'],
    ['50 listed in another order, every missing one newer', ids(1, 50).reverse(), [51], expect.stringMatching(/^it holds 50 records/)],
    ['a size no default has', ids(1, 47), [48], undefined],
    ['a missing record older than one listed (a lag, a replica)', ids(1, 100), [99.5, 101], undefined],
    ['a missing record within the ids listed', [1, 2, 3, 4, 5, 6, 7, 8, 9, 11], [10], undefined],
    ['nothing missing', ids(1, 20), [], undefined],
    ['ids that are no integers', ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'], [11], undefined],
  ])('%s', (_, listed, missing, expected) => {
    expect(cutOf(listed, missing)).toEqual(expected)
  })
  // review52: a copy kept from before the creates, and a list behind the writes, lack only newer records too
  test('no cut is named where the list holds none of the created records, or grew from read to read', () => {
    expect(cutOf(ids(1, 50), [51, 52], [51, 52])).toBeUndefined()
    expect(cutOf(ids(1, 50), [51, 52], [49, 50, 51, 52], [48, 50])).toBeUndefined()
    expect(cutOf(ids(1, 50), [51, 52], [49, 50, 51, 52], [50, 50])).toMatch(/^it holds 50 records/)
  })
  test('withPageSaid says it where the headers say nothing', () => {
    const missing = new ConformanceFailure({ code: 'MISSING_FROM_LIST', message: 'created category 1012 ("x") is missing from the list', expected: '', actual: '' }, [])
    const said = withPageSaid(missing, list({}), 1000, cutOf(ids(1, 1000), [1012])) as ConformanceFailure
    expect(said.message).toMatch(/; the list answered one page of a paged list \(it holds 1000 records, a round number, .*\), where §8 returns all categories in one array/)
    expect(withPageSaid(missing, list({}), 1000)).toBe(missing)
  })
})
