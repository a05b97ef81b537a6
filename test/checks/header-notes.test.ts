/** lib/checks/headers.ts: the advisory notes return text, never fail, and stay quiet when conforming. */
import { describe, expect, test } from 'vitest'
import { deprecationNote, wwwAuthenticateNote } from '../../lib/checks/headers.ts'
import { makeResponse } from './make-response.ts'

describe('wwwAuthenticateNote (RFC 9110 §11.6.1, RFC 6750 §3)', () => {
  test.each([
    ['Bearer', undefined],
    ['bearer realm="petstore", error="invalid_token"', undefined],
    ['Basic realm="x", Bearer', undefined],
    ['Basic realm="x"', 'does not name the Bearer scheme'],
    [undefined, 'without a WWW-Authenticate header'],
  ])('401 with WWW-Authenticate %j → %s', (header, note) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (header !== undefined) headers['www-authenticate'] = header
    const result = wwwAuthenticateNote(makeResponse({ status: 401, headers }))
    if (note === undefined) expect(result).toBeUndefined()
    else expect(result).toContain(note)
  })

  test("the service's header, renamed by AWS API Gateway (a REST API's proxy integration): said so, not as a 401 without one", () => {
    const headers = { 'content-type': 'application/json', 'x-amzn-remapped-www-authenticate': 'Bearer realm="petstore"', 'x-amzn-requestid': 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef' }
    const note = wwwAuthenticateNote(makeResponse({ status: 401, headers }))
    expect(note).toMatch(/^401 whose WWW-Authenticate \(Bearer realm="petstore"\) AWS API Gateway renamed x-amzn-Remapped-WWW-Authenticate/)
    expect(note).not.toContain('without a WWW-Authenticate header')
  })

  test('other statuses get no note', () => {
    expect(wwwAuthenticateNote(makeResponse({ status: 200 }))).toBeUndefined()
  })
})

describe('deprecationNote (RFC 9745, RFC 8594)', () => {
  test.each([
    [{ deprecation: '@1735689600', sunset: 'Wed, 31 Dec 2025 23:59:59 GMT' }, undefined],
    [{ sunset: 'Wed, 31 Dec 2025 23:59:59 GMT' }, 'no Deprecation header'],
    [{ deprecation: 'true' }, 'no Sunset header'],
    [{}, 'no Deprecation or Sunset header'],
  ])('headers %j → %s', (headers, note) => {
    const result = deprecationNote(makeResponse({ status: 200, headers, path: '/pets/1' }))
    if (note === undefined) expect(result).toBeUndefined()
    else expect(result).toContain(note)
  })
})
