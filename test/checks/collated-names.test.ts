/**
 * Names as a store's UNIQUE index compares them (lib/checks/collated-names.ts): a 409 to the
 * suite's "0" or empty name is a repeated name's where the list holds one the store's collation
 * takes for it (measured: MariaDB 10.11's utf8mb4_general_ci refused "0" where "0 " was stored).
 */
import { describe, expect, test } from 'vitest'
import { caseChangedText, sameNameToAStore } from '../../lib/checks/collated-names.ts'

describe('the same name to a store with a default collation', () => {
  test.each([
    ['0', '0 ', 'PAD SPACE: trailing spaces aside (MariaDB, SQL Server)'],
    ['', ' ', 'PAD SPACE: a blank name is the empty one'],
    ['', '\u200b', 'a zero-width space is ignorable (the Unicode collations)'],
    ['Dog', 'dog', 'case aside (general_ci, citext)'],
    ['Café', 'Cafe', 'accents aside (ai_ci)'],
    ['Cafe\u0301', 'Café', 'a decomposed accent is the composed one'],
    ['0', '\uff10', 'a fullwidth digit (uca1400_ai_ci, measured)'],
    ['0', '\u0660', 'an Arabic-Indic digit (uca1400_ai_ci, measured)'],
    ['-0042', '-\u{1d7ce}\u{1d7ce}\u{1d7d2}\u{1d7d0}', 'mathematical bold digits, past the first block of ten'],
    ['0', '0\u{1f407}', "a character past U+FFFF weighs nothing in SQL Server's default collation"],
    ['', '\u0000\ufffe', 'nor do U+0000 and noncharacters there'],
  ])('%j and %j: %s', (a, b) => {
    expect(sameNameToAStore(a, b)).toBe(true)
  })

  test.each([
    ['0', ' 0', 'leading spaces count in every collation'],
    ['0', 'O', 'another letter'],
    ['0', '\u0661', 'another digit'],
    ['', '0', 'the empty name is no "0"'],
    ['cf-ab12c-plain', 'cf-ab12d-plain', "another run's prefix"],
  ])('%j and %j are two names: %s', (a, b) => {
    expect(sameNameToAStore(a, b)).toBe(false)
  })
})

describe('a text given back folded to one case (a name stored as an email address is)', () => {
  test.each([
    ['cf-ab12c-Desc-16', 'cf-ab12c-desc-16', /lower case: .*strings\.ToLower/],
    ['cf-ab12c-Ñandú', 'cf-ab12c-ñandú', /lower case/],
    ['cf-ab12c-dog', 'CF-AB12C-DOG', /upper case: .*strings\.ToUpper/],
  ])('%s given back as %s: named', (sent, got, words) => {
    expect(caseChangedText(sent, got)).toMatch(words)
  })
  // Go folds letter by letter: its name only where its fold gives what came back (review39)
  test.each([
    ['ΟΔΟΣ', 'οδος', /lower case: the service folds it .* \(Python's str\.lower\(\)/],
    ['Straße', 'STRASSE', /upper case: the service folds it .* \(Python's str\.upper\(\)/],
    ['ΟΔΟΣ', 'οδοσ', /lower case: the service folds it .* \(Go's strings\.ToLower, letter by letter\)/],
    ['Straße', 'STRAßE', /upper case: the service folds it .* \(Go's strings\.ToUpper, letter by letter\)/],
  ])('%s given back as %s: named by the folds that give it', (sent, got, words) => {
    expect(caseChangedText(sent, got)).toMatch(words)
  })
  test.each([
    ['the same text', 'cf-ab12c-dog', 'cf-ab12c-dog'],
    ['trimmed and lower-cased', ' Dog ', 'dog'],
    ['one letter lower-cased of two', 'DoG', 'doG'],
    ['not text', 'Dog', undefined],
  ])('%s: not named', (_label, sent, got) => {
    expect(caseChangedText(sent, got)).toBeUndefined()
  })
})
