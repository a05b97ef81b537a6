/**
 * lib/http/secret-spread.ts: a key echoed a character at a time (one JSON string each, a zero-width
 * space, a zero-width joiner or a soft hyphen after each, a space between) is hidden, for a key of
 * 8 characters and more; ordinary text, and the key's characters far apart, are left; a text made
 * to walk far is redacted in milliseconds.
 */
import { describe, expect, test } from 'vitest'
import { createRedactor, longestForm, REDACTED, sameShape } from '../../lib/http/redact.ts'

const KEYS = ['cnry-3f9a1b2c4d5e6f708192a3b4+/Z=', 'test-key-for-the-ci-2024', 'sk_9aB3xQ7', 'Zk83hQ2mPq', 'hunter2x', 'Ab3dEf9hIj+Kl2nOp4rSt/Uv6xYz8bCd+Fg0iJk2mN=']

const SPREAD: [string, (key: string) => string][] = [
  ['one JSON string per character', (k) => JSON.stringify([...k])],
  ['one JSON string per character, indented', (k) => JSON.stringify([...k], null, 8)],
  ['a zero-width space after each', (k) => [...k].join('\u200b')],
  ['a zero-width joiner after each', (k) => [...k].join('\u200d')],
  ['a soft hyphen after each', (k) => [...k].join('\u00ad')],
  ['a soft hyphen after each, UTF-8 read as latin1 (a header)', (k) => Buffer.from([...k].join('\u00ad')).toString('latin1')],
  ['a space between', (k) => [...k].join(' ')],
  ["Python's repr of list(key)", (k) => `[${[...k].map((c) => `'${c}'`).join(', ')}]`],
  ['a zero-width space every 5 characters', (k) => k.replace(/.{5}/g, '$&\u200b')],
  ['its letters and digits alone', (k) => k.replace(/[^A-Za-z0-9]/g, '')],
]

/** The key's letters and digits, in any case, with anything else between them: what a reader takes from the text. */
const lettersIn = (text: string) => text.replace(/[^A-Za-z0-9]/g, '').toLowerCase()

describe.each(KEYS)('key %s', (key) => {
  test.each(SPREAD)('%s: hidden', (_label, spread) => {
    const redact = createRedactor(key)
    for (const text of [spread(key), `{"detail":"bad token","chars":${spread(key)}}`, spread(sameShape(key)), spread(key).toUpperCase()]) {
      const shown = redact(text)
      expect(shown, text).toContain(REDACTED)
      expect(lettersIn(shown), text).not.toContain(lettersIn(key).slice(0, 8))
      expect(lettersIn(shown), text).not.toContain(lettersIn(sameShape(key)).slice(0, 8))
    }
  })

  test('a cut of the evidence keeps a margin as long as the key spread out', () => {
    expect(longestForm(key)).toBeGreaterThanOrEqual(JSON.stringify([...key], null, 8).length)
  })
})

test('what surrounds the key spread out is kept', () => {
  const key = 'hunter2x'
  expect(createRedactor(key)(`{"a":1,"k":["h","u","n","t","e","r","2","x"],"b":"h u n t"}`)).toBe(`{"a":1,"k":["${REDACTED}"],"b":"h u n t"}`)
  expect(createRedactor(key)(`token h\u200bu\u200bn\u200bt\u200be\u200br\u200b2\u200bx refused`)).toBe(`token ${REDACTED} refused`)
})

test('ordinary text, the key cut short or its characters far apart, is left as it is', () => {
  for (const key of KEYS) {
    const redact = createRedactor(key)
    const far = [...key].join(' '.repeat(20))
    const short = [...key.replace(/[^A-Za-z0-9]/g, '').slice(0, 6)].join(' ')
    for (const text of ['the test of a key for the CI', 'a b c d e f g h i j k', far, short, '["c","n","r","y"]']) expect(redact(text), `${key}: ${text}`).toBe(text)
  }
  // a key of one word or few, without a digit, keeps its case: the words it is made of, spread in another case, are text
  for (const key of ['Pet+Store/Key']) expect(createRedactor(key)(key.replace(/[^A-Za-z]+/g, ' ').toLowerCase())).toBe(key.replace(/[^A-Za-z]+/g, ' ').toLowerCase())
  expect(createRedactor('CorrectHorseBattery')('C o r r e c t H o r s e B a t t e r y')).toBe(REDACTED)
})

describe('a text made to walk far, a megabyte, is redacted in milliseconds', () => {
  const texts: [string, string, string][] = [
    // the key but its last two characters, spread, again and again: every walk goes the whole way
    ['the key but its end, spread, again and again', 'Zk83hQ2mPq7w', `${[...'Zk83hQ2mPq'].join(' ')} `.repeat(50_000)],
    ['every character the first of the key, spaced', 'a1b2c3d4e5f6g7h8', 'a '.repeat(500_000)],
    ['a key that repeats itself (left to its forms), on its repeats', 'abababab12', 'a b '.repeat(250_000)],
    ['JSON with many of the key\'s first characters', 'cnry-3f9a1b2c4d5e6f708192a3b4+/Z=', JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: 'category c', c: ['c', 'n', 'r'] })))],
  ]
  test.each(texts)('%s', (_label, key, text) => {
    const redact = createRedactor(key)
    redact(text.slice(0, 1000))
    const started = performance.now()
    redact(text)
    // a few milliseconds each alone (2026-11-27); the bound is for a loaded machine
    expect(performance.now() - started).toBeLessThan(1_000)
  })
})
