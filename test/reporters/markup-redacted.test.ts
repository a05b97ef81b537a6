/**
 * lib/reporters/markup-redacted.ts: report.html, junit.xml and fleet.html redacted whole, as every
 * report is, but never in their own markup: a key that is a piece of markup or of an escape hid the
 * files' tags or cut a reference (securehunt13). A file whose markup the whole pass keeps is taken as
 * it comes; a file with nothing to hide is left as it is.
 */
import { expect, test } from 'vitest'
import { createRedactor, REDACTED } from '../../lib/http/redact.ts'
import { redactedMarkupText } from '../../lib/reporters/markup-redacted.ts'
import { parseXml } from './xml.ts'

const junit = (text: string, attribute = 'GET /categories') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="s"><testsuite name="x" tests="1"><testcase classname="r" name="${attribute}"><failure message="m">${text}</failure></testcase></testsuite></testsuites>\n`

test.each([
  ['</testcase>', `answered &lt;/testcase&gt; and &lt;p&gt;testcase&lt;/p&gt;`],
  ['lt;script', 'the page held &lt;script&gt;alert(1)&lt;/script&gt; and lt;script'],
  ['amp;amp;x', 'a &amp;amp;x b &amp;amp;amp;x c amp;amp;x'],
  ['</failure><x>', 'the key &lt;/failure&gt;&lt;x&gt;'],
])('key %s: the file parses, its echo hidden, the escapes of other text kept', (key, text) => {
  const redact = createRedactor(key)
  const out = redactedMarkupText(junit(text), redact)
  expect(() => parseXml(out)).not.toThrow()
  expect(out).toContain(REDACTED)
  expect(out).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="s"><testsuite name="x" tests="1"><testcase classname="r" name="GET \/categories"><failure message="m">/)
  expect(out).not.toMatch(/&(?![a-zA-Z][a-zA-Z0-9]*;|#[0-9]+;|#x[0-9a-fA-F]+;)/)
  // read, the text holds the key nowhere
  expect(parseXml(out).children[0]!.children[0]!.children[0]!.text).not.toContain(key)
})

test('a key in an attribute value of a page with a key-like tag: the value hidden, the tags kept', () => {
  const key = '</testcase>'
  const out = redactedMarkupText(junit('x', `GET with ${key.replace(/</g, '&lt;').replace(/>/g, '&gt;')}`), createRedactor(key))
  expect(() => parseXml(out)).not.toThrow()
  expect(out).toContain(`name="GET with ${REDACTED}"`)
})

test('the echo read as text is written again as markup: a log command stays a reference, characters past ASCII too', () => {
  const key = '</td><td>'
  const html = `<table><tr><td>::error::x &lt;/td&gt;&lt;td&gt; \u00e9</td><td>b</td></tr></table>`
  const out = redactedMarkupText(html, createRedactor(key))
  expect(out).toBe(`<table><tr><td>&#58;:error::x ${REDACTED} &#233;</td><td>b</td></tr></table>`)
})

test('files with nothing to hide, or whose markup the whole pass keeps, come as the whole pass makes them', () => {
  for (const key of ['sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'Zq8xK2mP9vL4nR7tW1yB', 'hunter2x99']) {
    const redact = createRedactor(key)
    const page = junit('answered 500 &lt;b&gt;x&lt;/b&gt; &amp; more')
    expect(redactedMarkupText(page, redact)).toBe(page)
    const echoed = junit(`invalid key ${key}`)
    expect(redactedMarkupText(echoed, redact)).toBe(redact(echoed))
    expect(redactedMarkupText(echoed, redact)).toContain(`invalid key ${REDACTED}`)
  }
})
