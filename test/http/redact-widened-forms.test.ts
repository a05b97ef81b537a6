/**
 * Forms of the key a server may echo that stood whole in every report (securehunt12): its bytes
 * listed in zero-padded decimal (`115 107 095 …`, C's `%03d`, a log's aligned columns), whole or cut
 * short, and the key in fullwidth forms (`ｓｋ＿ｌｉｖｅ＿…`, a Japanese service that widens every
 * field it shows). And texts of the same shapes without the key, left as they are.
 */
import { describe, expect, test } from 'vitest'
import { createRedactor, REDACTED } from '../../lib/http/redact.ts'

const KEYS = ['sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'Zq8xK2mP9vL4nR7tW1yB', 'petstore-staging-key-2024', 'hunter2x99']
const padded = (key: string, between: string, from = 0, to = key.length) => [...Buffer.from(key.slice(from, to))].map((b) => String(b).padStart(3, '0')).join(between)
const wide = (text: string) => text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0))

describe.each(KEYS)('key %s', (key) => {
  test.each([
    ['zero-padded decimal, a space between two', (k: string) => padded(k, ' ')],
    ['zero-padded decimal, a comma between two', (k: string) => padded(k, ',')],
    ['zero-padded decimal, two thirds of it', (k: string) => padded(k, ' ', 0, Math.ceil((k.length * 2) / 3))],
    ['zero-padded decimal of "Bearer <key>", 16 a line', (k: string) => padded(`Bearer ${k}`, ' ').replace(/((?:\d{3} ){16})/g, '$1\n')],
    ['fullwidth', (k: string) => wide(k)],
  ])('%s is hidden, in a text and in a JSON string', (_form, echo) => {
    const echoed = echo(key)
    for (const text of [`invalid token: ${echoed} (end)`, JSON.stringify({ error: 'invalid token', got: echoed })]) {
      const out = createRedactor(key)(text)
      expect(out, out).toContain(REDACTED)
      expect(out).not.toContain(echoed)
      for (let at = 0; at + 8 <= key.length; at++) expect(out).not.toContain(padded(key, ' ', at, at + 8))
    }
  })
})

test.each([
  ['zero-padded numbers', 'ids 001 002 003 004 005 006 007 008 009 010'],
  ['zero-padded decimal of other text', padded('Hello, categories of the Pet Store!', ' ')],
  ['fullwidth text', wide('Pet Store categories 2024')],
])('%s are left as they are', (_label, text) => {
  for (const key of KEYS) expect(createRedactor(key)(text)).toBe(text)
})

/**
 * The Basic credentials the suite sends (the key as user and password) echoed base64-encoded again, by a server that writes the
 * Authorization header it got in base64 (`base64("Basic " + base64(key:key))`): two decodings gave the key back (a hostile
 * server's fleet run, securehunt12). At any offset, as a longer text's base64 puts them.
 */
test.each(KEYS.slice(0, 3))('the Basic credentials of the key %s inside base64 again are hidden', (key) => {
  const basic = Buffer.from(`${key}:${key}`).toString('base64')
  for (const before of ['Basic ', 'Authorization: Basic ', 'authorization=Basic  ']) {
    const echoed = Buffer.from(`${before}${basic}`).toString('base64')
    const out = createRedactor(key)(JSON.stringify({ detail: 'unauthorized', echo: echoed }))
    expect(out).toContain(REDACTED)
    const decoded = (JSON.parse(out) as { echo: string }).echo.split(REDACTED).map((part) => Buffer.from(part, 'base64').toString('latin1')).join(' ')
    expect(decoded).not.toContain(basic.slice(0, 16))
    expect(decoded).not.toContain(basic.slice(-16, -2))
  }
})

/**
 * The key broken up by markup that shows nothing, as an HTML error page lets a long token wrap: `<wbr>`, `&shy;`, `&#8203;`
 * every few characters (lib/http/secret-markup.ts). Each piece was too short a run to be hidden, and stood to anyone reading
 * the page as a browser shows it. A page with such markup and no key is left as it is.
 */
describe.each(KEYS.slice(0, 3))('key %s broken up by markup that shows nothing', (key) => {
  test.each([
    ['<wbr> every 8', (k: string) => k.replace(/(.{8})/g, '$1<wbr>')],
    ['<wbr/> every 4', (k: string) => k.replace(/(.{4})/g, '$1<wbr/>')],
    ['&shy; every 6', (k: string) => k.replace(/(.{6})/g, '$1&shy;')],
    ['&#8203; every 8', (k: string) => k.replace(/(.{8})/g, '$1&#8203;')],
    ['&#x200B; every 5', (k: string) => k.replace(/(.{5})/g, '$1&#x200B;')],
  ])('%s is hidden, the page around it kept', (_form, broken) => {
    for (const text of [`<p class="token">Token <code>${broken(key)}</code> has expired.</p>`, JSON.stringify({ html: `<p>${broken(key)}</p>` })]) {
      const out = createRedactor(key)(text)
      const shown = out.replace(/<wbr\s*\/?>|&(?:shy|#8203|#x200B);/gi, '')
      for (let at = 0; at + 6 <= key.length; at++) expect(shown, out).not.toContain(key.slice(at, at + 6))
      expect(out).toContain(REDACTED)
    }
    expect(createRedactor(key)(`<p>Token <code>${broken(key)}</code> has expired.</p>`)).toMatch(/^<p>Token <code>\[REDACTED\].*<\/code> has expired\.<\/p>$/)
  })
})

test('a page with break opportunities and no key is left as it is', () => {
  const page = '<p>Super&shy;cali&shy;fragi&shy;listic <code>3f2b8c1e<wbr>9a4d4e6f<wbr>8b7a1c2d</code> and&#8203;more</p>'
  for (const key of KEYS) expect(createRedactor(key)(page)).toBe(page)
})

// read whole as shown, the stretch from the first change to the last was replaced: one `&shy;` of a server's page and two echoes of the key
// erased every line between them (review53); each echo is hidden where it stands, and a key broken up beside a plain one too
test('a text with markup that shows nothing and the key twice: each echo hidden, what stands between them kept', () => {
  for (const key of KEYS.slice(0, 3)) {
    const redact = createRedactor(key)
    const findings = ['  - list-returns-200               passed', '<p>hyphen&shy;ated word</p>', '  - created-in-list               failed: 1 of 3 records missing']
    const text = [`first echo: ${key}`, ...findings, `second echo: ${key}`].join('\n')
    expect(redact(text)).toBe([`first echo: ${REDACTED}`, ...findings, `second echo: ${REDACTED}`].join('\n'))
    const broken = key.replace(/(.{6})/g, '$1&shy;')
    expect(redact(`a ${key} b <code>${broken}</code> c ${key} d`)).toBe(`a ${REDACTED} b <code>${REDACTED}</code> c ${REDACTED} d`)
  }
})
