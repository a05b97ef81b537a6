/**
 * Escapes a run of them (lib/http/secret-escapes.ts) had not known: quoted-printable's soft line
 * break (`=` ending a line, every 76 characters of a MIME part), and character references without
 * their `;`, which browsers decode alike. A key's bytes Q-encoded over three lines, or written
 * `&#x63&#x6e…`, stood whole in every report.
 */
import { expect, test } from 'vitest'
import { createRedactor } from '../../lib/http/redact.ts'

const KEY = 'cnry-9f3a1b2c4d5e6f708192a3b4+/Z='
const qp = [...Buffer.from(KEY)].map((b) => `=${b.toString(16).toUpperCase().padStart(2, '0')}`).join('')

test.each([
  ['quoted-printable, a soft break every 75 characters (CRLF)', qp.replace(/(.{75})/g, '$1=\r\n')],
  ['quoted-printable, a soft break every 30 characters (LF)', qp.replace(/(.{30})/g, '$1=\n')],
  ['hex references without ;', [...KEY].map((c) => `&#x${c.charCodeAt(0).toString(16)}`).join('')],
  ['decimal references without ;, then with', [...KEY].map((c, i) => `&#${c.charCodeAt(0)}${i % 2 ? ';' : ''}`).join('')],
])('the key as %s is hidden', (_, form) => {
  const redacted = createRedactor(KEY)(`<p>token: ${form}</p>`)
  expect(redacted).toBe('<p>token: [REDACTED]</p>')
})

test("a report's own text with = at a line's end and references without ; stays", () => {
  const own = 'a =\nb =\r\nc &#38 &#x26 d = 1\n x=\n'
  expect(createRedactor(KEY)(own)).toBe(own)
})
