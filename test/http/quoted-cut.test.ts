/**
 * lib/http/quoted-cut.ts: a server's text a failure quotes cut short is redacted before the cut. Cut
 * first (cutClearOfSecrets alone), a key echoed whole was left a piece no report hides: a key a
 * character at a time kept 28 of its 36 letters and digits, a key glued to the text before it its first 9.
 */
import { expect, test } from 'vitest'
import { shownValue } from '../../lib/checks/category.ts'
import { createRedactor, REDACTED } from '../../lib/http/redact.ts'

const KEY = 'Ab3dEf9hIj+Kl2nOp4rSt/Uv6xYz8bCd+Fg0iJk2mN='
const letters = (text: string) => text.replace(/[^A-Za-z0-9]/g, '').toLowerCase()
const piecesShown = (text: string) => {
  const key = letters(KEY)
  for (let length = key.length; length >= 6; length--) for (let at = 0; at + length <= key.length; at++) if (letters(text).includes(key.slice(at, at + length))) return key.slice(at, at + length)
  return ''
}

test.each([
  ['a zero-width space after each character, 60 characters in', 'n'.repeat(60) + [...KEY].join('\u200b')],
  ['a space after each character, 60 characters in', 'n'.repeat(60) + [...KEY].join(' ')],
  ['glued to the text before it, 100 characters in', 'n'.repeat(100) + KEY],
  ['glued, 110 characters in', 'x'.repeat(110) + KEY],
])('a record name holding the key %s, quoted at 120 characters: no piece of it', (_label, echoed) => {
  createRedactor(KEY) // the run's redactor: its key is among the secrets given
  const name = `${echoed} and more text after it`
  const shown = shownValue(name)
  expect(shown).toMatch(/… \(\d+ characters\)$/)
  expect(piecesShown(shown), shown).toBe('')
})

test('a long name without a key is cut as before', () => {
  createRedactor(KEY)
  expect(shownValue('x'.repeat(9000))).toBe(`"${'x'.repeat(109)}"… (9000 characters)`)
  expect(shownValue(`${'word '.repeat(30)}`)).toBe(`"${'word '.repeat(24)}"… (150 characters)`)
  expect(shownValue(`${'n'.repeat(30)}${KEY} tail ${'y '.repeat(60)}`)).toContain(`${'n'.repeat(30)}${REDACTED} tail`)
})
