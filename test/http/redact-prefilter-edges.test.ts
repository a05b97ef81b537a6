/**
 * The filters in front of the spread and pieces steps (perf29) against the texts a review (review28)
 * looked for a miss in: keys with base64url and other characters that are no letter or digit, keys
 * beside letters past ASCII that fold to ASCII ones in some engines (İ, ß, K U+212A, ſ, ς, fullwidth
 * Ａ, Arabic-Indic digits), keys of 8 to 11 characters, word keys, the key per character in a JSON
 * list or a Go byte dump, texts already redacted, near-misses of one character. The steps are built
 * as lib/http/redact.ts builds them (near-misses, which in any case), for fleets of two to four keys
 * (the filters switch on from three spread patterns and eight pieces), and each gives the same text
 * with its filter as without; the whole redactor leaves none of the keys' forms.
 */
import { describe, expect, test } from 'vitest'
import { createRedactor, REDACTED, sameShape } from '../../lib/http/redact.ts'
import { piecesRedactor } from '../../lib/http/secret-pieces.ts'
import { spreadRedactor } from '../../lib/http/secret-spread.ts'
import { formsOf } from '../helpers/key-leaks.ts'

const swapCase = (text: string) => text.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
// as lib/http/redact.ts: nearMisses, foldsSafely, and the groups of redactorSteps
const nearMisses = (key: string) => (key.length < 8 ? [] : [swapCase(key), sameShape(key), key.slice(0, -1)].filter((form) => form !== key))
const foldsSafely = (v: string) => v.length >= 8 && (/[0-9]/.test(v) || (v.length >= 16 && /[A-Za-z]{2}[^A-Za-z0-9]+[A-Za-z]{2}/.test(v)))
const variants = (key: string) => [key, ...nearMisses(key)].map((v) => ({ secret: v, fold: foldsSafely(v) }))

function steps(keys: readonly string[], prefiltered: boolean) {
  const ordered = [...new Set(keys)].sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
  const groups = ordered.map((key) => variants(key).filter((v, i) => i === 0 || (v.secret !== key.slice(0, -1) && !(v.fold && v.secret === swapCase(key)))))
  return { spread: spreadRedactor(groups, REDACTED, prefiltered), pieces: piecesRedactor(ordered.flatMap(variants), REDACTED, prefiltered) }
}

const KEYS = [
  'Ab3-dE_f9+hI/j=Kl.2n:Op4rSt',
  'cnry_3f9a1b2c-4d5e6f70_8192a3b4',
  'sk_9aB3xQ7d',
  'Zk83hQ2m',
  'pk-İß\u212aς-7Hq2Lm9Xw4',
  'ａｂｃ-Tz81Kp04Wq63Rn',
  'key٣٤٥-Pz7Qw2Er9Ty',
  'correct-horse-battery-staple',
  'Correct Horse Battery Staple Nine',
  '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
]
const BETWEEN = ['', ' ', '","', '\u200b', '\u00ad', 'İ', 'ß', '\u212a', '\u017f', 'ς', 'Ａ', '٣', '\\u0020', '&#32;', '%20', `${REDACTED}`, '-', '_', '.', ':', '=', '/', '+']

/** The key in the ways a server spells it one character at a time, cased, cut by one at either end. */
function spellings(key: string): string[] {
  const forms = [key, key.toUpperCase(), key.toLowerCase(), swapCase(key), sameShape(key), key.slice(0, -1), key.slice(1)]
  return forms.flatMap((form) => [
    ...BETWEEN.map((gap) => [...form].join(gap)),
    JSON.stringify([...form]),
    `[${[...Buffer.from(form)].join(' ')}]`,
    `[]byte{${[...Buffer.from(form)].map((b) => `0x${b.toString(16)}`).join(', ')}}`,
    [...form].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    [...form].map((c) => `&#${c.codePointAt(0)};`).join(''),
    form.replace(/[^A-Za-z0-9]/g, ''),
    form.replace(/[^A-Za-z0-9]/g, (c) => encodeURIComponent(encodeURIComponent(c))),
  ])
}

const fleets = [KEYS.slice(0, 2), KEYS.slice(0, 3), KEYS.slice(2, 6), KEYS.slice(4, 7), KEYS.slice(6, 10), [KEYS[3]!, 'Zk83hQ2n', 'Zk83hQ2'], KEYS]

describe('with and without their filters, the spread and pieces steps give the same text', () => {
  test.each(fleets.map((keys, i) => [i, keys] as const))('fleet %i', (_, keys) => {
    const [filtered, full] = [steps(keys, true), steps(keys, false)]
    let changed = 0
    const another = spellings(keys[0]!)[3]
    for (const key of keys) {
      for (const spelled of spellings(key)) {
        // alone, in a body, after another key's spelling, and once already redacted
        for (const text of [spelled, `{"detail":"token ${spelled} refused"}`, `${another} ${spelled}`, full.spread(full.pieces(spelled))]) {
          const spread = full.spread(text)
          expect(filtered.spread(text), JSON.stringify(text)).toBe(spread)
          expect(filtered.pieces(text), JSON.stringify(text)).toBe(full.pieces(text))
          if (spread !== text) changed++
        }
      }
    }
    expect(changed).toBeGreaterThan(100)
  })
})

test('a fleet redactor leaves none of its keys in their spellings', () => {
  for (const keys of fleets.filter((f) => f.length >= 3)) {
    const redact = createRedactor(...keys)
    for (const key of keys) {
      for (const spelled of spellings(key).slice(0, BETWEEN.length + 2)) {
        const shown = redact(`{"a":"${spelled}"}`)
        for (const [name, form] of Object.entries(formsOf(key))) expect(shown.includes(form), `${name} in ${JSON.stringify(shown)}`).toBe(false)
        // its letters and digits spread out: none of them in a row as long as the key's
        const letters = key.replace(/[^A-Za-z0-9]/g, '').toLowerCase()
        if (letters.length >= 8) expect(shown.replace(/[^A-Za-z0-9]/g, '').toLowerCase().includes(letters.slice(0, -1)), JSON.stringify(shown)).toBe(false)
      }
    }
  }
})
