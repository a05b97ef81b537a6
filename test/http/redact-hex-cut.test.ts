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
  ['hex cut inside its first byte', hex.slice(1)],
  ['hex after an odd digit of a trace id', `7d1a8e2e5d644caadc38498cc5a12345a${hex}`],
  ['UTF-16 hex after an odd digit', `e${utf16}`],
])('two thirds of the key in %s is hidden', (_, form) => {
  const text = `{"echo":"${form}","next":1}`
  const redacted = createRedactor(KEY)(text)
  expect(redacted).not.toContain(form)
  expect(redacted).toContain('[REDACTED]')
  expect(redacted).toContain('"next":1')
})

test.each(['is a ', 'date 2024-11-28 ', 'id 12345-', 'v1:', '00-7d1a8e2e5d644caadc38498cc5a123451-'])('two thirds of the key in hex after %j (a digit and a separator, where no run of hex starts) is hidden', (before) => {
  const redacted = createRedactor(KEY)(`{"echo":"${before}${hex}","next":1}`)
  // the window of a long run's that holds it (with the hex before it, if any)
  expect(redacted).toMatch(/^\{"echo":"[^"]*\[REDACTED\]","next":1\}$/)
  for (let at = 0; at + 16 <= hex.length; at += 2) expect(redacted).not.toContain(hex.slice(at, at + 16))
})

test("a report's own hex stays: a traceparent, a UUID, a SHA-256, an ASCII word's hex", () => {
  const own = 'traceparent: 00-7d1a8e2e5d644caadc38498cc5a02f8f-98cae0f4af853d79-01 id 3f2b8c1e-9a4d-4e7b-b6c5-2d1f0e9a8b7c sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 name ' + Buffer.from('categories-conformance').toString('hex')
  expect(createRedactor(KEY)(own)).toBe(own)
})

/** A dump's bytes that read as no text (no six printable ASCII in a row), `count` of them. */
const dump = (count: number, seed = 1) => Array.from({ length: count }, (_, i) => (((i + seed) * 151) % 32) + (i % 2 ? 0x80 : 0)).map((b) => b.toString(16).padStart(2, '0')).join('')

test.each([
  ['at its end', (h: string) => dump(300) + h],
  ['at its start', (h: string) => h + dump(300)],
  ['in its middle', (h: string) => dump(300) + h + dump(300)],
  ['a digit in, at the odd alignment', (h: string) => '7' + dump(300) + h + dump(300)],
  ['BitConverter', (h: string) => (dump(300) + h + dump(300)).toUpperCase().replace(/..(?!$)/g, '$&-')],
])('two thirds of the key in a run of hex longer than 256 bytes are hidden, %s, and only the windows around them', (_, make) => {
  const run = make(hex)
  const redacted = createRedactor(KEY)(`{"dump":"${run}"}`)
  expect(redacted).toContain('[REDACTED]')
  const digits = redacted.replace(/[-:]/g, '').toLowerCase()
  for (let at = 0; at + 16 <= hex.length; at += 2) expect(digits).not.toContain(hex.slice(at, at + 16))
  // a window of 128 bytes on each side of it at most: the rest of the dump stays
  expect(redacted.length).toBeGreaterThan(run.length / 2)
})

test.each([
  ['Python and Node, cut short', (b: number[]) => `[${b.join(', ')}, …]`],
  ['commas alone', (b: number[]) => b.join(',')],
  ["Go's []byte", (b: number[]) => `[${b.join(' ')}`],
  ['its last number cut short', (b: number[]) => `[${b.join(', ')}, 1`],
  ['a C array in hex', (b: number[]) => `{ ${b.map((x) => `0x${x.toString(16).toUpperCase()}`).join(', ')} }`],
  ['JSON pretty-printed, its line breaks escaped (a body in the journal)', (b: number[]) => JSON.stringify(JSON.stringify(b, null, 2)).slice(1, -1)],
  ['of UTF-16, a 0 after each', (b: number[]) => `[${b.flatMap((x) => [x, 0]).join(', ')}]`],
  ["in hex without 0x: Rust's {:x?} (review40)", (b: number[]) => `[${b.map((x) => x.toString(16)).join(', ')}]`],
])('two thirds of the key listed in decimal bytes are hidden: %s', (_, make) => {
  const listed = make([...Buffer.from(cut)])
  const redacted = createRedactor(KEY)(`{"echo":"${listed}","next":1}`)
  expect(redacted).not.toContain(Buffer.from(cut).subarray(0, 8).join(''))
  expect(redacted).not.toMatch(/(?:(?:0x)?[0-9A-F]+(?:[, ]|\\n)+){5}(?:0x)?[0-9A-F]+/)
  expect(redacted).toContain('"next":1')
})

test('a secret header value beyond ASCII (Latin-1), cut short: as text, in UTF-8 hex, Latin-1 hex, and decimal', () => {
  const secret = 'clé-sécrète-9aQ7zX2-ünïcødé'
  const redact = createRedactor(KEY, secret)
  for (const bytes of [Buffer.from(secret), Buffer.from(secret, 'latin1')]) {
    const part = bytes.subarray(0, Math.ceil((bytes.length * 2) / 3))
    for (const form of [part.toString('hex'), part.toString('hex').toUpperCase().replace(/..(?!$)/g, '$&-'), `[${[...part].join(', ')}]`, part.toString(bytes.length === secret.length ? 'latin1' : 'utf8')]) {
      expect(redact(`{"echo":"${form}"}`)).toMatch(/^\{"echo":"\[?\[REDACTED\]\]?"\}$/)
    }
  }
})

test("a report's own numbers and dumps stay: statuses, durations, a dump without text, a version", () => {
  const own = `statuses [200, 201, 204, 400, 401, 404] times 12, 15, 9, 33, 41, 7 ms, version 1.2.3 dump ${dump(400)} ${dump(300).toUpperCase().replace(/..(?!$)/g, '$&-')} list [${[...Buffer.from('categories-conformance')].join(', ')}]`
  expect(createRedactor(KEY)(own)).toBe(own)
  expect(createRedactor(KEY, 'clé-sécrète-9aQ7zX2-ünïcødé')(own)).toBe(own)
})

test.each([
  ['8 MB of 1,', () => '1,'.repeat(4 * 1048576)],
  ['seven bytes and 10 MB of spaces (a create answer\'s id)', () => `41 42 43 44 45 46 47${' '.repeat(10 * 1048576)}x`],
  ['8 MB of 1 and a space', () => '1 '.repeat(4 * 1048576)],
])('a list of bytes megabytes long is redacted without running out of stack: %s', (_, make) => {
  // one pattern over the whole list threw RangeError (Maximum call stack size exceeded): each check that redacted it ended as CHECK_ERROR
  const text = make()
  expect(createRedactor(KEY)(text) === text).toBe(true)
})

test('the key listed in decimal past the first 4096 bytes of a list is hidden (the list walked a step at a time)', () => {
  const noise = Array.from({ length: 9000 }, (_, i) => (i * 7) % 32)
  const listed = `[${[...noise, ...Buffer.from(cut)].join(', ')}]`
  const redacted = createRedactor(KEY)(`{"echo":"${listed}","next":1}`)
  expect(redacted).toBe('{"echo":"[[REDACTED]]","next":1}')
})
