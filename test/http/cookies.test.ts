/** The service's cookies: never shown in the evidence, sent back once as a browser would (lib/http/cookies.ts). */
import { expect, test } from 'vitest'
import { cookieHeaderOf, hideCookieValues } from '../../lib/http/cookies.ts'

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
