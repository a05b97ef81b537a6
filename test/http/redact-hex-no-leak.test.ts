/**
 * No run of a secret's bytes in hex stands in what the redactor gives back (lib/http/secret-hex-runs.ts),
 * whatever stands around the hex: the key's ASCII and a --header value's Latin-1 (an é), in UTF-8,
 * Latin-1 or UTF-16, separated or not, either case, cut at any digit at either end, after a digit
 * and a separator, glued to other hex, inside a dump longer than 256 bytes. Eight characters of a
 * secret (more than SHORT_KEY_RUN's six) are looked for at every place, the separators dropped.
 * Before review43 a key's hex cut inside its first byte, or after `a `, showed within the first 25 texts.
 */
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { createRedactor } from '../../lib/http/redact.ts'

const KEY = 'Zq81LmX0pR4tYv2NaB7cWd5E'
const SECRET = 'Sécret-Tøken-é-9f3Kx7Qa'
const separated = (hex: string, by: string) => hex.replace(/..(?!$)/g, `$&${by}`)
const secretHex = fc
  .tuple(fc.constantFrom(KEY, SECRET), fc.constantFrom<BufferEncoding>('utf8', 'latin1', 'utf16le'), fc.nat({ max: 7 }), fc.nat({ max: 9 }), fc.constantFrom('', ' ', ':', '-'), fc.boolean())
  .map(([secret, encoding, head, tail, by, upper]) => {
    const whole = separated(Buffer.from(secret, encoding).toString('hex'), by)
    const cut = whole.slice(head, whole.length - tail)
    return upper ? cut.toUpperCase() : cut
  })
const piece = fc.oneof(
  fc.constantFrom('0x', 'x', 'g', ' ', '-', ':', '"', '.', '0', 'a ', '1-', '7f', '\n', '_', 'é', '[REDACTED]', 'is a ', '2024-11-28 '),
  fc.stringMatching(/^[0-9a-fA-F]{1,40}$/),
  fc.uint8Array({ minLength: 6, maxLength: 40 }).map((bytes) => Buffer.from(bytes).toString('hex')),
  secretHex,
  secretHex,
  fc.tuple(fc.uint8Array({ minLength: 200, maxLength: 400 }), secretHex, fc.nat({ max: 400 })).map(([bytes, hex, at]) => {
    const dump = Buffer.from(bytes).toString('hex')
    return dump.slice(0, at) + hex.replace(/[ :-]/g, '') + dump.slice(at)
  }),
)
/**
 * Eight characters of each secret, as bytes: in UTF-8, Latin-1 and UTF-16. Characters, not bytes: eight
 * bytes of UTF-8 may be seven characters and half of an é (a9 of c3 a9), which the redactor leaves in
 * plain text too ("-9f3Kx7", below its runs' length for this secret): the test failed one run in three on it.
 */
const runs = [KEY, SECRET].flatMap((secret) => {
  const characters = [...secret]
  return Array.from({ length: characters.length - 7 }, (_, at) => characters.slice(at, at + 8).join('')).flatMap((piece) =>
    (['utf8', 'latin1', 'utf16le'] as const).map((encoding) => Buffer.from(piece, encoding).toString('hex')),
  )
})

test("no eight characters of a secret in hex, cut at any digit, after anything, in a dump, in the redactor's text", () => {
  const redact = createRedactor(KEY, SECRET)
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => {
      const digits = redact(pieces.join('')).replace(/[-: ]/g, '').toLowerCase()
      expect(runs.filter((run) => digits.includes(run))).toEqual([])
    }),
    { numRuns: 3000 },
  )
})
