/**
 * lib/checks/response.ts, schema.ts and error-record.ts on built responses: each case is a response
 * a server could send and the verdict the check must give, with the failure code when it fails.
 * Conforming cases come from the freedoms the document leaves (media type parameters, extra
 * properties, int64 ids past 2^53); failing ones from the ways real services go wrong.
 */
import { describe, expect, test } from 'vitest'
import { expectErrorRecord, expectErrorStatusMatches, expectStatusOfAnyErrorRecordMatches } from '../../lib/checks/error-record.ts'
import { expectJsonContentType, expectStatus, jsonBodyOf, requireStatus } from '../../lib/checks/response.ts'
import { conformingBody, expectSchema } from '../../lib/checks/schema.ts'
import { makeResponse, makeTransportError, outcomeOf, verdictOf } from './make-response.ts'

const json = (contentType: string) => ({ 'content-type': contentType })

describe('expectStatus', () => {
  test.each([
    [201, 201, 'pass'],
    [200, 201, 'UNEXPECTED_STATUS'],
    [401, 400, 'UNEXPECTED_STATUS'],
    [301, 200, 'UNEXPECTED_STATUS'],
    [500, 201, 'SERVER_ERROR'],
    [502, 400, 'SERVER_ERROR'],
    [503, 401, 'SERVER_ERROR'],
    [599, 200, 'SERVER_ERROR'],
  ] as const)('answered %i, expected %i → %s', (status, expected, outcome) => {
    expect(outcomeOf(() => expectStatus(makeResponse({ status }), expected))).toBe(outcome)
  })

  test('a redirect names its Location, which is never followed', () => {
    const verdict = verdictOf(() => expectStatus(makeResponse({ status: 301, headers: { location: '/v1/categories/' } }), 200))
    expect(verdict).toMatchObject({ code: 'UNEXPECTED_STATUS', message: expect.stringContaining('redirecting to /v1/categories/') })
  })

  test('a 503 with Retry-After, once the resends are spent, stays UNEXPECTED_STATUS (a declared pause, not a fault)', () => {
    expect(outcomeOf(() => expectStatus(makeResponse({ status: 503, headers: { 'retry-after': '1' } }), 201))).toBe('UNEXPECTED_STATUS')
  })

  test.each([600, 999])('answered %i: no HTTP status (RFC 9110 §15: 100 to 599), named a protocol fault of the server, never a server fault it reports', (status) => {
    const verdict = verdictOf(() => expectStatus(makeResponse({ status }), 201))
    expect(verdict).toEqual(expect.objectContaining({ code: 'UNEXPECTED_STATUS', message: `GET answered ${status} (no HTTP status: RFC 9110 §15 defines 100 to 599, so a protocol fault of the server, which the document gives no request), expected 201` }))
  })

  test('no response at all is NO_RESPONSE, naming the transport error', () => {
    const verdict = verdictOf(() => expectStatus(makeTransportError('CONNECTION_RESET'), 200))
    expect(verdict).toMatchObject({ code: 'NO_RESPONSE' })
  })
})

describe('requireStatus', () => {
  test('another status makes the check not applicable (another rule reports the status)', () => {
    expect(outcomeOf(() => requireStatus(makeResponse({ status: 500 }), [400, 401], 'x'))).toBe('not-applicable')
    expect(outcomeOf(() => requireStatus(makeResponse({ status: 401 }), [400, 401], 'x'))).toBe('pass')
  })
})

describe('expectJsonContentType (§4: all payloads are JSON)', () => {
  test.each([
    ['application/json', 'pass'],
    ['application/json; charset=utf-8', 'pass'],
    ['Application/JSON;charset=UTF-8', 'pass'],
    ['  application/json  ; charset="utf-8"', 'pass'],
    ['text/plain', 'WRONG_CONTENT_TYPE'],
    ['application/problem+json', 'WRONG_CONTENT_TYPE'],
    ['application/jsonx', 'WRONG_CONTENT_TYPE'],
    ['', 'WRONG_CONTENT_TYPE'],
    // two field lines, as the client records them joined (a JDK HttpServer service's Headers.add): every one must say application/json
    ['application/json, application/json', 'pass'],
    ['application/json; charset=utf-8, application/json', 'pass'],
    ['application/json; profile="a,b"', 'pass'],
    ['application/json; charset=utf-8, text/plain; charset=utf-8', 'WRONG_CONTENT_TYPE'],
    ['application/json, text/plain', 'WRONG_CONTENT_TYPE'],
    ['text/plain, application/json', 'WRONG_CONTENT_TYPE'],
  ] as const)('Content-Type %j → %s', (contentType, outcome) => {
    expect(outcomeOf(() => expectJsonContentType(makeResponse({ headers: json(contentType), body: '[]' })))).toBe(outcome)
  })

  test('application/json and another type in two field lines says so, and names Headers.add', () => {
    const message = verdictOf(() => expectJsonContentType(makeResponse({ headers: json('application/json; charset=utf-8, text/plain; charset=utf-8'), body: '[]' })))
    expect(JSON.stringify(message)).toContain('declared application/json and text/plain, not application/json alone')
    expect(JSON.stringify(message)).toContain("the JDK HttpServer's Headers.add")
  })

  test('no Content-Type header at all fails, and says so', () => {
    const verdict = verdictOf(() => expectJsonContentType(makeResponse({ headers: {}, body: '[]' })))
    expect(verdict).toMatchObject({ code: 'WRONG_CONTENT_TYPE' })
    expect(JSON.stringify(verdict)).toContain('response is not declared as application/json')
  })
})

