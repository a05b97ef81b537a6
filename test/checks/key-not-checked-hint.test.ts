/**
 * lib/checks/unauthenticated.ts keyNotCheckedHint: a cache in front is named for requests without a
 * valid key served only where such an answer says a cache gave it (Age, a HIT): an origin with no
 * authentication that marks its list Cache-Control: public, max-age answers them itself, and a HIT
 * on the request with the key says nothing of those without it.
 */
import { describe, expect, test } from 'vitest'
import { keyNotCheckedHint } from '../../lib/checks/unauthenticated.ts'
import { makeResponse } from './make-response.ts'

const served = (headers: Record<string, string>, requestHeaders: Record<string, string> = {}) =>
  makeResponse({ headers: { 'content-type': 'application/json', ...headers }, body: '[]', requestHeaders }).exchange
const keyed = { authorization: 'Bearer $CONFORM_API_KEY' }

describe('keyNotCheckedHint', () => {
  test("a CDN's HIT on the answer without a key names the cache", () => {
    expect(keyNotCheckedHint([served({ age: '3', 'x-cache': 'HIT', 'cache-control': 'public, max-age=60' })])).toMatch(/^a cache in front answered them \(Age: 3; x-cache: HIT; Cache-Control: public/)
  })
  test('an origin with no authentication whose list says Cache-Control: public, max-age, and no Age or HIT: the route, not a cache', () => {
    expect(keyNotCheckedHint([served({ 'cache-control': 'public, max-age=60' })])).toMatch(/^is authentication mounted on every route\?/)
  })
  test('a HIT on the request with the key alone says nothing of those without it', () => {
    const hint = keyNotCheckedHint([served({ 'x-cache': 'MISS' }), served({ age: '5', 'x-cache': 'HIT' }, keyed)])
    expect(hint).toMatch(/^is authentication mounted on every route\?/)
  })
})
