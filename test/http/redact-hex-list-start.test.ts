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
    fc.uint8Array({ minLength: 1, maxLength: 12 }).map((bytes) => [...bytes].map((b) => b.toString(16)).join(fc.sample(fc.constantFrom(',', ', ', ',\n  ', ',\\n'), 1)[0])),
  )
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), fc.nat(40), (pieces, at) => {
      const text = pieces.join('')
      expect(scanned(text, at, nextHexList)).toEqual(scanned(text, at, byPattern))
    }),
    { numRuns: 30_000 },
  )
})

test("a key's bytes listed in hex are hidden in a report of lists that are none", () => {
  const key = 'bench-fleet-3-k7x9q2'
  const listed = [...Buffer.from(key)].map((b) => b.toString(16)).join(', ')
  const report = `{"ids":[1,2,3,4,5,6,7],"bytes":[${listed}],"sizes":"a, b, c, d, e, f"}`.repeat(3)
  const shown = createRedactor(key)(report)
  expect(shown).not.toContain(listed)
  expect(shown).toContain('[1,2,3,4,5,6,7]')
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
