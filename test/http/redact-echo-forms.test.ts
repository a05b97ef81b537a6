/**
 * lib/http/redact.ts: forms of the key a server may echo that stood whole in every report before
 * (securehunt11, a hostile server echoing each in a 401's body, its reports grepped): its bytes in
 * decimal with a semicolon between two, as 0x hex glued together (`0x5a0x71…`), its hex wrapped over
 * several lines (each line too short a run to be hidden on its own), and base32 of it, inside a
 * longer text too; and a dump of it (xxd, `xxd -c 8`, `xxd -p`, hexdump -C, od -c) whose lines each
 * showed a piece of it, in hex and in their text column. And texts of the same shapes without the key, left as they are.
 */
import { describe, expect, test } from 'vitest'
import { createRedactor, REDACTED } from '../../lib/http/redact.ts'
import { base32 } from '../../lib/http/secret-base32.ts'
import { redactedJsonLines, redactedJsonText } from '../../lib/reporters/json-report.ts'

const KEYS = ['sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'cnf_8f3a2b1c9d7e6f5a4b3c2d1e0f9a8b7c', 'Zq8xK2mP9vL4nR7tW1yB', 'hunter2x99']
const bytesOf = (key: string) => [...Buffer.from(key)]
const hexOf = (key: string) => Buffer.from(key).toString('hex')
/** Every 8 characters of the key, looked for in the redacted text and in its hex and base32 read back. */
function shows(out: string, key: string): string | undefined {
  const digits = out.replace(/\\[rn]/g, '').replace(/[^0-9a-fA-F]/g, '')
  const readings = [out, Buffer.from(digits, 'hex').toString('latin1'), Buffer.from(digits.slice(1), 'hex').toString('latin1')]
  for (let at = 0; at + 8 <= key.length; at++) {
    const run = key.slice(at, at + 8)
    if (readings.some((text) => text.includes(run))) return run
    if (at % 5 === 0 && out.toUpperCase().includes(base32(Buffer.from(run)).slice(0, 12))) return run
  }
  return undefined
}

type Echo = [string, (key: string) => string]

const ECHOES: Echo[] = [
  ['decimal bytes, a semicolon between two', (k: string) => bytesOf(k).join(';')],
  ['decimal bytes, a semicolon and a space between two', (k: string) => bytesOf(k).join('; ')],
  ['0x hex glued together', (k: string) => bytesOf(k).map((b) => `0x${b.toString(16)}`).join('')],
  ['0X hex glued together, two digits each', (k: string) => bytesOf(k).map((b) => `0X${b.toString(16).padStart(2, '0').toUpperCase()}`).join('')],
  ...[8, 10, 12, 16, 20, 32].map((width): Echo => [`hex wrapped at ${width} digits`, (k: string) => hexOf(k).replace(new RegExp(`(.{${width}})(?!$)`, 'g'), '$1\n')]),
  ['hex wrapped at 16 digits, CRLF and an indent', (k: string) => hexOf(k).replace(/(.{16})(?!$)/g, '$1\r\n    ')],
  ['hex wrapped at 12 digits in a JSON string', (k: string) => JSON.stringify(hexOf(k).replace(/(.{12})(?!$)/g, '$1\n'))],
  ['hex spaced, wrapped at 6 bytes', (k: string) => hexOf(k).replace(/(..)(?!$)/g, '$1 ').replace(/((?:.. ){6})/g, '$1\n')],
  ['base32', (k: string) => base32(Buffer.from(k))],
  ['base32, lower-case', (k: string) => base32(Buffer.from(k)).toLowerCase()],
  ['base32 cut short by 3 characters at each end', (k: string) => base32(Buffer.from(k)).slice(3, -3)],
  ...[1, 2, 3, 4, 5].map((offset): Echo => [`base32 of "Bearer <key>", the key at byte ${offset + 2}`, (k: string) => base32(Buffer.from(`Bearer ${k}`.slice(5 - offset)))]),
]

describe.each(KEYS)('key %s', (key) => {
  test.each(ECHOES)('%s is hidden', (_form, echo) => {
    const echoed = echo(key)
    const out = createRedactor(key)(`{"error":"invalid token", "got": ${JSON.stringify(echoed)}}\nraw: ${echoed} (end)`)
    expect(out).toContain(REDACTED)
    expect(shows(out, key)).toBeUndefined()
  })
})

test('a key inside a long text in hex wrapped at 32 digits is hidden, and only the lines around it', () => {
  const key = KEYS[0]!
  const text = `${'The Pet Store keeps categories. '.repeat(20)}Authorization: Bearer ${key}\r\n${'Each category has a name. '.repeat(20)}`
  const lines = Buffer.from(text).toString('hex').replace(/(.{32})/g, '$1\n').trimEnd()
  const out = createRedactor(key)(`dump:\n${lines}\n(end)`)
  expect(shows(out, key)).toBeUndefined()
  expect(out.startsWith(`dump:\n${lines.slice(0, 320)}`)).toBe(true)
  expect(out.endsWith(`${lines.slice(-320)}\n(end)`)).toBe(true)
})

/** Dumps as the tools print them: xxd (`-c` bytes a line, `-g` bytes a group), `xxd -p`, `hexdump -C`, `od -c`. */
const offsetHex = (at: number) => at.toString(16).padStart(8, '0')
const shown = (b: number) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')
const lines = (bytes: Buffer, width: number, line: (slice: Buffer, at: number) => string) => Array.from({ length: Math.ceil(bytes.length / width) }, (_, i) => line(bytes.subarray(i * width, i * width + width), i * width)).join('\n') + '\n'
const xxd = (width: number, group: number) => (bytes: Buffer) =>
  lines(bytes, width, (slice, at) => {
    const hex = slice.toString('hex').replace(new RegExp(`(.{${2 * group}})(?!$)`, 'g'), '$1 ')
    return `${offsetHex(at)}: ${hex.padEnd(Math.ceil(width / group) * (2 * group + 1) - 1)}  ${[...slice].map(shown).join('')}`
  })
const DUMPS: [string, (bytes: Buffer) => string][] = [
  ['xxd', xxd(16, 2)],
  ['xxd -g 0', xxd(16, 16)],
  ['xxd -c 8', xxd(8, 2)],
  ['xxd -p', (bytes) => bytes.toString('hex').replace(/(.{60})/g, '$1\n') + '\n'],
  ['hexdump -C', (bytes) => lines(bytes, 16, (slice, at) => `${offsetHex(at)}  ${[...slice].map((b, i) => b.toString(16).padStart(2, '0') + (i === 7 ? ' ' : '')).join(' ').padEnd(48)}  |${[...slice].map(shown).join('')}|`)],
  ['od -c', (bytes) => lines(bytes, 16, (slice, at) => at.toString(8).padStart(7, '0') + [...slice].map((b) => (b === 13 ? '  \\r' : b === 10 ? '  \\n' : b >= 0x20 && b < 0x7f ? `   ${String.fromCharCode(b)}` : ` ${b.toString(8).padStart(3, '0')}`)).join(''))],
]
/** The key's characters a dump's lines show, read joined: its text, its hex (offsets and text columns taken off), its od -c cells. */
function dumpShows(out: string, key: string): string | undefined {
  const hex = out.split('\n').map((line) => line.replace(/^[0-9a-f]{6,8}:? ?/, '').replace(/\s{2,}\S*$/, '')).join('').replace(/[^0-9a-fA-F]/g, '')
  const cells = out.replace(/^[0-7]{7} ?/gm, '').replace(/\n/g, '').replace(/ {1,3}(\S)/g, '$1')
  const bytes = (digits: string) => Buffer.from(digits, 'hex').toString('latin1').replaceAll('\u0000', '')
  const views = [out, out.replace(/[.\s]/g, ''), bytes(hex), bytes(hex.slice(1)), cells]
  for (let at = 0; at + 8 <= key.length; at++) if (views.some((view) => view.includes(key.slice(at, at + 8)))) return key.slice(at, at + 8)
  return undefined
}

describe.each(DUMPS)('%s of "Bearer <key>", at any offset', (_tool, dump) => {
  test.each(KEYS.slice(0, 3))('the key %s is hidden, its pieces on each line too', (key) => {
    for (let offset = 0; offset < 24; offset++) {
      const out = createRedactor(key)(dump(Buffer.from(`${'x'.repeat(offset)}Bearer ${key}\r\n`)))
      expect(dumpShows(out, key), `at ${offset}:\n${out}`).toBeUndefined()
    }
  })
  test.each(KEYS.slice(0, 2))('the key %s in UTF-16 (a .NET service\'s Encoding.Unicode) is hidden, its pieces on each line too', (key) => {
    for (let offset = 0; offset < 16; offset++) {
      const out = createRedactor(key)(dump(Buffer.from(`${'x'.repeat(offset)}Bearer ${key}\r\n`, 'utf16le')))
      expect(dumpShows(out, key), `at ${offset}:\n${out}`).toBeUndefined()
    }
  })
  test.each(KEYS.slice(0, 2))('the key %s in a dump inside a JSON string (an error body) is hidden, its pieces on each line too', (key) => {
    for (let offset = 0; offset < 16; offset++) {
      const out = createRedactor(key)(JSON.stringify({ error: 'invalid token', dump: dump(Buffer.from(`${'x'.repeat(offset)}Bearer ${key}\r\n`)) }))
      expect(dumpShows((JSON.parse(out) as { dump: string }).dump, key), `at ${offset}:\n${out}`).toBeUndefined()
    }
  })
  test('a dump without the key is left as it is', () => {
    const text = dump(Buffer.from('GET /v1/categories HTTP/1.1\r\nHost: api.example\r\nAccept: application/json\r\n\r\n'))
    for (const key of KEYS) for (const shown of [text, JSON.stringify({ dump: text })]) expect(createRedactor(key)(shown)).toBe(shown)
  })
})

test.each([
  ['a SHA-256 in hex wrapped at 32 digits', 'sha256:\n9f86d081884c7d659a2f0b0c3e4a5b6c\n1d4b6e8f0a2c4e6f8a0b2c4d6e8f0a1b\n'],
  ['text in hex wrapped, without the key', `${Buffer.from('Hello, categories of the Pet Store!').toString('hex').replace(/(.{16})/g, '$1\n')}`],
  ['ids with semicolons', 'ids=101;102;103;104;105;106;107;108;109'],
  ['a text as 0x bytes glued, without the key', bytesOf('Hello, world').map((b) => `0x${b.toString(16)}`).join('')],
  ['base32 of other text', base32(Buffer.from('a conforming category name 12345'))],
  ['UUIDs a line each', '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b\n0e1d2c3b-4a59-4687-9a0b-1c2d3e4f5a6b\n'],
])('%s is left as it is', (_label, text) => {
  for (const key of KEYS) expect(createRedactor(key)(text)).toBe(text)
})

/** `hexdump` without -C and `od -x`: 16-bit words, little-endian (`6b73` is "sk"), the last line padded with spaces, then the length's offset alone. */
const littleEndianDump = (octal: boolean) => (bytes: Buffer) => {
  const even = Buffer.concat([bytes, Buffer.alloc(bytes.length % 2)])
  const offset = (at: number) => at.toString(octal ? 8 : 16).padStart(7, '0')
  const words = (slice: Buffer) => Array.from({ length: slice.length / 2 }, (_, i) => slice.subarray(2 * i, 2 * i + 2).reverse().toString('hex')).join(' ')
  return lines(even, 16, (slice, at) => `${offset(at)} ${words(slice).padEnd(octal ? 0 : 39)}`) + `${offset(bytes.length)}\n`
}
/** The bytes of a little-endian dump's words, turned back, read as text. */
const wordsRead = (out: string) =>
  Buffer.from((out.match(/(?<= )[0-9a-f]{4}(?= |$)/gm) ?? []).map((word) => word.slice(2) + word.slice(0, 2)).join(''), 'hex').toString('latin1')

describe.each([['hexdump', littleEndianDump(false)], ['od -x', littleEndianDump(true)]] as const)('%s of "Bearer <key>" (little-endian words), at any offset', (_tool, dump) => {
  test.each(KEYS)('the key %s is hidden, its pieces on each line too', (key) => {
    for (let offset = 0; offset < 20; offset++) {
      const out = createRedactor(key)(dump(Buffer.from(`${'x'.repeat(offset)}Bearer ${key}`)))
      const read = wordsRead(out)
      for (let at = 0; at + 8 <= key.length; at++) expect(read, `at ${offset}:\n${out}`).not.toContain(key.slice(at, at + 8))
    }
  })
  test('of a key of 8 on one line, the key is hidden', () => {
    const out = createRedactor('Xk9pQ2mZ')(dump(Buffer.from('Xk9pQ2mZ')).split('\n')[0]!)
    expect(wordsRead(out)).not.toContain('Xk9pQ2mZ')
  })
  test('a dump without the key is left as it is', () => {
    const text = dump(Buffer.from('GET /v1/categories HTTP/1.1\r\nHost: api.example\r\nAccept: application/json\r\n\r\n'))
    for (const key of KEYS) expect(createRedactor(key)(text)).toBe(text)
  })
})

/**
 * A key whose runs read as a word or a number (hidden whole only, secret-runs.ts) stood whole listed with semicolons, as glued 0x
 * hex, wrapped, in a dump: their bytes were looked for the key's runs alone, where its commas' list is one of its forms.
 */
describe.each(['12345678', 'CATEGORIES', 'deadbeef'])('a key %s of no run hidden alone', (key) => {
  test.each([...ECHOES.slice(0, 4), ECHOES[6]!, ...DUMPS.map(([tool, dump]): Echo => [tool, (k) => dump(Buffer.from(`Bearer ${k}`))])])('%s is hidden whole', (_form, echo) => {
    const echoed = echo(key)
    const out = createRedactor(key)(`got:\n${echoed}`)
    expect(out).toContain(REDACTED)
    expect(shows(out, key), out).toBeUndefined()
    expect(dumpShows(out, key), out).toBeUndefined()
  })
})

/**
 * A dump that ends a JSON body without a line break after its last line, the body a string of journal.ndjson's lines and of
 * results.json: its last line read on past the string's end, as its text column. In a line of journal.ndjson, the JSON after it
 * was replaced (the line no longer parsed); a dump's line cut there by the next line of the journal was no dump line, its
 * offset hidden and the key's characters after it shown.
 */
describe.each(DUMPS.slice(0, 5))('%s ending a JSON body, in journal.ndjson and results.json', (_tool, dump) => {
  test.each(KEYS.slice(0, 2))('the key %s is hidden, and every line still parses', (key) => {
    const redact = createRedactor(key)
    for (let offset = 0; offset < 24; offset++) {
      const body = JSON.stringify({ error: 'invalid token', dump: dump(Buffer.from(`${'x'.repeat(offset)}Bearer ${key}`)).trimEnd() })
      const line = JSON.stringify({ id: 'r1', body, phase: 'answered', status: 401 })
      const journal = redactedJsonLines(`${line}\n${line}`, redact)
      const results = redactedJsonText(JSON.stringify({ checks: [{ body, status: 401 }] }, null, 2), redact)
      for (const text of [...journal.split('\n'), results]) {
        const parsed = JSON.parse(text) as { body?: string; checks?: { body: string }[] }
        const shownBody = parsed.body ?? parsed.checks![0]!.body
        expect(dumpShows(shownBody.replace(/^\{"error":"invalid token","dump":"/, '').replaceAll('\\n', '\n'), key), `at ${offset}:\n${text}`).toBeUndefined()
      }
    }
  })
})

test.each(KEYS.slice(0, 2))('a dump of a JSON body in a text of escaped line breaks and raw quotes (a repr) hides the key %s, the quotes of its text column too', (key) => {
  for (let offset = 0; offset < 16; offset++) {
    const dumped = xxd(16, 2)(Buffer.from(`${'x'.repeat(offset)}{"apiKey":"${key}","scope":"all"}`)).trimEnd()
    const out = createRedactor(key)(`body: '${dumped.replaceAll('\n', '\\n')}' (end)`)
    expect(dumpShows(out.replaceAll('\\n', '\n'), key), `at ${offset}:\n${out}`).toBeUndefined()
    for (let at = 0; at + 5 <= key.length; at++) expect(out, `at ${offset}`).not.toContain(key.slice(at, at + 5))
  }
})
