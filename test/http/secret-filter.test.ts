/**
 * lib/http/secret-filter.ts: a redactor of several secrets (a fleet's keys) looks at each text
 * once, and redacts exactly what a redactor of each secret, applied in turn, would: every form of
 * every key, wherever in the text, whatever surrounds it.
 */
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { createRedactor, REDACTED, redactorSteps, sameShape } from '../../lib/http/redact.ts'
import { withEscapeRuns } from '../../lib/http/secret-escapes.ts'
import { anchorFilter } from '../../lib/http/secret-filter.ts'

const KEYS = ['sk_live_Review+Key/123==', 'a1b2c3d4e5f6a7b8c9d0', 'tenant-Ω-ключ-0042', 'AbCdEfGh', 'z/z/z/z/z/z/z/z']
const swapCase = (text: string) => text.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
const ECHOES: [string, (key: string) => string][] = [
  ['as is', (k) => k],
  ['encodeURIComponent', encodeURIComponent],
  ['percent, lower-case hex', (k) => encodeURIComponent(k).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
  ['JSON with \\/', (k) => JSON.stringify(k).slice(1, -1).replace(/\//g, '\\/')],
  ['JSON with \\u escapes', (k) => k.replace(/[^a-zA-Z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)],
  ['base64', (k) => Buffer.from(k).toString('base64')],
  ['inside base64 of the header', (k) => Buffer.from(`Bearer ${k}`).toString('base64')],
  ['HTML', (k) => k.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')],
  ['case swapped', swapCase],
  ['same shape', sameShape],
  ['last character dropped', (k) => k.slice(0, -1)],
]

/**
 * Each key's forms in turn, the longest key first, then each key's pieces, spread, then its runs (redactorSteps), then
 * the runs of escapes that hold what those steps hide (withEscapeRuns): what one redactor of them all must do.
 */
const inTurn = (keys: string[]) => {
  const each = [...keys].sort((a, b) => b.length - a.length).map((k) => redactorSteps(k))
  return withEscapeRuns((text: string) => {
    const forms = each.reduce((out, steps) => steps.forms(out), text)
    const pieces = each.reduce((out, steps) => steps.pieces(out), forms)
    const spread = each.reduce((out, steps) => steps.spread(out), pieces)
    return each.reduce((out, steps) => steps.runs(out), spread)
  }, REDACTED)
}

describe('a redactor of several keys', () => {
  test.each(ECHOES)('finds each key %s, among text that holds none', (_label, echo) => {
    const redact = createRedactor(...KEYS)
    for (const key of KEYS) {
      const text = `{"message":"expected ${echo(key)}; got something else"}`
      expect(redact(text), key).toBe(inTurn(KEYS)(text))
      expect(redact(text), key).toContain(REDACTED)
    }
  })

  test.each([
    ['keys that each have a run of four characters no encoder escapes', KEYS.filter((k) => !k.startsWith('z/'))],
    ['and a key without one, which is looked for in every text', KEYS],
    ['and a key of three characters, too short for an anchor', [...KEYS, 'k3y']],
  ])('redacts what each key in turn does, wherever the forms fall in any text: %s', (_label, keys) => {
    const redact = createRedactor(...keys)
    const reference = inTurn(keys)
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 30 }),
      fc.tuple(fc.constantFrom(...keys), fc.constantFrom(...ECHOES)).map(([key, [, echo]]) => echo(key)),
      // a form cut short, or run into by what follows: near, but no form
      fc.tuple(fc.constantFrom(...keys), fc.nat(12)).map(([key, cut]) => key.slice(0, Math.max(1, key.length - 2 - cut))),
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const text = pieces.join('')
        expect(redact(text)).toBe(reference(text))
      }),
      { numRuns: 400 },
    )
  })
})

test('the same keys in another order make the same redactor, made once; other keys another', () => {
  const redact = createRedactor(...KEYS)
  expect(createRedactor(...[...KEYS].reverse(), KEYS[0])).toBe(redact)
  expect(createRedactor(...KEYS.slice(1))).not.toBe(redact)
  expect(createRedactor(...KEYS.slice(1))('a1b2c3d4e5f6a7b8c9d0')).toBe(REDACTED)
})

describe('anchorFilter', () => {
  test('tells a text holding the shortest anchor\'s length of characters of an anchor anywhere, two-byte text included, and no other', () => {
    const holds = anchorFilter(['abcdefgh', 'ключ-0042', '12345678'])
    expect(holds).toBeDefined()
    for (const text of ['abcdefgh', 'xx abcdefgh', 'Ω…ключ-004', '0123456789', `${'y'.repeat(5000)}abcdefg${'h'}`]) expect(holds!(text), text).toBe(true)
    for (const text of ['', 'abcdef', 'abcdef-gh', 'ключ 0042', 'Ω'.repeat(100), '123456 78']) expect(holds!(text), text).toBe(false)
  })

  // the pass hashes a piece at every stride-th position only: an anchor must be found at every offset, in texts of every length around it
  test('finds an anchor at every position of the text, whatever the stride', () => {
    for (const anchors of [['abcdefghijkl'], ['abcd', 'wxyz0123'], ['0123456789abcdef', 'ключ-0042-ΩΩΩΩ']]) {
      const holds = anchorFilter(anchors)!
      for (const anchor of anchors) {
        for (let before = 0; before < 40; before++) {
          for (const after of [0, 1, 2, 3, 17]) {
            const text = '-'.repeat(before) + anchor + '.'.repeat(after)
            expect(holds(text), `${anchors.join(',')}: ${before} before, ${after} after`).toBe(true)
            // one character of it changed: no anchor left
            expect(holds(text.slice(0, before) + '#' + text.slice(before + 1)), text).toBe(anchors.length > 1 && text.includes(anchors[0] === anchor ? anchors[1]! : anchors[0]!))
          }
        }
      }
    }
  })

  test('none for anchors too short to be worth a pass; never for no anchors', () => {
    expect(anchorFilter(['abc', 'abcdefgh'])).toBeUndefined()
    expect(anchorFilter([])?.('anything')).toBe(false)
  })
})
