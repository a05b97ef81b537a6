/**
 * lib/http/secret-pieces.ts: a key's letters and digits in order are looked for only where its
 * longest piece stands. Walked from every match of its first piece, a base64 key whose first piece
 * is one letter (a/Bc8…: a "+" or "/" second, one key in thirty) made every "a" of every body a
 * walk: a megabyte of a's took seconds to redact where it took milliseconds before the pieces
 * (839b771), and every report of a run redacts every body it holds.
 */
import { expect, test } from 'vitest'
import { createRedactor, REDACTED } from '../../lib/http/redact.ts'

const KEY = 'a/Bc8Hd9Kq2Lm5Np7Rs4Tv6Wx3Yz1Q='

test('a key whose first piece is one letter: megabytes of that letter is redacted in milliseconds, not seconds', () => {
  const redact = createRedactor(KEY)
  const text = 'a'.repeat(6_000_000)
  const started = performance.now()
  expect(redact(text)).toBe(text)
  // the walk from every "a" took 0.6 to 3.5 s a megabyte on this machine; the anchored walk takes a few ms
  expect(performance.now() - started).toBeLessThan(1_000)
})

test('the key is still hidden, its other characters stripped or changed, anywhere in such a text', () => {
  const redact = createRedactor(KEY)
  const stripped = KEY.replace(/[^A-Za-z0-9]/g, '')
  const dashed = KEY.toLowerCase().replace(/[^a-z0-9]/g, '-')
  const around = 'x'.repeat(5_000)
  expect(redact(`${around}.${stripped}!${around}. x-echo-${dashed}: 1`)).toBe(`${around}.${REDACTED}!${around}. x-echo-${REDACTED}-: 1`)
  // what is before the longest piece stands within its reach: pieces in order, a few characters apart
  expect(redact(`token=a%252FBc8Hd9Kq2Lm5Np7Rs4Tv6Wx3Yz1Q%253D;`)).toBe(`token=${REDACTED};`)
})

// walked from the first "a" within reach, it hid the 12 characters before the key with it
test('what stands before the key is left readable: the walk starts at the last first piece that reaches the rest', () => {
  const stripped = KEY.replace(/[^A-Za-z0-9]/g, '')
  expect(createRedactor(KEY)(`{"name":"aaaaaaaaaaaa.${stripped}"}`)).toBe(`{"name":"aaaaaaaaaaaa.${REDACTED}"}`)
  expect(createRedactor(KEY)(`sha a a ${stripped}`)).toBe(`sha a a ${REDACTED}`)
})

test('the first pieces without the longest, or the longest too far from them, are ordinary text', () => {
  const redact = createRedactor(KEY)
  // (a run of 11 of its characters or more is hidden on its own: secret-runs.ts; its characters a space or a few apart, spread: secret-spread.ts)
  for (const text of ['a/Bc8Hd and more', `a${' '.repeat(40)}Bc8Hd9Kq`, `a/B${'c8Hd9Kq2Lm5Np7Rs4Tv6Wx3Yz1Q'.split('').join(' '.repeat(17))}`]) expect(redact(text)).toBe(text)
})
