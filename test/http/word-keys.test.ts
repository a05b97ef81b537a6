/**
 * A key made of words (test-key-for-the-ci-2024, correct-horse-battery-staple): echoed in another
 * case or cut short, its words gave it back, as its runs read as words and, without a digit, it was
 * looked for in its own case only. The reports' own prose stays.
 */
import { expect, test } from 'vitest'
import { createRedactor, REDACTED } from '../../lib/http/redact.ts'

const title = (words: string[], between: string) => words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(between)

test.each([
  ['correct-horse-battery-staple', 'title-cased, a space between', (w: string[]) => title(w, ' ')],
  ['correct-horse-battery-staple', 'title-cased, its own dashes', (w: string[]) => title(w, '-')],
  ['correct-horse-battery-staple', 'camelCase', (w: string[]) => w[0] + title(w.slice(1), '')],
  ['correct-horse-battery-staple', 'its last word cut', (w: string[]) => w.slice(0, -1).join('-')],
  ['correct-horse-battery-staple', 'its first word cut', (w: string[]) => w.slice(1).join('-')],
  ['test-key-for-the-ci-2024', 'its year cut (10^4 guesses)', (w: string[]) => w.slice(0, -1).join('-')],
  ['test-key-for-the-ci-2024', 'title-cased', (w: string[]) => title(w, ' ')],
])('%s, %s: hidden', (key, _label, echo) => {
  const echoed = echo(key.split('-'))
  const shown = createRedactor(key)(`invalid api key "${echoed}"`)
  expect(shown).toContain(REDACTED)
  // no two of its words in a row are left
  const words = key.split('-')
  for (let i = 0; i + 1 < words.length; i++) expect(shown.toLowerCase(), shown).not.toMatch(new RegExp(`${words[i]}\\W{0,3}${words[i + 1]}`))
})

test("the reports' own words stay: the rule ids, the product's name and prose about keys", () => {
  const prose = '<testsuites name="petstore-categories-conformance"> Pet Store categories conformance · auth-missing-key-401 · create-echoes-fields: the key for the test was refused; a key of test-key-for-the-ci-2024 length'
  // words of the key as the tool's own (auth-missing-key-401, --base-url) stay: two thirds of the key's length are hidden, not 8 characters
  for (const key of ['correct-horse-battery-staple', 'Pet+Store/Key', 'Petstore-Categories-Key', 'petstore-categories-key', 'the-key-for-the-test-99', 'missing-key-for-the-ci']) {
    const shown = createRedactor(key)(prose.replace('test-key-for-the-ci-2024', 'other'))
    expect(shown, key).toBe(prose.replace('test-key-for-the-ci-2024', 'other'))
  }
})

// its runs of 8 had no digit and letters of one case, so read as words, though each held two symbols or more: echoed cut in two over two headers, the key stood whole
test.each(['p@ss~word!for^api', 'pk_$(id)`x`${HOME}9a'])('%s, a key of lower-case letters and symbols, cut in two: each half hidden', (key) => {
  const half = Math.ceil(key.length / 2)
  const shown = createRedactor(key)(`x-token-part-1: ${key.slice(0, half)}\r\nx-token-part-2: ${key.slice(half)}`)
  expect(shown).not.toContain(key.slice(0, half))
  expect(shown).not.toContain(key.slice(half))
})
