/**
 * lib/http/redact.ts: a key echoed back inside a JSON string, as the encoders of real services
 * write it, is hidden as surely as the key itself (a key from base64 carries + / =).
 */
import { describe, expect, test } from 'vitest'
import { createRedactor, longestForm, REDACTED } from '../../lib/http/redact.ts'

const KEY = 'sk_live_Review+Key/123=='

describe('createRedactor on a key echoed inside JSON', () => {
  test.each([
    ["PHP's json_encode (\\/)", 'sk_live_Review+Key\\/123=='],
    [".NET's System.Text.Json (\\u002B)", 'sk_live_Review\\u002BKey/123=='],
    ['Gson (\\u003d, lower-case hex)', 'sk_live_Review+Key/123\\u003d\\u003d'],
    ['every character but letters and digits escaped, upper-case hex', 'sk\\u005Flive\\u005FReview\\u002BKey\\u002F123\\u003D\\u003D'],
  ])('%s', (_label, echoed) => {
    const redact = createRedactor(KEY)
    const body = `{"message":"key ${echoed} is not valid"}`
    expect(redact(body)).toBe(`{"message":"key ${REDACTED} is not valid"}`)
    expect(longestForm(KEY)).toBeGreaterThanOrEqual(echoed.length)
  })

  test('the near-misses the suite sends are hidden in their escaped forms too', () => {
    const withoutLast = KEY.slice(0, -1).replace('/', '\\/')
    expect(createRedactor(KEY)(`"${withoutLast}"`)).toBe(`"${REDACTED}"`)
  })

  test('a key of letters and digits only, and text that merely resembles an escape, are unaffected', () => {
    expect(createRedactor('abcDEF123456')('x abcDEF123456 y')).toBe(`x ${REDACTED} y`)
    expect(createRedactor(KEY)('sk_live_Review+Key\\/124==')).toBe('sk_live_Review+Key\\/124==')
  })
})
