/**
 * Bytes listed in hex without 0x (`[5a, 71, 7, 38]`) looked for where a list can start only: at a
 * comma with spaces, an item and a comma after it (lib/http/secret-hex-runs.ts nextHexList), not
 * with HEX_LIST_START tried at every hex digit of a text (the costliest pattern of the file in a
 * fleet of ten, perf33). The same matches, in the same order, as the pattern's own scan finds them
 * from any place; and a redactor's answers kept for a short text met again (secret-filter.ts
 * textsMet) are the ones it gave the first time.
 */
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { createRedactor } from '../../lib/http/redact.ts'
import { HEX_LIST_START, nextHexList } from '../../lib/http/secret-hex-runs.ts'
import { textsMet } from '../../lib/http/secret-filter.ts'

/** Every match the global pattern finds from `at`, each search from the end of the last, as eachSpan asks. */
function scanned(text: string, at: number, find: (text: string, at: number) => RegExpExecArray | null): [number, string][] {
  const found: [number, string][] = []
  for (let match = find(text, at); match !== null; match = find(text, match.index + match[0].length)) found.push([match.index, match[0]])
  return found
}
const byPattern = (text: string, at: number) => ((HEX_LIST_START.lastIndex = at), HEX_LIST_START.exec(text))

test('the lists the pattern finds, from any place, and only those', () => {
  const piece = fc.oneof(
    fc.constantFrom(',', ', ', ',\n', ',\\n', ',\\t ', ';', ' ', '.', 'x', 'g', '0x', '"', '[', ']', '\\', 'n', 'é', '\t'),
    fc.stringMatching(/^[0-9a-fA-F]{1,3}$/),
    // the separator and the case drawn with the bytes, so that a failure replays from its seed and shrinks
    fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 12 }), fc.constantFrom(',', ', ', ',\n  ', ',\\n', ',\\t '), fc.boolean()).map(([bytes, between, upper]) => [...bytes].map((b) => (upper ? b.toString(16).toUpperCase() : b.toString(16))).join(between)),
  )
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), fc.nat(40), (pieces, at) => {
      const text = pieces.join('')
      expect(scanned(text, at, nextHexList)).toEqual(scanned(text, at, byPattern))
    }),
    { numRuns: 30_000 },
  )
})

// the places a list starts at or next to: the text's start (no comma before its first item), its end, a list of one item, of
// five (the fewest the pattern takes), lists one after another, upper case, 0x before each item, a search from inside a list
test.each([
  ['5a, 71, 07, 38, 4e, 63', 'at the start'],
  ['bytes: 5a, 71, 07, 38, 4e, 63', 'at the end'],
  ['5a,71,7,38,4e', 'five items, no spaces'],
  ['5a, 71, 7, 38', 'four items: none'],
  ['[5a]', 'one item: none'],
  ['5A,\n71,\n7,\n38,\n4E,\n63', 'upper case, escaped line breaks'],
  ['5a,\n  71,\n  7,\n  38,\n  4e', 'line breaks'],
  ['0x5a, 0x71, 0x07, 0x38, 0x4e', '0x before each item: none'],
  ['1,2,3,4,5,6;a,b,c,d,e,f, 10, 11, 12, 13, 14 ,15, 16, 17, 18, 19', 'lists one after another'],
  ['x5a, 71, 7, 38, 4e, 63, 5a, 71, 7, 38, 4e', 'behind a letter, then a list from its second item'],
  ['5a, 71, 7, 38, 4e, 633', 'an item of three digits last: none'],
])('the same lists as the pattern from every place of %j (%s)', (text) => {
  for (let at = 0; at <= text.length + 1; at++) expect(scanned(text, at, nextHexList), `from ${at}`).toEqual(scanned(text, at, byPattern))
})

test("a key's bytes listed in hex are hidden in a report of lists that are none", () => {
  const key = 'bench-fleet-3-k7x9q2'
  const listed = [...Buffer.from(key)].map((b) => b.toString(16)).join(', ')
  const report = `{"ids":[1,2,3,4,5,6,7],"bytes":[${listed}],"sizes":"a, b, c, d, e, f"}`.repeat(3)
  const shown = createRedactor(key)(report)
  expect(shown).not.toContain(listed)
  expect(shown).toContain('[1,2,3,4,5,6,7]')
})

// the look behind took a hex digit and any separator before an item (a space, a semicolon) for a list the item is within, though
// a list of these goes on at commas only: a key's bytes listed after a word ending in a-f, a number and a space or semicolon, an
// item of three digits, stood whole (review50)
test.each([
  ['a sentence', (hex: string) => `the key bytes are ${hex}`],
  ['a word ending in d', (hex: string) => `received ${hex}`],
  ['a number and a semicolon', (hex: string) => `code 1;${hex}`],
  ['a version and a space', (hex: string) => `1.5 ${hex}`],
  ['an item of three digits', (hex: string) => `[100, ${hex}]`],
  ['a word of hex', (hex: string) => `deadbeef, ${hex}`],
  ['a letter glued to its first item', (hex: string) => `x${hex}`],
])("a key's bytes listed in hex after %s are hidden", (_label, around) => {
  for (const key of ['Jh5tUvW0yXoPq2Rs9Ke', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc']) {
    const hex = [...Buffer.from(key)].map((b) => b.toString(16))
    const shown = createRedactor(key)(around(hex.join(', ')))
    expect(shown, key).toContain('[REDACTED]')
    expect(shown, key).not.toContain(hex.slice(1, -1).join(', '))
  }
})

test('a short text met again gets the answer it got the first time, and a long one is redacted again', () => {
  const calls: string[] = []
  const met = textsMet((text) => (calls.push(text), text.replaceAll('k3y-s3cr3t', '[REDACTED]')))
  const short = 'Authorization: Bearer k3y-s3cr3t'
  const long = `${'x'.repeat(2000)} k3y-s3cr3t`
  expect([met(short), met(`${short}`), met(short)]).toEqual(Array(3).fill('Authorization: Bearer [REDACTED]'))
  expect(met(long)).toBe(met(long))
  expect(calls).toEqual([short, long, long])
  const redact = createRedactor('k3y-s3cr3t-0123456789')
  const texts = ['k3y-s3cr3t-0123456789', '"k3y-s3cr3t-0123456789"', 'clean', '6b33792d73336372', '']
  const first = texts.map(redact)
  expect(texts.map(redact)).toEqual(first)
  expect(first[0]).toBe('[REDACTED]')
})
