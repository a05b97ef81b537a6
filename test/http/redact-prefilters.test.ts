/**
 * The passes that let a text through untouched before the costly steps of redaction (perf29): the
 * letters-in-order filter in front of the patterns of a key spread out (secret-spread.ts), and the
 * longest pieces' filter in front of the walks of its pieces (secret-pieces.ts). A filter only
 * tells which texts those steps may change: on thousands of texts with keys spread, cut, cased,
 * escaped and changed in every way, each step gives the same text with its filter as without it.
 */
import { describe, expect, test } from 'vitest'
import { REDACTED, sameShape } from '../../lib/http/redact.ts'
import { anchorFilter, lettersInOrderFilter } from '../../lib/http/secret-filter.ts'
import { piecesRedactor } from '../../lib/http/secret-pieces.ts'
import { spreadRedactor } from '../../lib/http/secret-spread.ts'

/** A generator of its own, so that a failure is the same in every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0
    return state / 2 ** 32
  }
}

const WORD_KEYS = Array.from({ length: 10 }, (_, i) => `bench-fleet-${i}-${(0x9e3779b1 * (i + 7)).toString(36).slice(0, 10)}`)
const KEYS = [
  ...WORD_KEYS,
  'cnry-3f9a1b2c4d5e6f708192a3b4+/Z=',
  'test-key-for-the-ci-2024',
  'sk_9aB3xQ7',
  'Zk83hQ2mPq',
  'hunter2x',
  'Ab3dEf9hIj+Kl2nOp4rSt/Uv6xYz8bCd+Fg0iJk2mN=',
  'a/Bc8Hd9Kq2Lm5Np7Rs4Tv6Wx3Yz1Q=',
  '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
  'CorrectHorseBattery',
]
const swapCase = (text: string) => text.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))

/** Characters that stand between a key's, or around it: separators, escapes, letters past ASCII that fold to ASCII ones in some engines (K U+212A, ſ U+017F, İ U+0130). */
const BETWEEN = [' ', '', '', '\u200b', '\u200d', '\u00ad', '","', '",\n        "', '-', '_', '%2B', '\\u002B', '&#43;', '\u212a', '\u017f', '\u0130', '€', '\n', '\t', '.', '/', '+', '=', '\u00c2\u00ad']
const FILLER = ['{"detail":"bad token","chars":', '<td>', 'Bearer ', 'the test of a key for the CI', 'benchmark fleet ', 'bench ', 'cfodi', 'a b c d e f g h', '0123456789', '"name":"', 'aaaaaaaa', 'x'.repeat(40)]

function textWithKeys(random: () => number, keys: readonly string[]): string {
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  const parts: string[] = []
  for (let n = 1 + Math.floor(random() * 6); n > 0; n--) {
    if (random() < 0.4) {
      parts.push(pick(FILLER))
      continue
    }
    let key = pick(keys)
    // a near-miss of it, cut short at either end, one character changed
    const change = random()
    if (change < 0.15) key = sameShape(key)
    else if (change < 0.3) key = swapCase(key)
    else if (change < 0.4) key = key.toUpperCase()
    else if (change < 0.5) key = key.slice(0, -1 - Math.floor(random() * 3))
    else if (change < 0.6) key = key.slice(1 + Math.floor(random() * 3))
    else if (change < 0.7) {
      const at = Math.floor(random() * key.length)
      key = key.slice(0, at) + pick(['x', '0', '-', 'Q']) + key.slice(at + 1)
    }
    // spread: the same separator after each character, or each its own, or a few characters at a time
    const how = random()
    const gap = pick(BETWEEN)
    const spread =
      how < 0.3
        ? [...key].join(gap.repeat(1 + Math.floor(random() * 3)))
        : how < 0.6
          ? [...key].map((c) => c + (random() < 0.5 ? pick(BETWEEN) : pick(BETWEEN).repeat(Math.floor(random() * 8)))).join('')
          : how < 0.8
            ? key.replace(/.{1,5}/g, (run) => run + pick(BETWEEN))
            : key.replace(/[^A-Za-z0-9]/g, () => pick(BETWEEN))
    parts.push(spread)
  }
  return parts.join(random() < 0.5 ? '' : pick(BETWEEN))
}

const variantsOf = (key: string) => [...new Set([key, swapCase(key), sameShape(key), key.slice(0, -1)])]

