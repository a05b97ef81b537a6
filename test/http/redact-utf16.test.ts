/**
 * lib/http/redact.ts: a key echoed in UTF-16 (a .NET service's Encoding.Unicode), or one character
 * or byte at a time as escapes, is hidden as surely as the key itself: in JSON or a JSON line of a
 * log (`s\u0000k\u0000…`), every byte an escape, Python's repr() of the bytes, their base64 and
 * hex, an RFC 2047 encoded-word or quoted-printable with every byte escaped, upper-case or padded
 * character references. Each of these held the key, or Basic credentials made of it, in every
 * report of a run (test/hostile/key-leaks.test.ts proves it of a whole run).
 */
import { describe, expect, test } from 'vitest'
import { createRedactor, longestForm, REDACTED } from '../../lib/http/redact.ts'
import { unescapedTexts } from '../helpers/key-leaks.ts'

const utf16 = (text: string, order: 'le' | 'be') => (order === 'le' ? Buffer.from(text, 'utf16le') : Buffer.from(text, 'utf16le').swap16())
const hex2 = (b: number) => b.toString(16).padStart(2, '0')
const basic = (key: string) => Buffer.from(`${key}:${key}`).toString('base64')

const FORMS: [string, (key: string) => string][] = [
  ['UTF-16 read as bytes, in JSON (JSON.stringify of a latin1 string)', (k) => JSON.stringify(utf16(k, 'le').toString('latin1')).slice(1, -1)],
  ['UTF-16 big-endian, in JSON', (k) => JSON.stringify(utf16(k, 'be').toString('latin1')).slice(1, -1)],
  ['UTF-16 in JSON, in a JSON line of a log (its backslashes escaped again)', (k) => JSON.stringify(JSON.stringify(utf16(k, 'le').toString('latin1'))).slice(2, -2)],
  ['UTF-16, every byte a \\u escape', (k) => [...utf16(k, 'le')].map((b) => `\\u00${hex2(b)}`).join('')],
  ["UTF-16, Python's repr() of the bytes", (k) => `b'\\xff\\xfe${[...k].map((c) => `${c}\\x00`).join('')}'`],
  ["UTF-16 big-endian, Python's repr() of the bytes", (k) => `b'\\xfe\\xff${[...k].map((c) => `\\x00${c}`).join('')}'`],
  ['UTF-16, base64 (Convert.ToBase64String(Encoding.Unicode.GetBytes(token)))', (k) => utf16(k, 'le').toString('base64')],
  ['UTF-16 big-endian, base64', (k) => utf16(k, 'be').toString('base64')],
  ['"Bearer <key>" in UTF-16, base64', (k) => utf16(`Bearer ${k}`, 'le').toString('base64')],
  ['UTF-16, hex', (k) => utf16(k, 'le').toString('hex')],
  ['UTF-16, hex in upper case (Convert.ToHexString)', (k) => utf16(k, 'le').toString('hex').toUpperCase()],
  ['UTF-16 big-endian, hex in upper case', (k) => utf16(k, 'be').toString('hex').toUpperCase()],
  // the hex dump .NET makes of Encoding.Unicode.GetBytes(token), and Node's inspect of the Buffer (its first 50 bytes), and the bytes listed in decimal
  ['UTF-16, BitConverter.ToString', (k) => [...utf16(k, 'le')].map((b) => hex2(b).toUpperCase()).join('-')],
  ["UTF-16, Node's inspect of the Buffer", (k) => `<Buffer ${[...utf16(k, 'le')].slice(0, 50).map(hex2).join(' ')}${k.length > 25 ? ` ... ${2 * k.length - 50} more bytes` : ''}>`],
  ['UTF-16, the bytes listed in decimal', (k) => `[${[...utf16(k, 'le')].join(', ')}]`],
  ['every byte a \\x escape', (k) => [...Buffer.from(k)].map((b) => `\\x${hex2(b)}`).join('')],
  ['every byte an octal escape', (k) => [...Buffer.from(k)].map((b) => `\\${b.toString(8).padStart(3, '0')}`).join('')],
  ['an RFC 2047 encoded-word, every byte Q-encoded', (k) => `=?utf-8?Q?${[...Buffer.from(k)].map((b) => `=${hex2(b).toUpperCase()}`).join('')}?=`],
  ['every character an upper-case hex character reference', (k) => [...k].map((c) => `&#X${c.charCodeAt(0).toString(16).toUpperCase()};`).join('')],
  ['every character a hex character reference with leading zeros', (k) => [...k].map((c) => `&#x00${c.charCodeAt(0).toString(16)};`).join('')],
  // escaped once more: a query string encoded twice (a redirect's Location), a character reference in markup escaped again
  ['UTF-16 in a query string percent-encoded twice (%2500)', (k) => encodeURIComponent(utf16(k, 'le').toString('latin1')).replaceAll('%', '%25')],
  ['every character a character reference, escaped once more (&amp;#115;)', (k) => [...k].map((c) => `&amp;#${c.charCodeAt(0)};`).join('')],
  ['every other character a \\u escape', (k) => [...k].map((c, i) => (i % 2 ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)).join('')],
  ['Basic credentials of the key, every character an upper-case \\u escape', (k) => [...basic(k)].map((c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join('')],
  ['Basic credentials of the key, every byte percent-escaped in upper case', (k) => Buffer.from(basic(k)).toString('hex').toUpperCase().replace(/../g, '%$&')],
  // escapes no form knew, each of which stood whole (securehunt9)
  ['every character a \\u escape, in JSON inside a JSON string inside another (\\\\\\\\u0073)', (k) => [...k].map((c) => `\\\\\\\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
  ['every character a \\u escape, percent-encoded (%5Cu0073: a JSON text in a query)', (k) => [...k].map((c) => `%5Cu${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
  ['every character a \\u escape, percent-encoded twice (%255Cu0073)', (k) => [...k].map((c) => `%255Cu${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
  ["every character ES2015's, Rust's or Swift's \\u{73}", (k) => [...k].map((c) => `\\u{${c.charCodeAt(0).toString(16)}}`).join('')],
  ["every character escape()'s and IIS's %u0073", (k) => [...k].map((c) => `%u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join('')],
  ["every character CSS's \\73 (a space after each)", (k) => [...k].map((c) => `\\${c.charCodeAt(0).toString(16)} `).join('')],
  ["every character CSS's \\000073", (k) => [...k].map((c) => `\\${c.charCodeAt(0).toString(16).padStart(6, '0')}`).join('')],
  ['UTF-16, base64url', (k) => utf16(k, 'le').toString('base64url')],
]

describe.each([
  ['a key of 10 characters', 'hunter2x99'],
  ['a key of words', 'petstore-prod-2026-key'],
  ['a key of 33 characters', 'cnry-3f9a1c0b77d2e4a5b6c7d8e9+/Z='],
  ['a key of letters alone (looked for in one case)', 'PetstoreProdKey'],
])('%s', (_label, key) => {
  test.each(FORMS)('%s: hidden in an error message and a debug header', (_form, echo) => {
    const echoed = echo(key)
    for (const text of [`{"message":"invalid token '${echoed}'"}`, `x-debug-token: ${echoed}\r\nx-request-id: 42`]) {
      const out = createRedactor(key)(text)
      expect(out).toContain(REDACTED)
      expect(out).not.toContain(echoed)
      // decoded by every means the scan of a run's outputs knows, the key is nowhere
      expect(unescapedTexts(out).filter((t) => t.includes(key) || t.includes(basic(key).slice(0, 12)))).toEqual([])
    }
    expect(longestForm(key)).toBeGreaterThanOrEqual(echoed.length)
  })
})

test('escapes that hold no key are left as they are', () => {
  const redact = createRedactor('cnry-3f9a1c0b77d2e4a5b6c7d8e9+/Z=')
  for (const text of [
    '"name":"\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b"',
    '"name":"\\u20ac\\u20ac\\u20ac\\u20ac\\u20ac"',
    'GET /v1/categories?name=%E2%82%AC%E2%82%AC%20x HTTP/1.1',
    '=?utf-8?Q?Caf=C3=A9_=C3=A0_la_cr=C3=A8me?=',
    '&#x48;&#x65;&#x6C;&#x6C;&#x6F;, world',
    "b'\\xff\\xfeH\\x00i\\x00'",
  ])
    expect(redact(text)).toBe(text)
})

// each run of a form several characters long for each of the key's is as long as the key's own runs take in it: runs of
// 12 characters of its UTF-16 hex were 3 of the key's, hidden in a dump of any other text that held those 3
test("the key's bytes written out, in part: a dump of other text that shares a few characters with the key is left", () => {
  const key = 'cnry-3f9a1c0b77d2e4a5b6c7d8e9+/Z='
  const other = 'cnry-3fXX and 9a1cYY, 0b77'
  for (const text of [utf16(other, 'le').toString('hex'), [...utf16(other, 'le')].map((b) => hex2(b).toUpperCase()).join('-'), Buffer.from(other).toString('hex'), utf16(other, 'le').toString('base64')])
    expect(createRedactor(key)(`dump: ${text}`)).toBe(`dump: ${text}`)
})

test('a run of escapes that holds the key is hidden whole, and the text around it kept', () => {
  const key = 'cnry-3f9a1c0b77d2e4a5b6c7d8e9+/Z='
  const echoed = JSON.stringify(utf16(key, 'le').toString('latin1')).slice(1, -1)
  expect(createRedactor(key)(`{"message":"invalid token '${echoed}'","code":"\\u0041\\u0042"}`)).toBe(`{"message":"invalid token '${REDACTED}'","code":"\\u0041\\u0042"}`)
})

test('megabytes of escapes, holding no key or the key at their end, are redacted in seconds at most, never a RangeError', () => {
  const key = 'cnry-3f9a1c0b77d2e4a5b6c7d8e9+/Z='
  const redact = createRedactor(key)
  const echoed = JSON.stringify(utf16(key, 'le').toString('latin1')).slice(1, -1)
  for (const text of ['\\u0000'.repeat(1_000_000), '%41'.repeat(200_000), `${'\\u0041'.repeat(200_000)}${echoed}`]) {
    const started = performance.now()
    const out = redact(text)
    // a pattern's repetition over such a run overflowed V8's stack (RangeError) before the loop of runFrom; 0.4 s of CPU for the first
    expect(performance.now() - started).toBeLessThan(10_000)
    expect(out.includes(echoed)).toBe(false)
  }
})