describe('jsonBodyOf', () => {
  test.each([
    ['[]', 'pass'],
    ['  {"id": 1}\n', 'pass'],
    ['', 'NOT_JSON'],
    ['{"id": 1', 'NOT_JSON'],
    ["{'id': 1}", 'NOT_JSON'],
    ['{"id": 1,}', 'NOT_JSON'],
    ['[1] [2]', 'NOT_JSON'],
    ['<html>Bad Gateway</html>', 'NOT_JSON'],
  ] as const)('body %j → %s', (body, outcome) => {
    expect(outcomeOf(() => jsonBodyOf(makeResponse({ body })))).toBe(outcome)
  })
})

describe('expectSchema (Category, CategoryList, Error of spec/openapi.yaml)', () => {
  const category = (record: unknown) => outcomeOf(() => expectSchema(makeResponse({ status: 201, body: record }), 'Category'))

  test.each([
    ['name and id', { id: 1, name: 'dog' }, 'pass'],
    ['a description too', { id: 1, name: 'dog', description: 'barks' }, 'pass'],
    ['extra properties', { id: 1, name: 'dog', createdAt: '2026-01-01', tags: [] }, 'pass'],
    ['a negative id', { id: -5, name: 'dog' }, 'pass'],
    ['id as a string', { id: '1', name: 'dog' }, 'SCHEMA_MISMATCH'],
    ['a fractional id', { id: 1.5, name: 'dog' }, 'SCHEMA_MISMATCH'],
    ['no id', { name: 'dog' }, 'SCHEMA_MISMATCH'],
    ['no name', { id: 1 }, 'SCHEMA_MISMATCH'],
    ['name null', { id: 1, name: null }, 'SCHEMA_MISMATCH'],
    ['description null', { id: 1, name: 'dog', description: null }, 'SCHEMA_MISMATCH'],
    ['an array', [{ id: 1, name: 'dog' }], 'SCHEMA_MISMATCH'],
  ].map(([label, record, outcome]) => ({ label, record, outcome })))('$label → $outcome', ({ record, outcome }) => {
    expect(category(record)).toBe(outcome)
  })

  // JSON.parse would round these; the check reads the literal text
  test.each([
    ['2^53 + 1', '9007199254740993', 'pass'],
    ['int64 max', '9223372036854775807', 'pass'],
    ['int64 min', '-9223372036854775808', 'pass'],
    ['int64 max + 1', '9223372036854775808', 'SCHEMA_MISMATCH'],
    ['int64 min - 1', '-9223372036854775809', 'SCHEMA_MISMATCH'],
    ['an exponent form integer', '1E2', 'pass'],
    ['an exponent form past int64', '1e19', 'SCHEMA_MISMATCH'],
    ['100.000', '100.000', 'pass'],
    ['2^53 + 0.5', '9007199254740992.5', 'SCHEMA_MISMATCH'],
  ])('id %s (%s) → %s', (_label, literal, outcome) => {
    expect(outcomeOf(() => expectSchema(makeResponse({ body: `{"id": ${literal}, "name": "dog"}` }), 'Category'))).toBe(outcome)
  })

  test('a list is an array of Category records; one bad element fails it and says where', () => {
    const body = '[{"id": 1, "name": "a"}, {"id": 2, "name": "b", "description": null}]'
    const verdict = verdictOf(() => expectSchema(makeResponse({ body }), 'CategoryList', 'an array of Category records'))
    expect(verdict).toMatchObject({ code: 'SCHEMA_MISMATCH', message: expect.stringContaining('body[1].description') })
    expect(outcomeOf(() => expectSchema(makeResponse({ body: '[]' }), 'CategoryList'))).toBe('pass')
    expect(outcomeOf(() => expectSchema(makeResponse({ body: '{"items": []}' }), 'CategoryList'))).toBe('SCHEMA_MISMATCH')
  })

  test('a body that is not JSON fails as NOT_JSON, not as a shape', () => {
    expect(outcomeOf(() => expectSchema(makeResponse({ body: 'oops' }), 'Category'))).toBe('NOT_JSON')
  })

  test('conformingBody: a body of the wrong shape is not applicable to other rules, never their failure', () => {
    expect(outcomeOf(() => conformingBody(makeResponse({ body: '{"id": "1"}' }), 'Category', 'create-returns-category'))).toBe('not-applicable')
    expect(outcomeOf(() => conformingBody(makeResponse({ body: 'oops' }), 'Category', 'create-returns-category'))).toBe('not-applicable')
  })
})

