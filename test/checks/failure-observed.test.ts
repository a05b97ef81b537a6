/**
 * What a failure says it observed (FailureDetail.observed), which a baseline entry records and
 * compares (lib/result/baseline.ts): the same for the same wrong answer whatever the run generated
 * (ids, names, a list's order, a multipart boundary, a parser's position), and different for a
 * different wrong answer under the same code.
 */
import { describe, expect, test } from 'vitest'
import { expectErrorStatusMatches } from '../../lib/checks/error-record.ts'
import { expectEchoedFields } from '../../lib/checks/category.ts'
import { ConformanceFailure } from '../../lib/checks/failure.ts'
import { expectJsonContentType, expectStatus, jsonBodyOf } from '../../lib/checks/response.ts'
import { expectSchema, problemShape } from '../../lib/checks/schema.ts'
import type { HttpResult } from '../../lib/http/client.ts'
import { makeResponse } from './make-response.ts'

/** The failure's observed, or 'pass'. */
function observedOf(check: () => unknown): string | undefined {
  try {
    check()
    return 'pass'
  } catch (error) {
    if (error instanceof ConformanceFailure) return error.detail().observed
    throw error
  }
}

describe('observed: one wrong answer, one summary; nothing the run generated', () => {
  test('a status: the code alone, not where a redirect points', () => {
    expect(observedOf(() => expectStatus(makeResponse({ status: 200, method: 'POST' }), 201))).toBe('status 200')
    expect(observedOf(() => expectStatus(makeResponse({ status: 404, method: 'POST' }), 201))).toBe('status 404')
    expect(observedOf(() => expectStatus(makeResponse({ status: 500, method: 'POST' }), 201))).toBe('status 500')
    const redirect = (id: number) => observedOf(() => expectStatus(makeResponse({ status: 303, method: 'POST', headers: { location: `/v1/categories/${id}` } }), 201))
    expect(redirect(17)).toBe('status 303')
    expect(redirect(9001)).toBe(redirect(17))
  })

  test('a media type: without its parameters', () => {
    const typed = (type?: string) => observedOf(() => expectJsonContentType(makeResponse({ headers: type === undefined ? {} : { 'content-type': type } })))
    expect(typed('text/html; charset=utf-8')).toBe('Content-Type: text/html')
    expect(typed('multipart/mixed; boundary=a1')).toBe(typed('multipart/mixed; boundary=zz9'))
    expect(typed(undefined)).toBe('no media type')
  })

  test('text that is not JSON: its kind, not the parser position', () => {
    const body = (result: HttpResult) => observedOf(() => jsonBodyOf(result))
    expect(body(makeResponse({ body: '' }))).toBe('an empty body')
    expect(body(makeResponse({ body: '{"name": "cf-abcde-dog"' }))).toBe(body(makeResponse({ body: '{"name": "cf-zz-a very much longer name"' })))
    expect(body(makeResponse({ body: '<html>' }))).toBe('text that is not JSON')
    expect(body({ ...makeResponse({ body: '[]' }), byteOrderMark: true })).toBe('a byte order mark')
  })

  test('a body of another shape: its first problem, without list index or the number an id holds', () => {
    const list = (records: unknown[]) => observedOf(() => expectSchema(makeResponse({ body: records }), 'CategoryList'))
    expect(list([{ id: 1, name: 'dog' }, { id: '2', name: 'cat' }])).toBe('body[].id must be integer')
    expect(list([{ id: '7', name: 'x' }])).toBe(list([{ id: 1, name: 'a' }, { id: 2, name: 'b' }, { id: '3', name: 'c' }]))
    expect(list([{ id: 1 }])).toBe('body[] lacks required property "name"')
    // records wrong in two ways: the same whatever order the service lists them in
    const twoWays = [{ id: '2', name: 'cat' }, { name: 'dog' }]
    expect(list(twoWays)).toBe(list([...twoWays].reverse()))
    const fraction = (literal: string) => observedOf(() => expectSchema(makeResponse({ status: 201, body: `{"id": ${literal}, "name": "dog"}` }), 'Category'))
    expect(fraction('1732112345.5')).toBe(fraction('17.5'))
    expect(fraction('17.5')).not.toMatch(/17/)
    expect(problemShape('body[12].id must be an int64 (from -2^63 to 2^63-1), got 9223372036854775808')).toBe('body[].id must be an int64 (from -2^63 to 2^63-1)')
  })

  test('a field changed: which one, and whether it came back at all, not its values', () => {
    const echoed = (record: unknown) => observedOf(() => expectEchoedFields({ name: 'cf-abcde-dog', description: 'd' }, makeResponse({ status: 201, body: record })))
    expect(echoed({ id: 1, name: 'cf-abcde-do', description: 'd' })).toBe('"name" changed')
    expect(echoed({ id: 1, name: 'cf-abcde-dog' })).toBe('no "description"')
  })

  test("an Error record's status: the value it says, and the response's", () => {
    expect(observedOf(() => expectErrorStatusMatches(makeResponse({ status: 400, body: { code: 'bad', message: 'm', status: 500 } })))).toBe('"status": 500 in a 400')
  })
})
