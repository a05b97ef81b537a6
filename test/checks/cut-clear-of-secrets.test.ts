/**
 * A check quotes a server's text cut short (a record's name at 120 characters, a body's start at
 * 80, a schema problem at 300) before the reports redact it: a key the server echoed whole, and
 * the cut split, was hidden nowhere, as its forms are whole and a key of 8 to 11 characters has no
 * runs (lib/http/secret-runs.ts). The cut never keeps the start of a run of key characters that
 * goes on past it, so the redacted text shows no piece of the key wherever it stood.
 */
import { describe, expect, test } from 'vitest'
import { shownValue } from '../../lib/checks/category.ts'
import { ConformanceFailure } from '../../lib/checks/failure.ts'
import { jsonBodyOf } from '../../lib/checks/response.ts'
import { createRedactor, FRAGMENT_MIN_SECRET_LENGTH, fragmentLength } from '../../lib/http/redact.ts'
import { cutClearOfSecrets } from '../../lib/http/secret-runs.ts'
import { makeResponse } from './make-response.ts'

const KEYS = ['k3Y9-x7Qa2', 'sk_9fA2+b/Q', 'Zq8-Lm3+Wd7/Rt', 'cnry-3f9a1c0b77d2e4a5b6c7d8e9+/Z=']

/**
 * The pieces of `key` a text still shows, glued to the padding before it: its starts of 3 characters
 * or more, or, of a key of FRAGMENT_MIN_SECRET_LENGTH or more, as long as a run the reports hide
 * (a shorter piece of a long key is left, as docs/reports.md says: 10 of 33 leave 23 to guess).
 */
const piecesShown = (text: string, key: string) => {
  const shortest = key.length < FRAGMENT_MIN_SECRET_LENGTH ? 3 : fragmentLength(key)
  return Array.from({ length: key.length - shortest }, (_, i) => key.slice(0, i + shortest)).filter((start) => text.includes(`x${start}`) || text.includes(` ${start}`))
}

describe.each(KEYS)('a key of %#', (key) => {
  test(`${key.length} characters, echoed whole in a record's name at every place the 120-character cut can split it: no piece shown`, () => {
    const redact = createRedactor(key)
    for (let kept = 1; kept < key.length; kept++) expect(piecesShown(redact(shownValue(`${'x'.repeat(120 - kept)}${key}${'y'.repeat(40)}`)), key), `${kept} kept`).toEqual([])
  })

  test(`${key.length} characters, at the start of a body that is not JSON, which the failure quotes 80 characters of: no piece shown`, () => {
    const redact = createRedactor(key)
    for (let kept = 1; kept < key.length; kept++) {
      const result = makeResponse({ status: 401, body: `Unauthorized: the token ${'x'.repeat(80 - 25 - kept)}${key} is not known to this service` })
      let actual = ''
      try {
        jsonBodyOf(result)
      } catch (error) {
        actual = (error as ConformanceFailure).actual
      }
      expect(actual).toContain('body starts')
      expect(piecesShown(redact(actual), key), `${kept} kept`).toEqual([])
    }
  })
})

test('a cut that falls between words, or in a run too short to be a key, is where it was', () => {
  expect(cutClearOfSecrets('abc def ghi', 4)).toBe('abc ')
  expect(cutClearOfSecrets('abcdef ghi', 3)).toBe('abc')
  expect(cutClearOfSecrets('ab cd ef', 4)).toBe('ab c')
  // a long run: at most 11 characters go back
  expect(cutClearOfSecrets('a'.repeat(200), 120)).toBe('a'.repeat(109))
  expect(cutClearOfSecrets('short', 120)).toBe('short')
})