describe('Error records (§7, §2)', () => {
  const error = (status: number, body: unknown) => makeResponse({ status, body })

  test.each([
    ['the record', 401, { code: 'unauthorized', message: 'no key', status: 401 }, 'pass'],
    ['extra properties', 400, { code: 'invalid', message: 'm', status: 400, details: [{ field: 'name' }], traceId: 'x' }, 'pass'],
    ['no status', 401, { code: 'unauthorized', message: 'no key' }, 'SCHEMA_MISMATCH'],
    ['status as a string', 401, { code: 'unauthorized', message: 'no key', status: '401' }, 'SCHEMA_MISMATCH'],
    ['code as a number', 400, { code: 40001, message: 'm', status: 400 }, 'SCHEMA_MISMATCH'],
    ['problem details', 400, { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'm' }, 'SCHEMA_MISMATCH'],
    ['an empty body', 401, '', 'NOT_JSON'],
  ].map(([label, status, body, outcome]) => ({ label, status, body, outcome })))('expectErrorRecord: $label → $outcome', ({ status, body, outcome }) => {
    expect(outcomeOf(() => expectErrorRecord(error(status as number, body)))).toBe(outcome)
  })

  test('expectErrorRecord judges the documented statuses, 400 and 401, and the refusals only the service gives, 409 and 422; not what a front answers with a body of its own', () => {
    expect(outcomeOf(() => expectErrorRecord(error(404, 'not found')))).toBe('not-applicable')
    expect(outcomeOf(() => expectErrorRecord(error(500, '')))).toBe('not-applicable')
    // §7: all error responses carry the Error record; a 409 or a 422 is the service's own
    expect(outcomeOf(() => expectErrorRecord(error(409, { code: 'conflict', message: 'm', status: 409 })))).toBe('pass')
    expect(outcomeOf(() => expectErrorRecord(error(422, { code: 'taken', message: 'm', status: 422 })))).toBe('pass')
    const fastApi = verdictOf(() => expectErrorRecord(error(409, { detail: 'Category already exists' })))
    expect(fastApi).toMatchObject({ code: 'SCHEMA_MISMATCH' })
    expect('code' in fastApi ? fastApi.message : '').toMatch(/^the body is not an Error record \(code, message, status\), which §7 asks of all error responses, a 409 too: .*FastAPI's for an HTTPException/)
    const validation = verdictOf(() => expectErrorRecord(error(422, { detail: [{ loc: ['body', 'name'], msg: 'field required', type: 'value_error.missing' }] })))
    expect('code' in validation ? validation.message : '').toMatch(/a 422 too: .*FastAPI answers for a RequestValidationError/)
    expect(outcomeOf(() => expectErrorRecord(error(422, { error: 'taken' })))).toBe('SCHEMA_MISMATCH')
    expect(outcomeOf(() => expectErrorRecord(error(409, 'Conflict')))).toBe('NOT_JSON')
    // nginx's 413 and 414 pages, a gateway's 429, 502, 503 and 504, a router's 404 and 405, a WAF's 403, API Gateway's 415: not judged
    for (const status of [403, 404, 405, 408, 413, 414, 415, 429, 431, 502, 503, 504]) {
      expect(outcomeOf(() => expectErrorRecord(error(status, '<html><center><h1>nginx</h1></center></html>'))), String(status)).toBe('not-applicable')
    }
  })

  test.each([
    [401, { code: 'c', message: 'm', status: 401 }, 'pass'],
    [401, { code: 'c', message: 'm', status: 400 }, 'ERROR_STATUS_MISMATCH'],
    [400, { code: 'c', message: 'm', status: 40001 }, 'ERROR_STATUS_MISMATCH'],
    // the shape is error-body-is-error-record's to judge
    [401, { code: 'c', message: 'm', status: '401' }, 'not-applicable'],
    [401, { code: 'c', message: 'm' }, 'not-applicable'],
    [401, 'not json', 'not-applicable'],
  ] as const)('expectErrorStatusMatches: %i with %j → %s', (status, body, outcome) => {
    expect(outcomeOf(() => expectErrorStatusMatches(error(status, body)))).toBe(outcome)
  })

  // a status §7 does not show: only what an Error record in it says is judged (§2), any other body holds
  test.each([
    [409, { code: 'conflict', message: 'm', status: 409 }, 'pass'],
    [409, { code: 'invalid_request', message: 'm', status: 400 }, 'ERROR_STATUS_MISMATCH'],
    [413, { code: 'invalid_json', message: 'm', status: 400 }, 'ERROR_STATUS_MISMATCH'],
    [422, { code: 'taken', message: 'm', status: 422, errors: {} }, 'pass'],
    [413, 'Payload Too Large', 'pass'],
    [429, { message: 'Too Many Requests' }, 'pass'],
    [409, { status: 409, error: 'Conflict' }, 'pass'],
    [409, { code: 'c', message: 'm', status: '400' }, 'pass'],
    [413, { type: 'about:blank', title: 'Payload Too Large', status: 400 }, 'pass'],
  ] as const)('expectStatusOfAnyErrorRecordMatches: %i with %j → %s', (status, body, outcome) => {
    expect(outcomeOf(() => expectStatusOfAnyErrorRecordMatches(error(status, body)))).toBe(outcome)
  })
})
