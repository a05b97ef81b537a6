/**
 * Long runs of hex (a dump of a whole body: lib/http/secret-hex-runs.ts LONG_HEX_START) are looked
 * for only in the stretches of hex digits and separators as long as the shortest such run
 * (lib/http/long-hex-stretches.ts), found by reading every 256th character and the stretch around
 * it. The pattern's first digit was tried at every hex digit of every text a fleet redacted. The
 * same stretches as a pattern finds, the same matches in the same order as the pattern over the
 * whole text, and a key's hex inside a dump still hidden wherever the dump starts.
 */
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { createRedactor } from '../../lib/http/redact.ts'
import { LONG_HEX_START } from '../../lib/http/secret-hex-runs.ts'
import { LONG_RUN_STEP, longStretches, SHORTEST_LONG_RUN, withinStretches } from '../../lib/http/long-hex-stretches.ts'

/** `n` characters of `alphabet`, picked by `seed`. */
const ofRun = (n: number, seed: number, alphabet = '0123456789abcdefABCDEF :-') => Array.from({ length: n }, (_, i) => alphabet[(seed + i * 7919) % alphabet.length]).join('')
const separated = (bytes: number, sep: string, seed: number) => Array.from({ length: bytes }, (_, i) => ofRun(2, seed + i * 31, '0123456789abcdef')).join(sep)

const piece = fc.oneof(
  fc.constantFrom('g', 'x', 'G', '"', '\n', ',', 'é', '€', '_', 'a', '0x', 'ag'),
  fc.integer({ min: 1, max: 700 }).map((n) => 'a'.repeat(n)),
  fc.tuple(fc.integer({ min: 480, max: 540 }), fc.nat()).map(([n, seed]) => ofRun(n, seed)),
  fc.tuple(fc.integer({ min: 480, max: 540 }), fc.nat()).map(([n, seed]) => ofRun(n, seed, '0123456789abcdef')),
  fc.tuple(fc.integer({ min: 250, max: 262 }), fc.constantFrom(' ', ':', '-'), fc.nat()).map(([n, sep, seed]) => separated(n, sep, seed)),
  fc.tuple(fc.integer({ min: 1, max: 300 }), fc.nat()).map(([n, seed]) => ofRun(n, seed)),
  fc.string({ maxLength: 40 }),
)
const texts = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''))

test('the step lets no stretch as long as the shortest long run pass between two characters read', () => {
  expect(LONG_RUN_STEP).toBeLessThanOrEqual(SHORTEST_LONG_RUN)
})

test('the stretches a pattern of that many such characters finds, wherever they stand', () => {
  fc.assert(
    fc.property(texts, (text) => {
      const stretches = [...text.matchAll(new RegExp(`[0-9a-fA-F :-]{${SHORTEST_LONG_RUN},}`, 'g'))].map((m) => [m.index, m.index + m[0].length])
      expect(longStretches(text)).toEqual(stretches)
    }),
    { numRuns: 3_000 },
  )
  for (let at = 0; at < 2 * LONG_RUN_STEP + 3; at++) {
    const text = `${'g'.repeat(at)}${'7'.repeat(SHORTEST_LONG_RUN)}g${'x'.repeat(600)}`
    expect(longStretches(text)).toEqual([[at, at + SHORTEST_LONG_RUN]])
    expect(longStretches(text.replace('7g', 'gg'))).toEqual([])
  }
})

test('the matches, in order, of LONG_HEX_START over the whole text, each search from where the last match ended', () => {
  const all = (text: string, find: (text: string, at: number) => RegExpExecArray | null) => {
    const found: [number, string][] = []
    for (let match = find(text, 0); match !== null; match = find(text, match.index + match[0].length)) found.push([match.index, match[0]])
    return found
  }
  const whole = (text: string, at: number) => ((LONG_HEX_START.lastIndex = at), LONG_HEX_START.exec(text))
  fc.assert(
    fc.property(texts, (text) => {
      expect(all(text, withinStretches(longStretches(text), LONG_HEX_START))).toEqual(all(text, whole))
    }),
    { numRuns: 3_000 },
  )
})

test("a key's hex inside a dump of 400 bytes is hidden wherever the dump starts, and the dump's start shown", () => {
  const key = 'sk_live_9f3Kx7QpLm2Va8Rt'
  const redact = createRedactor(key)
  const dump = (bytes: Buffer, sep: string) => bytes.toString('hex').replace(/..(?!$)/g, `$&${sep}`)
  for (const sep of ['', ' ', ':']) {
    for (let at = 0; at < 300; at += 7) {
      const bytes = Buffer.concat([Buffer.alloc(200, 0x90), Buffer.from(key), Buffer.alloc(176, 0x91)])
      const text = `${'q'.repeat(at)}"${dump(bytes, sep)}"`
      const shown = redact(text)
      expect(shown).toContain('[REDACTED]')
      expect(shown).not.toContain(Buffer.from(key.slice(0, 12)).toString('hex').slice(0, 16))
      expect(shown.startsWith(`${'q'.repeat(at)}"${dump(Buffer.alloc(8, 0x90), sep)}`)).toBe(true)
    }
  }
})
