/**
 * The key written a character or a few an element (`<span>s</span><span>k</span>…`), as an HTML
 * error page that colours each character, or a template that wraps every few, writes it
 * (lib/http/secret-markup.ts, ladderHidden). Each piece was too short a run to be hidden, and the
 * tags' letters stand between them, which the steps that join a secret's characters do not cross:
 * the key stood whole to anyone reading the page, in report.html and results.json (securehunt13).
 * And pages of the same shape without the key (a report's own tables), left as they are.
 */
import { describe, expect, test } from 'vitest'
import { createRedactor, REDACTED } from '../../lib/http/redact.ts'

const KEYS = ['sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'Zq8xK2mP9vL4nR7tW1yB', 'petstore-staging-key-2024', 'hunter2x99']

/** `key` in pieces of `size`, each inside `open` … `close`. */
const elements = (key: string, size: number, open = '<span>', close = '</span>') => (key.match(new RegExp(`[^]{1,${size}}`, 'g')) ?? []).map((piece) => `${open}${piece}${close}`).join('')
/** What a reader sees: the tags (raw, HTML-escaped or JSON-escaped) taken out. */
const read = (text: string) => text.replace(/(?:<|\\u003c|&lt;)(?:\/?[a-z](?:[^<>"]|"[^"]*")*?|!--.*?--)(?:>|\\u003e|&gt;)/gi, '')

describe.each(KEYS)('key %s', (key) => {
  test.each([
    ['a character a <span>', (k: string) => elements(k, 1)],
    ['two characters a <b class="c">', (k: string) => elements(k, 2, '<b class="c">', '</b>')],
    ['three characters a <td>, in a row', (k: string) => `<tr>${elements(k, 3, '<td>', '</td>')}</tr>`],
    ['a character a <span style>, the first outside', (k: string) => k[0] + elements(k.slice(1), 1, '<span style="color:red">', '</span>')],
    ['five characters a <i>, a <wbr> between', (k: string) => elements(k, 5, '<i>', '</i><wbr>')],
    ['eleven characters a <code>', (k: string) => elements(k, 11, '<code>', '</code>')],
    ['a character a <li>, a line each', (k: string) => elements(k, 1, '<li>', '</li>\n')],
    ['a character a <span> with a style of 100 characters', (k: string) => elements(k, 1, `<span style="${'color:#ff0000;'.repeat(7)}font-weight:bold">`, '</span>')],
    ['a character a custom element of a long name', (k: string) => elements(k, 1, '<x-very-long-custom-element-name-here>', '</x-very-long-custom-element-name-here>')],
    ['a character a <span> whose title quotes a >', (k: string) => elements(k, 1, '<span title="a>b">', '</span>')],
    ['a character a line, <br> after each', (k: string) => [...k].join('<br>\n')],
    ['two characters a line, <br> after each, the last piece after the last tag', (k: string) => (k.match(/[^]{1,2}/g) ?? []).join('<br>\n')],
    ['four characters a line, <br/> after each, indented', (k: string) => (k.match(/[^]{1,4}/g) ?? []).join('<br/>\n    ')],
    ['two characters between comments', (k: string) => elements(k, 2, '<!--x-->', '')],
    ['two characters a <span>, a line each, indented', (k: string) => elements(k, 2, '\n      <span>', '</span>')],
    ['a character a <span>, a line each, indented 20 (a template nested five deep)', (k: string) => elements(k, 1, `\n${' '.repeat(20)}<span>`, '</span>')],
    ['three characters a line, <br> after each, indented 24', (k: string) => (k.match(/[^]{1,3}/g) ?? []).join(`<br>\n${' '.repeat(24)}`)],
  ])('%s is hidden: in a page, in JSON, escaped as Go and as HTML escape it', (_form, written) => {
    const page = `<p>Invalid key: ${written(key)} (expired)</p>`
    const texts = [page, JSON.stringify({ html: page }), JSON.stringify({ html: page }).replace(/</g, '\\u003c').replace(/>/g, '\\u003e'), page.replace(/</g, '&lt;').replace(/>/g, '&gt;')]
    for (const text of texts) {
      const out = createRedactor(key)(text)
      expect(out, out).toContain(REDACTED)
      const shown = read(out)
      for (let at = 0; at + 6 <= key.length; at++) expect(shown, out).not.toContain(key.slice(at, at + 6))
      // what stands around it is kept
      expect(shown).toContain('Invalid key: ')
      expect(shown).toContain(' (expired)')
    }
    expect(createRedactor(key)(page)).toMatch(/^<p>Invalid key: [^]{0,200}\[REDACTED\][^]{0,200} \(expired\)<\/p>$/)
  })
})

test('pages of short pieces between tags and no key are left as they are', () => {
  const pages = [
    '<table><tr><td>GET</td><td>200</td><td>sk_live</td><td>4eC3</td></tr></table>',
    '<ul><li>a</li><li>b</li><li>c</li></ul><p>Error <b>500</b>: <code>internal</code></p>',
    elements('not-the-key-at-all-0123456789', 1),
    JSON.stringify({ html: elements('Ab3dE5gH7jK9mN1pQ2rS', 2) }),
  ]
  for (const key of KEYS) for (const page of pages) expect(createRedactor(key)(page)).toBe(page)
})

test('a page with the key in elements and echoed plain: each hidden, the findings between kept', () => {
  for (const key of KEYS) {
    const finding = '<li>list-returns-200 <b>passed</b></li>'
    const text = `a ${key} b ${finding} <p>${elements(key, 2)}</p> ${finding} c ${key} d`
    expect(createRedactor(key)(text)).toBe(`a ${REDACTED} b ${finding} <p><span>${REDACTED}</span></p> ${finding} c ${REDACTED} d`)
  }
})

test("a page HTML-escaped, then JSON-escaped as Go's encoding/json does (& as \\u0026): its ladders are read too", () => {
  for (const key of KEYS) {
    const page = `<p>Invalid key: ${elements(key, 1)} (expired)</p>`.replace(/</g, '&lt;').replace(/>/g, '&gt;')
    const text = JSON.stringify({ error: page }).replace(/&/g, '\\u0026')
    const out = createRedactor(key)(text)
    expect(out, out).toContain(REDACTED)
    const shown = out.replace(/\\u0026lt;[^]*?\\u0026gt;/g, '')
    for (let at = 0; at + 6 <= key.length; at++) expect(shown, out).not.toContain(key.slice(at, at + 6))
    expect(shown).toContain('Invalid key: ')
  }
})
