/** suites/categories/cached-list.ts: what a list's headers say of a cache in front, added to a created record missing from it. */
import { describe, expect, test } from 'vitest'
import { ConformanceFailure } from '../../lib/checks/failure.ts'
import { cacheOf as cacheOfHeaders } from '../../lib/checks/cache-headers.ts'
import { withCacheSaid } from '../../suites/categories/cached-list.ts'
import { makeResponse } from './make-response.ts'

const list = (headers: Record<string, string>) => makeResponse({ headers: { 'content-type': 'application/json', ...headers }, body: '[]' })

describe('cacheOf', () => {
  test.each([
    ['no cache headers', {}, undefined],
    // measured (stackhunt11): a Node gateway keeping the list 30 s, as a CDN does under the origin's Cache-Control
    ["a CDN's hit under public, max-age", { age: '12', 'x-cache': 'HIT', 'cache-control': 'public, max-age=30' }, 'Age: 12; x-cache: HIT; Cache-Control: public, max-age=30, which lets a cache keep it 30 s'],
    ["Cloudflare's HIT alone", { 'cf-cache-status': 'HIT' }, 'cf-cache-status: HIT'],
    ["Fastly's X-Cache of two hops", { 'x-cache': 'MISS, HIT' }, 'x-cache: MISS, HIT'],
    ['s-maxage without public', { 'cache-control': 's-maxage=60' }, 'Cache-Control: s-maxage=60, which lets a cache keep it 60 s'],
    ['a miss, Age 0, and a private max-age', { age: '0', 'x-cache': 'MISS', 'cache-control': 'private, max-age=60' }, undefined],
    ['no-store and no-cache', { 'cache-control': 'public, no-store, max-age=60' }, undefined],
    ['max-age without public (a browser may keep it, not a cache in front)', { 'cache-control': 'max-age=60' }, undefined],
    ['max-age=0', { 'cache-control': 'public, max-age=0' }, undefined],
  ])('%s', (_, headers, expected) => {
    expect(cacheOfHeaders(list(headers).exchange.response!.headers)).toBe(expected)
  })
})

describe('withCacheSaid', () => {
  const missing = new ConformanceFailure({ code: 'MISSING_FROM_LIST', message: 'created category 29 ("x") is missing from the list that followed after 5000 ms of re-reads (--list-lag 5000)', expected: '', actual: '' }, [])
  test('a created record missing from a list a cache answered: the cache named, and how to keep the list out of it', () => {
    const said = withCacheSaid(missing, list({ age: '4', 'x-cache': 'HIT', 'cache-control': 'public, max-age=30' })) as ConformanceFailure
    expect(said.code).toBe('MISSING_FROM_LIST')
    expect(said.message).toMatch(/\(--list-lag 5000\); the list says a cache answered it or may keep it \(Age: 4; x-cache: HIT; Cache-Control: public, max-age=30, which lets a cache keep it 30 s\): a cache in front .* no create clears .*Cache-Control: no-store/)
  })
  // review52: the origin's own answer, which holds the run's creates, is no cache's copy
  test('a list that says only a shared Cache-Control and holds a created record: no cache named; with an Age, named', () => {
    expect(withCacheSaid(missing, list({ 'cache-control': 'public, max-age=30' }), true)).toBe(missing)
    expect((withCacheSaid(missing, list({ 'cache-control': 'public, max-age=30' }), false) as ConformanceFailure).message).toContain('a cache in front')
    expect((withCacheSaid(missing, list({ age: '4', 'cache-control': 'public, max-age=30' }), true) as ConformanceFailure).message).toContain('a cache in front')
  })
  test('other failures and lists that say nothing of a cache are left as they are', () => {
    expect(withCacheSaid(missing, list({}))).toBe(missing)
    const other = new ConformanceFailure({ code: 'LISTED_FIELD_CHANGED', message: 'm', expected: '', actual: '' }, [])
    expect(withCacheSaid(other, list({ age: '4' }))).toBe(other)
  })
})
