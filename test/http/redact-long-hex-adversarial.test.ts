/**
 * The long runs of hex looked for only in stretches (lib/http/long-hex-stretches.ts), against texts
 * made to slip past a character read every 256th: runs whose separators change from byte to byte,
 * broken by one other character every 250 to 262, starting or ending at a character read, at a
 * text's start or end, texts of 256, 512 or 769 characters, UTF-16's hex, surrogate pairs beside a
 * run, and searches from any place, back as well as on (review57). The same matches as the
 * pattern over the whole text; a key's hex in such a dump not shown; and each search reads the
 * stretches past where the last one ended only: read from the first every time, 16 MB of hex runs
 * (a created name a server gives back, redacted whole) took seconds.
 */
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { createRedactor } from '../../lib/http/redact.ts'
import { LONG_HEX_START } from '../../lib/http/secret-hex-runs.ts'
import { longStretches, withinStretches } from '../../lib/http/long-hex-stretches.ts'

const HEX = '0123456789abcdefABCDEF'
const hexDigits = (n: number, seed: number) => Array.from({ length: n }, (_, i) => HEX[(seed + i * 7919 + ((i * i) % 13)) % HEX.length]).join('')
/** `bytes` bytes of hex, each separator picked from `seps` by the seed (changing from byte to byte). */
const mixedSeparators = (bytes: number, seps: string, seed: number) => Array.from({ length: bytes }, (_, i) => hexDigits(2, seed + i * 31) + (i + 1 < bytes ? seps[(seed + i * 17) % seps.length] : '')).join('')
/** `run` with `char` put in after every `every` characters, from `offset`. */
const broken = (run: string, every: number, offset: number, char: string) => run.slice(0, offset) + run.slice(offset).replace(new RegExp(`.{${every}}`, 'gs'), `$&${char}`)
const utf16Hex = (bytes: number, seed: number) => Buffer.from(hexDigits(bytes, seed), 'utf16le').toString('hex')

const run = fc.oneof(
  fc.tuple(fc.integer({ min: 500, max: 1100 }), fc.nat()).map(([n, seed]) => hexDigits(n, seed)),
  fc.tuple(fc.integer({ min: 250, max: 300 }), fc.constantFrom(' ', ':', '-', ' :-', ' -', '::-'), fc.nat()).map(([n, seps, seed]) => mixedSeparators(n, seps, seed)),
  fc.tuple(fc.integer({ min: 130, max: 300 }), fc.nat()).map(([n, seed]) => utf16Hex(n, seed)),
)
const piece = fc.oneof(
  run,
  fc.tuple(run, fc.integer({ min: 250, max: 262 }), fc.integer({ min: 0, max: 300 }), fc.constantFrom('g', ',', '\n', '"', 'x', '\u{1F600}', '\uD800', '0x')).map(([r, every, offset, char]) => broken(r, every, offset, char)),
  fc.integer({ min: 0, max: 600 }).map((n) => 'g'.repeat(n)),
  fc.constantFrom('g', 'x', ',', '\n', '"', '0x', '\u{1F600}', '\uDFFF', 'é', ' ', ':', '-', 'a', '00'),
  fc.string({ maxLength: 20 }),
)
const cutTo = fc.constantFrom(undefined, 255, 256, 257, 511, 512, 513, 514, 768, 769, 770, 1024)
const texts = fc.tuple(fc.array(piece, { maxLength: 7 }), cutTo).map(([pieces, length]) => (length === undefined ? pieces.join('') : pieces.join('').padEnd(length, 'f').slice(0, length)))
const whole = (text: string, at: number) => ((LONG_HEX_START.lastIndex = at), LONG_HEX_START.exec(text))
const found = (match: RegExpExecArray | null) => (match === null ? null : [match.index, match[0]])

test('the same match as the pattern over the whole text, from each place asked, on or back', () => {
  fc.assert(
    fc.property(texts, fc.array(fc.nat(), { maxLength: 12 }), (text, places) => {
      const find = withinStretches(longStretches(text), LONG_HEX_START)
      // on from each match's end, as eachSpan asks
      for (let at = 0, match = whole(text, 0); ; at = match.index + match[0].length, match = whole(text, at)) {
        expect(found(find(text, at))).toEqual(found(match))
        if (match === null) break
      }
      // and anywhere, back too
      for (const place of places) {
        const at = text.length === 0 ? 0 : place % (text.length + 1)
        expect(found(find(text, at))).toEqual(found(whole(text, at)))
      }
    }),
    { numRuns: 3_000 },
  )
})

test("a key's hex in a long dump of any of those forms, wherever it starts, is not shown", () => {
  const key = 'sk_live_9f3Kx7QpLm2Va8Rt'
  const redact = createRedactor(key)
  const keyHex = Buffer.from(key).toString('hex')
  // no six printable bytes in a row
  const noise = (count: number) => Buffer.from(Array.from({ length: count }, (_, i) => ((i * 151) % 32) + (i % 2 ? 0x80 : 0)))
  const spaced = (hex: string, seps: string) => hex.replace(/../g, (pair, i: number) => `${pair}${seps[(i / 2) % seps.length]}`).slice(0, -1)
  const forms: Record<string, (before: number) => string> = {
    together: (before) => Buffer.concat([noise(before), Buffer.from(key), noise(300)]).toString('hex'),
    'separators changing': (before) => spaced(Buffer.concat([noise(before), Buffer.from(key), noise(300)]).toString('hex'), ' :-'),
    'upper case, dashes': (before) => spaced(Buffer.concat([noise(before), Buffer.from(key), noise(300)]).toString('hex').toUpperCase(), '-'),
    'UTF-16': (before) => Buffer.concat([noise(before), Buffer.from(key, 'utf16le'), noise(300)]).toString('hex'),
    'glued between two long runs': (before) => `${spaced(noise(before + 260).toString('hex'), ' ')}${keyHex}${spaced(noise(300).toString('hex'), ':')}`,
    'a character every 255': (before) => broken(Buffer.concat([noise(before), Buffer.from(key), noise(300)]).toString('hex'), 255, 0, ','),
  }
  const leaks: string[] = []
  for (const [name, form] of Object.entries(forms)) {
    for (const [lead, before] of [[0, 0], [1, 257], [255, 100], [256, 127], [254, 300], [511, 3]] as const) {
      const text = `${'"'.repeat(lead)}${form(before)}"\n\u{1F600}`
      const digits = redact(text).replace(/[^0-9a-fA-F]/g, '').toLowerCase()
      for (let at = 0; at + 16 <= keyHex.length; at += 2) if (digits.includes(keyHex.slice(at, at + 16))) leaks.push(`${name}, ${lead} characters before, byte ${at / 2}`)
    }
  }
  expect([...new Set(leaks)]).toEqual([])
})

test('each search reads the stretches past where the last ended, not every stretch from the first again', () => {
  const count = 2_000
  const text = `${'a'.repeat(515)},`.repeat(count)
  let reads = 0
  const stretches = longStretches(text)
  expect(stretches).toHaveLength(count)
  const counted = new Proxy(stretches, { get: (target, name, receiver) => ((reads += typeof name === 'string' && /^\d+$/.test(name) ? 1 : 0), Reflect.get(target, name, receiver)) })
  const find = withinStretches(counted, LONG_HEX_START)
  let matches = 0
  for (let match = find(text, 0); match !== null; match = find(text, match.index + match[0].length)) matches++
  expect(matches).toBe(count)
  // read from the first each time: count × count / 2, two million
  expect(reads).toBeLessThan(8 * count)
})
