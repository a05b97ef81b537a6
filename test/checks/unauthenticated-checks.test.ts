/**
 * lib/checks/unauthenticated.ts on built responses: GET /categories/ without a key may get any
 * answer the document leaves open, but never the category list itself.
 */
import { describe, expect, test } from 'vitest'
import { expectListNotServedWithoutKey, expectOperationNotServedWithoutKey } from '../../lib/checks/unauthenticated.ts'
import { makeResponse, makeTransportError, outcomeOf } from './make-response.ts'

const LIST = [{ id: 1, name: 'dog' }, { id: 2, name: 'cat', description: 'Cats.' }]
const ERROR = { code: 'unauthorized', message: 'no key', status: 401 }

describe('expectListNotServedWithoutKey', () => {
  test.each([
    ['401 with an Error record', { status: 401, body: ERROR }, 'pass'],
    ['404 in text/plain', { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not Found' }, 'pass'],
    ['a 308 redirect to /categories', { status: 308, headers: { location: '/v1/categories' }, body: '' }, 'pass'],
    ['200 with an HTML page', { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>docs</html>' }, 'pass'],
    ['200 with a JSON object (not the list)', { status: 200, body: { status: 'ok' } }, 'pass'],
    ['200 with the category list', { status: 200, body: LIST }, 'SERVED_WITHOUT_KEY'],
    ['200 with an empty array (no category shown: not judged)', { status: 200, body: [] }, 'not-applicable'],
    ['203 with the category list', { status: 203, body: LIST }, 'SERVED_WITHOUT_KEY'],
  ] as const)('%s → %s', (_label, built, outcome) => {
    expect(outcomeOf(() => expectListNotServedWithoutKey(makeResponse({ ...built, path: '/categories/' })))).toBe(outcome)
  })

  test('no response is not judged (the path is not one the document shows)', () => {
    expect(outcomeOf(() => expectListNotServedWithoutKey(makeTransportError()))).toBe('not-applicable')
  })

  test.each([
    ['an envelope of an older version', { items: LIST }, 'SERVED_WITHOUT_KEY'],
    ['the record nested in a page', { data: { page: 1, results: [{ id: 2, name: 'cat' }] } }, 'SERVED_WITHOUT_KEY'],
    ['an object that holds no record of that name', { items: [{ id: 1, name: 'dog' }] }, 'pass'],
    ['the name as a value of another field', { message: 'cat' }, 'pass'],
  ] as const)('a 200 holding the run\'s category "cat" in another shape: %s → %s', (_label, body, outcome) => {
    expect(outcomeOf(() => expectListNotServedWithoutKey(makeResponse({ status: 200, body, path: '/categories/' }), 'cat'))).toBe(outcome)
    // without the name of a category the run created, nothing but the list itself is recognised
    expect(outcomeOf(() => expectListNotServedWithoutKey(makeResponse({ status: 200, body, path: '/categories/' })))).toBe('pass')
  })
})

describe('expectOperationNotServedWithoutKey (a form of /pets/1 or /store/orders)', () => {
  test.each([
    ['401 with an Error record', { status: 401, body: ERROR }, 'pass'],
    ['404 with an Error record', { status: 404, body: { code: 'not_found', message: 'no route', status: 404 } }, 'pass'],
    ['403 from a WAF', { status: 403, headers: { 'content-type': 'text/html' }, body: '<html>blocked</html>' }, 'pass'],
    ['a 301 to the canonical path', { status: 301, headers: { location: '/v1/store/orders' }, body: '' }, 'pass'],
    ["200 with a single-page app's HTML", { status: 200, headers: { 'content-type': 'text/html' }, body: '<!doctype html><div id="app"></div>' }, 'pass'],
    ['200 with a JSON array (the orders, to anyone)', { status: 200, body: [] }, 'SERVED_WITHOUT_KEY'],
    ['200 with a JSON object (a pet, to anyone)', { status: 200, body: { id: 1, name: 'Rex' } }, 'SERVED_WITHOUT_KEY'],
  ] as const)('%s → %s', (_label, built, outcome) => {
    expect(outcomeOf(() => expectOperationNotServedWithoutKey(makeResponse({ ...built, path: '/STORE/ORDERS' }), 'GET /store/orders'))).toBe(outcome)
  })
})
