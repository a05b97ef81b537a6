/** The service's cookies: never shown in the evidence, sent back once as a browser would (lib/http/cookies.ts); and an answer's headers as the evidence shows them. */
import { describe, expect, test } from 'vitest'
import { cookieHeaderOf, evidenceHeaders, hideCookieValues } from '../../lib/http/cookies.ts'
import { createRedactor } from '../../lib/http/redact.ts'

test('Set-Cookie values are hidden, names and attributes kept, an Expires date not taken for a cookie', () => {
  expect(hideCookieValues('SESSION=abc123; Path=/; HttpOnly')).toBe('SESSION=(not shown); Path=/; HttpOnly')
  // two cookies as the client joins them, one with an Expires date that holds ", "
  expect(hideCookieValues('a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/, JSESSIONID=s3cr3t=x; Secure')).toBe(
    'a=(not shown); Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/, JSESSIONID=(not shown); Secure',
  )
})

test('a cookie without a name (RFC 6265bis §5.6: no "=", or nothing before it) and one with a space before "=" are hidden too', () => {
  expect(hideCookieValues('s3cr3tSessionValue; Path=/; HttpOnly')).toBe('(not shown); Path=/; HttpOnly')
  expect(hideCookieValues('=s3cr3tSessionValue; Path=/')).toBe('=(not shown); Path=/')
  expect(hideCookieValues('sid =s3cr3tSessionValue; Path=/')).toBe('sid=(not shown); Path=/')
  expect(hideCookieValues('a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT, s3cr3tSessionValue; Secure')).toBe('a=(not shown); Expires=Wed, 21 Oct 2026 07:28:00 GMT, (not shown); Secure')
})

test('the Cookie header sends back each name=value pair, and nothing when no cookie was set', () => {
  expect(cookieHeaderOf(['SESSION=abc; Path=/', 'lb=node-2; Expires=Wed, 21 Oct 2026 07:28:00 GMT'])).toBe('SESSION=abc; lb=node-2')
  expect(cookieHeaderOf('only=one; HttpOnly')).toBe('only=one')
  expect(cookieHeaderOf(undefined)).toBeUndefined()
  expect(cookieHeaderOf(['no pair here'])).toBeUndefined()
})

describe('a key split over two headers in a row', () => {
  const key = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc'
  test.each([3, 9, 12, 20, 28])('cut after %i characters, neither piece is shown (the first, too short alone, stood)', (cut) => {
    const shown = evidenceHeaders({ 'content-type': 'application/json', 'x-a': `0${key.slice(0, cut)}`, 'x-b': key.slice(cut), date: 'Sat, 28 Nov 2026 05:48:38 GMT' }, createRedactor(key))
    const text = JSON.stringify(shown)
    for (let at = 0; at + 4 <= key.length; at++) expect(text).not.toContain(key.slice(at, at + 4))
    expect(shown['content-type']).toBe('application/json')
    expect(shown.date).toBe('Sat, 28 Nov 2026 05:48:38 GMT')
  })
  test('headers without the key are shown as they are', () => {
    const headers = { 'content-type': 'application/json', 'x-request-id': '3f2b8c1e-9a4d-4e6f', etag: 'W/"sk_live"', date: 'Sat, 28 Nov 2026 05:48:38 GMT' }
    expect(evidenceHeaders(headers, createRedactor(key))).toEqual(headers)
  })
  test.each([
    ['12345678', { 'content-length': '1234', 'x-total-count': '5678', 'x-page': '1' }],
    ['1234567890123456', { 'content-length': '12', 'x-count': '345678', 'x-page': '9012', 'x-per-page': '3456' }],
  ])('headers of counts in a row that glued read as a run of a key of digits (%s) are shown as they are', (digits, headers) => {
    expect(evidenceHeaders(headers, createRedactor(digits))).toEqual(headers)
  })
})
