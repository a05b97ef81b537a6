/**
 * lib/http/redact.ts: a key a service quotes in an HTML page (its error page, a debug view) comes
 * back with some characters as character references, as each encoder writes them; hidden as
 * surely as the key itself, wherever the references fall.
 */
import { describe, expect, test } from 'vitest'
import { createRedactor, longestForm, REDACTED } from '../../lib/http/redact.ts'

/** A key with a character that encoders escape every few letters (a generated password used as a key): no run of it long enough for the runs to hide. */
const KEY = 'Ab3+dE5/fG7=hJ9+kL1/mN2.pQ4~rS6_tU8-'
/** Only its letters and digits escaped by none. */
const references = (key: string, reference: (c: string) => string) => key.replace(/[^A-Za-z0-9]/g, reference)

describe('createRedactor on a key quoted in HTML', () => {
  test.each([
    ["Go's html/template (+ as &#43;)", KEY.replace(/\+/g, '&#43;')],
    ['OWASP ESAPI (every character but letters and digits, &#x2b;)', references(KEY, (c) => `&#x${c.charCodeAt(0).toString(16)};`)],
    ['decimal references of each', references(KEY, (c) => `&#${c.charCodeAt(0)};`)],
    ["PHP's htmlentities() with ENT_HTML5 (&sol;, &plus;, &equals;, &period;, &lowbar;)", KEY.replace(/\//g, '&sol;').replace(/\+/g, '&plus;').replace(/=/g, '&equals;').replace(/\./g, '&period;').replace(/_/g, '&lowbar;')],
    ['a table written by hand, with the names of look-alikes (&tilde;, &hyphen;)', KEY.replace(/~/g, '&tilde;').replace(/-/g, '&hyphen;').replace(/\+/g, '&plus;')],
    ['upper-case hex with zeros before it (&#X002B;)', references(KEY, (c) => `&#X00${c.charCodeAt(0).toString(16).toUpperCase()};`)],
  ])('%s', (_label, echoed) => {
    const page = `<p>The token ${echoed} is not valid.</p>`
    expect(createRedactor(KEY)(page)).toBe(`<p>The token ${REDACTED} is not valid.</p>`)
    // a cut of a long body looks this far past its end (redactedCut)
    expect(longestForm(KEY)).toBeGreaterThanOrEqual(echoed.length)
  })

  test("every character a reference, letters too (PHP's mb_encode_numericentity, a text hidden from scrapers)", () => {
    const decimal = Array.from(KEY, (c) => `&#${c.charCodeAt(0)};`).join('')
    const hex = Array.from(KEY, (c) => `&#x${c.charCodeAt(0).toString(16)};`).join('')
    expect(createRedactor(KEY)(`a ${decimal} b ${hex} c`)).toBe(`a ${REDACTED} b ${REDACTED} c`)
  })

  test('the near-misses the suite sends are hidden in HTML too', () => {
    const withoutLast = KEY.slice(0, -1)
    expect(createRedactor(KEY)(`<p>${references(withoutLast, (c) => `&#${c.charCodeAt(0)};`)}</p>`)).toBe(`<p>${REDACTED}</p>`)
  })

  test('a key written backwards is hidden too', () => {
    expect(createRedactor(KEY)(`x ${[...KEY].reverse().join('')} y`)).toBe(`x ${REDACTED} y`)
  })

  test("other text's references, and another key's, are left as they are", () => {
    // another key of the same make, sharing no run of it (lib/http/secret-runs.ts hides those)
    const other = 'Xy7+wV2/uT9=sR4+qP6/oN1.mL8~kJ3_iH5-'.replace(/\+/g, '&#43;')
    const text = `<p>Fish &amp; chips &#43; peas &sol; ${other}</p>`
    expect(createRedactor(KEY)(text)).toBe(text)
  })
})
