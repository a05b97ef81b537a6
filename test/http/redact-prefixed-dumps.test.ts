/**
 * A dump whose every line carries a log's prefix (a debug endpoint that returns its recent log, a
 * middleware that logs the request's hexdump a line at a time: `web-1  | 00000000: 4265 …`,
 * `2026-11-28T07:50:06.123Z DEBUG dump: 00000010  73 6b …  |sk_live_…|`). Each line shows a piece
 * of the key too short to be hidden alone, in hex and in its text column; read as a dump only where
 * a line began with its offset, the key stood whole over the lines (securehunt12).
 */
import { describe, expect, test } from 'vitest'
import { createRedactor } from '../../lib/http/redact.ts'

const KEYS = ['sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'cnf_8f3a2b1c9d7e6f5a4b3c2d1e0f9a8b7c', 'Zq8xK2mP9vL4nR7tW1yB']
const offsetHex = (at: number) => at.toString(16).padStart(8, '0')
const shown = (b: number) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')
const lines = (bytes: Buffer, width: number, line: (slice: Buffer, at: number) => string) => Array.from({ length: Math.ceil(bytes.length / width) }, (_, i) => line(bytes.subarray(i * width, i * width + width), i * width))
const xxd = (width: number) => (bytes: Buffer) => lines(bytes, width, (slice, at) => `${offsetHex(at)}: ${slice.toString('hex').replace(/(.{4})(?!$)/g, '$1 ').padEnd(Math.ceil(width / 2) * 5 - 1)}  ${[...slice].map(shown).join('')}`)
const hexdumpC = (bytes: Buffer) => lines(bytes, 16, (slice, at) => `${offsetHex(at)}  ${[...slice].map((b, i) => b.toString(16).padStart(2, '0') + (i === 7 ? ' ' : '')).join(' ').padEnd(48)}  |${[...slice].map(shown).join('')}|`)

const PREFIXES: [string, (i: number) => string][] = [
  ['docker compose', () => 'web-1  | '],
  ['a timestamped log line', (i) => `2026-11-28T07:50:${String(6 + i).padStart(2, '0')}.123Z DEBUG dump: `],
  ['a bracketed logger', (i) => `[req ${4000 + i}] `],
]
const DUMPS: [string, (bytes: Buffer) => string[]][] = [['xxd', xxd(16)], ['xxd -c 8', xxd(8)], ['hexdump -C', hexdumpC]]

/** Any 8 characters of the key the lines show, read joined with their prefixes taken off: as text, in their hex, in their text columns. */
function dumpShows(out: string[], key: string): string | undefined {
  const hex = out.map((line) => line.replace(/^.*?(?=[0-9a-f]{8}:? )/, '').replace(/^[0-9a-f]{8}:? ?/, '').replace(/\s{2,}\S*$/, '')).join('').replace(/[^0-9a-fA-F]/g, '')
  const views = [out.join('\n'), out.join('').replace(/[.\s|]/g, ''), Buffer.from(hex, 'hex').toString('latin1'), Buffer.from(hex.slice(1), 'hex').toString('latin1')]
  for (let at = 0; at + 8 <= key.length; at++) if (views.some((view) => view.includes(key.slice(at, at + 8)))) return key.slice(at, at + 8)
  return undefined
}

describe.each(DUMPS)('%s of "Bearer <key>", each line behind a prefix', (_tool, dump) => {
  describe.each(PREFIXES)('%s', (_what, prefix) => {
    test.each(KEYS)('the key %s is hidden at any offset, the prefixes and offsets kept', (key) => {
      for (let offset = 0; offset < 16; offset++) {
        const dumped = dump(Buffer.from(`${'x'.repeat(offset)}Bearer ${key}\r\n`)).map((line, i) => prefix(i) + line)
        const out = createRedactor(key)(['GET /debug/log', ...dumped, '(end)'].join('\n')).split('\n')
        expect(dumpShows(out, key), `at ${offset}:\n${out.join('\n')}`).toBeUndefined()
        expect(out.slice(1, -1).map((line, i) => line.startsWith(prefix(i)))).not.toContain(false)
        // in a JSON string (a body the reports quote) too
        const quoted = createRedactor(key)(JSON.stringify({ log: dumped.join('\n') }))
        expect(dumpShows((JSON.parse(quoted) as { log: string }).log.split('\n'), key), `at ${offset}:\n${quoted}`).toBeUndefined()
      }
    })
    test('a dump without the key is left as it is', () => {
      const text = dump(Buffer.from('GET /v1/categories HTTP/1.1\r\nHost: api.example\r\nAccept: application/json\r\n\r\n')).map((line, i) => prefix(i) + line).join('\n')
      for (const key of KEYS) for (const shownText of [text, JSON.stringify({ log: text })]) expect(createRedactor(key)(shownText)).toBe(shownText)
    })
  })
})
