/**
 * A key's bytes written out in hex and cut short (lib/http/secret-hex-runs.ts): Node's hex, .NET's
 * BitConverter, a colon-separated dump, of its ASCII or UTF-16, in either case, its last digit cut
 * off too. Only the whole forms were hidden: two thirds of a key's hex gave back two thirds of it.
 * The hex a report writes of itself (trace ids, UUIDs, a hash) stays.
 */
import { expect, test } from 'vitest'
import { createRedactor } from '../../lib/http/redact.ts'

const KEY = 'Zq81LmX0pR4tYv2NaB7cWd5E'
const cut = KEY.slice(0, 16)
const hex = Buffer.from(cut).toString('hex')
const utf16 = Buffer.from(cut, 'utf16le').toString('hex')

test.each([
  ['hex', hex],
  ['hex, upper-case', hex.toUpperCase()],
  ['BitConverter', hex.toUpperCase().replace(/..(?!$)/g, '$&-')],
  ['colons', hex.replace(/..(?!$)/g, '$&:')],
  ['cut inside a byte', hex.slice(0, -1)],
  ['0x', `0x${hex}`],
  ['UTF-16 hex', utf16],
  ['UTF-16 BitConverter', utf16.toUpperCase().replace(/..(?!$)/g, '$&-')],
])('two thirds of the key in %s is hidden', (_, form) => {
  const text = `{"echo":"${form}","next":1}`
  const redacted = createRedactor(KEY)(text)
  expect(redacted).not.toContain(form)
  expect(redacted).toContain('[REDACTED]')
  expect(redacted).toContain('"next":1')
})

test("a report's own hex stays: a traceparent, a UUID, a SHA-256, an ASCII word's hex", () => {
  const own = 'traceparent: 00-7d1a8e2e5d644caadc38498cc5a02f8f-98cae0f4af853d79-01 id 3f2b8c1e-9a4d-4e7b-b6c5-2d1f0e9a8b7c sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 name ' + Buffer.from('categories-conformance').toString('hex')
  expect(createRedactor(KEY)(own)).toBe(own)
})
