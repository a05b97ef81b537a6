/**
 * lib/http/redact.ts: a key echoed as a list of its bytes, as a debug page or an error message
 * prints a byte array, is hidden as surely as the key itself: Node's inspect of a Buffer (which
 * shows 50 bytes and cuts the rest), Node's JSON of a Buffer, .NET's BitConverter.ToString, Go's
 * `% x`, `%#v` and fmt.Println of a []byte, Java's Arrays.toString and HexFormat.
 */
import { inspect } from 'node:util'
import { describe, expect, test } from 'vitest'
import { createRedactor, longestForm, REDACTED } from '../../lib/http/redact.ts'

const bytesOf = (text: string) => [...Buffer.from(text)]
const hex = (text: string) => bytesOf(text).map((b) => b.toString(16).padStart(2, '0'))

describe.each([
  ['a key of 10 characters', 'ab12cd34ef'],
  ['a key of 12 characters without a digit', 'Ab%Zq+/x=(Kd'],
  ['a key of 33 characters', 'cnry-3f9a1c0b77d2e4a5b6c7d8e9+/Z='],
])('%s', (_label, key) => {
  test.each([
    ["Node's inspect of the key as a Buffer", (k: string) => inspect(Buffer.from(k))],
    ["Node's JSON of the key as a Buffer", (k: string) => JSON.stringify({ token: Buffer.from(k) })],
    [".NET's BitConverter.ToString (upper-case hex, dashes)", (k: string) => hex(k).join('-').toUpperCase()],
    ["Go's % x (lower-case hex, spaces)", (k: string) => hex(k).join(' ')],
    ["Java's HexFormat.ofDelimiter(\":\")", (k: string) => hex(k).join(':')],
    ["Java's Arrays.toString", (k: string) => `[${bytesOf(k).join(', ')}]`],
    ["Go's fmt.Println of a []byte (decimal, spaces)", (k: string) => `[${bytesOf(k).join(' ')}]`],
    ["Go's %#v of a []byte", (k: string) => `[]byte{${hex(k).map((h) => `0x${h}`).join(', ')}}`],
  ])('%s', (_form, echo) => {
    const echoed = echo(key)
    const out = createRedactor(key)(`{"debug":${JSON.stringify(echoed)}}`)
    expect(out).toContain(REDACTED)
    for (const piece of [hex(key).join(' '), hex(key).join('-').toUpperCase(), hex(key).join(':'), bytesOf(key).join(','), bytesOf(key).join(', '), bytesOf(key).join(' '), hex(key).join(', 0x')]) expect(out).not.toContain(piece)
    expect(longestForm(key)).toBeGreaterThanOrEqual(hex(key).join(' ').length)
  })
})

test("Node's inspect of a long key's Authorization header, cut at 50 bytes, leaves none of the key's bytes it shows", () => {
  const key = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789xy'
  const shown = inspect(Buffer.from(`Bearer ${key}`))
  expect(shown).toContain('more bytes>')
  const out = createRedactor(key)(shown)
  expect(out).toBe(`<Buffer 42 65 61 72 65 72 20 ${REDACTED}... 21 more bytes>`)
})

test('text of other hex and numbers is left as it is', () => {
  const redact = createRedactor('cnry-3f9a1c0b77d2e4a5b6c7d8e9+/Z=')
  for (const text of ['<Buffer 7b 22 69 64 22 3a 31 7d>', '[200, 201, 400, 401]', 'trace 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01']) expect(redact(text)).toBe(text)
})

// the look behind took a number and a separator before a byte for a list the byte is within, though a list holds bytes only (255 at
// most): Node's JSON of a Buffer pretty-printed (`,\n  `), after a number past a byte, after a version, stood whole (review50)
test.each([
  ['after a number past a byte', (listed: string) => `{"data":[1000,\n  ${listed}]}`],
  ['after 256', (listed: string) => `[256,${listed}]`],
  ['after a version and a space', (listed: string) => `v1.2 ${listed}`],
  ['after semicolons, past a number past a byte', (listed: string) => `4096;${listed.replaceAll(',\n  ', ';')}`],
  ['glued to a letter', (listed: string) => `x${listed}`],
])("a key's bytes listed in decimal %s are hidden", (_label, around) => {
  for (const key of ['Jh5tUvW0yXoPq2Rs9Ke', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc']) {
    const bytes = bytesOf(key)
    const out = createRedactor(key)(around(bytes.join(',\n  ')))
    expect(out, key).toContain(REDACTED)
    expect(out, key).not.toContain(bytes.slice(1, -1).join(',\n  '))
    expect(out, key).not.toContain(bytes.slice(1, -1).join(';'))
  }
})
