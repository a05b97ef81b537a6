/**
 * A failure names the SQL store's default behind a wrong answer and how it is changed
 * (lib/checks/sql-store-answers.ts): MySQL and MariaDB outside strict mode cut text to the
 * column, utf8mb3 refuses or cuts characters beyond U+FFFF, a CHAR column loses its trailing
 * spaces, an unsigned id runs past int64. The words only: the code and the verdict stay the check's.
 */
import { describe, expect, test } from 'vitest'
import { firstDifference } from '../../lib/checks/category.ts'
import { expectSchema } from '../../lib/checks/schema.ts'
import { refusedCharactersOrigin } from '../../lib/checks/sql-store-answers.ts'
import { expectStatus } from '../../lib/checks/response.ts'
import { makeResponse, verdictOf } from './make-response.ts'

describe('text a SQL store changed', () => {
  test('cut to the column outside strict mode (MariaDB, sql_mode empty: a VARCHAR(64) name kept 64 characters)', () => {
    const sent = `cf-ab12c-"quoted" back\\slash ${'x'.repeat(80)}`
    expect(firstDifference(sent, sent.slice(0, 64))).toMatch(
      /^; first difference at character 64: sent U\+0078, got its end \(lengths 109 and 64\); the text was cut to its first 64 characters, as MySQL and MariaDB outside strict mode .*VARCHAR\(64\).*1265, Data truncated.*1406, Data too long/,
    )
  })

  test('cut to the 65,535 bytes of a TEXT column, at a whole character (MySQL outside strict mode)', () => {
    const sent = `description ${'x'.repeat(70_000)}`
    expect(firstDifference(sent, sent.slice(0, 65_535))).toMatch(/the text was cut to 65535 bytes, what a TEXT column of MySQL and MariaDB holds \(65,535 bytes.*1265, Data truncated.*MEDIUMTEXT/)
    // € is 3 bytes: the whole characters that fit leave 65,533
    const euros = '€'.repeat(30_000)
    expect(firstDifference(euros, euros.slice(0, 21_844))).toMatch(/cut to 65532 bytes, what a TEXT column/)
    expect(firstDifference(sent, sent.slice(0, 60_000))).not.toMatch(/TEXT column/)
  })

  test('cut before a character beyond U+FFFF: utf8mb3 outside strict mode (MySQL)', () => {
    expect(firstDifference('cf-ab12c-Ñandú 🐇 x', 'cf-ab12c-Ñandú ')).toMatch(/the text was cut before its first character beyond U\+FFFF: MySQL's and MariaDB's utf8mb3 .*CONVERT TO CHARACTER SET utf8mb4/)
  })

  test('tag characters alone taken from the end are no character set\'s cut (a filter strips them)', () => {
    expect(firstDifference('flag \u{1f3f4}\u{e0067}\u{e0062}\u{e007f}', 'flag \u{1f3f4}')).not.toMatch(/utf8mb3/)
  })

  test('spaces cut past the column keep their own words (the SQL standard, every mode), and a trim is no cut', () => {
    expect(firstDifference(`cf-x-pad${' '.repeat(60)}`, `cf-x-pad${' '.repeat(24)}`)).toMatch(/the spaces past 32 characters were cut: a VARCHAR\(32\) column/)
    expect(firstDifference(`cf-x-pad${' '.repeat(60)}`, `cf-x-pad${' '.repeat(24)}`)).not.toMatch(/outside strict mode/)
    expect(firstDifference('cf-x-s\n', 'cf-x-s')).not.toMatch(/was cut/)
  })

  test('trailing spaces gone from a short value: a CHAR(n) column of MySQL and MariaDB', () => {
    expect(firstDifference('  cf-ab12c-padded  ', '  cf-ab12c-padded')).toMatch(/a CHAR\(n\) column, which MySQL and MariaDB give back without its trailing spaces \(unless sql_mode has PAD_CHAR_TO_FULL_LENGTH/)
  })
})

describe('values refused for their characters', () => {
  test('characters beyond U+FFFF: utf8mb3 in strict mode (error 1366), and latin1', () => {
    expect(refusedCharactersOrigin({ name: 'cf-ab12c-e\u0301🐇', description: 'שלום' })).toMatch(
      /^if the store is why: the values hold characters beyond U\+FFFF \(emoji\): MySQL's and MariaDB's utf8mb3 .*error 1366, Incorrect string value.*latin1.*CONVERT TO CHARACTER SET utf8mb4/,
    )
    // the store's own words in the answer (measured: MariaDB 10.11's message, passed on in the Error record)
    const answer = JSON.stringify({ code: 'invalid_value', message: "Incorrect string value: '\\xF0\\x9F\\x90\\x87' for column `pet`.`categories`.`name` at row 1", status: 400 })
    expect(refusedCharactersOrigin({ name: 'cf-ab12c-e\u0301🐇' }, answer)).toMatch(/^the answer names the store's refusal of the characters: the values hold characters beyond U\+FFFF/)
    expect(refusedCharactersOrigin({ name: 'cf-ab12c', description: '👩\u200d👧' })).toMatch(/utf8mb3/)
  })

  test('characters beyond U+00FF only: a single-byte character set (latin1; a PostgreSQL database in LATIN1, 22P05), not utf8mb3', () => {
    const words = refusedCharactersOrigin({ name: ' cf-ab12c-s ', description: '\u00a0 a  b\u2003c\u3000\u200bd e\u0301' })
    expect(words).toMatch(/^if the store is why: the values hold characters beyond U\+00FF, and a column in a single-byte character set .*latin1.*22P05/)
    expect(words).not.toMatch(/utf8mb3 \(/)
  })

  test('no character beyond U+00FF, no words', () => {
    expect(refusedCharactersOrigin({ name: "cf-ab12c-\"\\/'<>&", description: 'Ñandú \u0001' })).toBeUndefined()
  })
})

describe('an id past int64', () => {
  test('a BIGINT UNSIGNED AUTO_INCREMENT past 2^63-1: SCHEMA_MISMATCH, and the message names the unsigned column', () => {
    const verdict = verdictOf(() => expectSchema(makeResponse({ status: 201, method: 'POST', body: '{"id":9223372036854775808,"name":"cf-ab12c-plain"}' }), 'Category'))
    expect(verdict).toMatchObject({ code: 'SCHEMA_MISMATCH' })
    expect((verdict as { message: string }).message).toMatch(/got 9223372036854775808; an id past 2\^63-1: a BIGINT UNSIGNED AUTO_INCREMENT column \(MySQL, MariaDB\)/)
  })

  test('an id below -2^63 is no unsigned column', () => {
    const verdict = verdictOf(() => expectSchema(makeResponse({ status: 201, method: 'POST', body: '{"id":-9223372036854775809,"name":"cf-ab12c-plain"}' }), 'Category'))
    expect((verdict as { message: string }).message).not.toMatch(/UNSIGNED/)
  })
})

test("a 409 to a name this run made up: a conflict on the id (MAX(id) + 1 read before the insert, two creates at once; measured on PHP under php-fpm on MariaDB), not the name's", () => {
  const conflict = (name: string) => {
    const result = makeResponse({ status: 409, method: 'POST', body: '{"code":"conflict","message":"name taken","status":409}' })
    result.exchange.request.body = JSON.stringify({ name })
    return (verdictOf(() => expectStatus(result, 201)) as { message: string }).message
  }
  expect(conflict('cf-ab12c-plain')).toMatch(/^POST answered 409, expected 201: 409 to a name that carries this run's marker.*SELECT MAX\(id\) \+ 1.*AUTO_INCREMENT/)
  // a name every run sends alike ("0", "") may be a repeat: no words
  expect(conflict('0')).toBe('POST answered 409, expected 201')
})
