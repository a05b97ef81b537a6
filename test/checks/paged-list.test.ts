/** suites/categories/paged-list.ts: what a list's headers say of paging, added to a created record missing from it. */
import { describe, expect, test } from 'vitest'
import { ConformanceFailure } from '../../lib/checks/failure.ts'
import { pageOf, withPageSaid } from '../../suites/categories/paged-list.ts'
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
})