describe('a filter never lets a text through that its step would change', () => {
  // each key with two others no text holds: the filters run from three keys on (fewer: each pattern in turn costs less)
  const keySets = [KEYS.map((k) => [k, 'Qz7xW2vB9nM4kL6pR1tY-decoy', 'decoy-4f8a2b9c1d7e6f3a0b5c']), [WORD_KEYS], [KEYS]].flat()
  test.each(keySets.map((keys, i) => [i, keys] as const))('key set %i: spread and pieces, with and without their filter', (index, keys) => {
    const random = seeded(29 + index)
    for (const fold of [true, false]) {
      const groups = keys.map((key) => variantsOf(key).map((secret) => ({ secret, fold })))
      const flat = groups.flat()
      const [spreadFiltered, spreadFull] = [spreadRedactor(groups, REDACTED), spreadRedactor(groups, REDACTED, false)]
      const [piecesFiltered, piecesFull] = [piecesRedactor(flat, REDACTED), piecesRedactor(flat, REDACTED, false)]
      let changed = 0
      for (let i = 0; i < 400; i++) {
        const text = textWithKeys(random, keys.filter((k) => !k.includes('decoy')))
        const full = spreadFull(text)
        expect(spreadFiltered(text), JSON.stringify(text)).toBe(full)
        expect(piecesFiltered(text), JSON.stringify(text)).toBe(piecesFull(text))
        if (full !== text) changed++
      }
      // the texts are of the kind the steps change, not only of the kind they leave
      expect(changed).toBeGreaterThan(40)
    }
  })
})

describe('lettersInOrderFilter', () => {
  const strippedHolds = (text: string, needles: readonly string[]) => needles.some((n) => text.replace(/[^A-Za-z0-9]/g, '').toLowerCase().includes(n.toLowerCase()))

  test('tells what the text without its other characters, in lower case, holds', () => {
    const random = seeded(7)
    const needles = WORD_KEYS.map((k) => k.replace(/[^A-Za-z0-9]/g, '').slice(0, -1))
    const filter = lettersInOrderFilter(needles)
    let held = 0
    for (let i = 0; i < 3000; i++) {
      const text = textWithKeys(random, KEYS)
      expect(filter(text), JSON.stringify(text)).toBe(strippedHolds(text, needles))
      if (filter(text)) held++
    }
    expect(held).toBeGreaterThan(100)
  })

  test('needles that share their first letters, short needles, letters past ASCII, and texts ending inside a needle', () => {
    const filter = lettersInOrderFilter(['abcdefg', 'abcdxyz', 'ABCD'])
    expect(filter('a-b-c-d')).toBe(true)
    expect(filter('zzz a b c')).toBe(false)
    expect(lettersInOrderFilter(['abkd1234'])('a b \u212a d 1 2 3 4')).toBe(false)
    expect(lettersInOrderFilter(['abkd1234'])('a b K d 1 2 3 4')).toBe(true)
    expect(lettersInOrderFilter(['abcdefgh'])('a b c d e f g')).toBe(false)
    expect(lettersInOrderFilter(['abcdefgh'])('xA.B.C.D.E.F.G.Hx')).toBe(true)
    expect(lettersInOrderFilter(['ab1'])('xa b 1')).toBe(true)
    expect(lettersInOrderFilter(['ab1'])('xa b 2')).toBe(false)
    expect(lettersInOrderFilter([])('anything')).toBe(false)
    // a digit's code with bit 5 unset (U+0010 to U+0019) is no digit
    expect(lettersInOrderFilter(['abcd1234'])('abcd\u0011\u0012\u0013\u0014')).toBe(false)
  })
})

// anchors of one length: the filter looks for the first characters of each as long as the shortest (a text that holds them may not hold a longer anchor)
test('anchorFilter in any case: a hit compared in place, as the text folded would be', () => {
  const random = seeded(11)
  const anchors = KEYS.flatMap((k) => [k.slice(0, 8), sameShape(k).slice(-8)])
  const filter = anchorFilter(anchors, true)!
  const fold = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase())
  let held = 0
  for (let i = 0; i < 3000; i++) {
    const text = textWithKeys(random, KEYS)
    const expected = anchors.some((a) => fold(text).includes(fold(a)))
    expect(filter(text), JSON.stringify(text)).toBe(expected)
    if (expected) held++
  }
  expect(held).toBeGreaterThan(100)
})
