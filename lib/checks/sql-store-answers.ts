/**
 * What a SQL store's defaults do to a category, in a failure's words: MySQL's and MariaDB's
 * sql_mode and character sets, their CHAR columns and unsigned ids (measured on MariaDB 10.11 and
 * PostgreSQL 15 under a Flask service, 2026-11-26), and ids a service computes or reads back
 * itself (measured on PHP 8.2 under php-fpm on MariaDB 10.11, 2026-11-27). known-answers.ts and
 * category.ts call these beside the other stacks' words; the verdict and the failure code never
 * depend on them.
 */
import type { RecordedRequest, RecordedResponse } from '../http/exchange.ts'

/** The widest character of a text (its highest code point; 0 for none). */
const widest = (text: string | undefined) => Math.max(0, ...[...(text ?? '')].map((c) => c.codePointAt(0)!))

/** What utf8mb3 is, said once for the refusal and for the cut. */
const UTF8MB3 = "MySQL's and MariaDB's utf8mb3 (the character set `utf8` names in both) holds no character beyond U+FFFF"
const UTF8MB4 = 'a utf8mb4 column and connection hold them (ALTER TABLE … CONVERT TO CHARACTER SET utf8mb4, and charset utf8mb4 where the service connects)'
/** A single-byte character set: MySQL's and MariaDB's latin1 (their compiled-in default), a PostgreSQL database in LATIN1. */
const SINGLE_BYTE =
  "a column in a single-byte character set holds none beyond U+00FF: MySQL's and MariaDB's latin1 (the default of a server with no character-set-server set) refuses them in strict mode (error 1366, Incorrect string value), " +
  'and a PostgreSQL database in LATIN1 or WIN1252 refuses them (SQLSTATE 22P05, has no equivalent in encoding)'

/** A store's refusal of characters its character set cannot hold, in its own words (MySQL's and MariaDB's 1366, PostgreSQL's 22P05). */
const STORE_REFUSED_TEXT = /Incorrect string value|has no equivalent in encoding|\b1366\b|22P05/

/**
 * Why a create whose values hold characters beyond U+00FF was refused when plain text of its
 * lengths was not: most often a column whose character set cannot hold them (utf8mb3 for an
 * emoji, latin1 for any of them), in strict mode. Measured on MariaDB 10.11: utf8mb3 refused the
 * short form's emoji with 1366, latin1 the whitespace create's Unicode spaces.
 */
export function refusedCharactersOrigin(sent: { name: string; description?: string }, answer = ''): string | undefined {
  const code = Math.max(widest(sent.name), widest(sent.description))
  if (code <= 0xff) return undefined
  // the store's own words in the Error record's message say which; else it is one cause among others (a filter of the service's own)
  const named = STORE_REFUSED_TEXT.test(answer)
  const why =
    code > 0xffff
      ? `the values hold characters beyond U+FFFF (emoji): ${UTF8MB3} and refuses them in strict mode, the default (error 1366, Incorrect string value); and ${SINGLE_BYTE}`
      : `the values hold characters beyond U+00FF, and ${SINGLE_BYTE}`
  return `${named ? "the answer names the store's refusal of the characters: " : 'if the store is why: '}${why}; an error a service answers 400. §2 gives name and description the type string, and these are valid text: ${UTF8MB4} (PostgreSQL: a UTF8 database)`
}

/**
 * What a server fault (a 5xx but 503) to a create says when its values hold characters a store's
 * character set may not hold, beside what its case says (`means`): an answer in the store's own
 * words (MySQL's 1366, Incorrect string value) is that refusal left unhandled, not a length nor a
 * pattern (measured by stackhunt10: a utf8mb3 column's error answered 500 was put down to a
 * column's length); without them, characters beyond U+FFFF are one cause more.
 */
export function characterFaultWords(requestBody: string | undefined, answer: string, means: string | undefined): string | undefined {
  let sent: unknown
  try {
    sent = JSON.parse(requestBody ?? '')
  } catch {
    return means
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined)
  const { name, description } = (sent !== null && typeof sent === 'object' ? sent : {}) as Record<string, unknown>
  const code = Math.max(widest(text(name)), widest(text(description)))
  if (code <= 0xff) return means
  const beyondBmp = `characters beyond U+FFFF (emoji): ${UTF8MB3} and refuses them in strict mode, the default (error 1366, Incorrect string value)`
  if (STORE_REFUSED_TEXT.test(answer)) {
    return (
      `the answer names the store's refusal of the values' characters, an error left unhandled: ${code > 0xffff ? `they hold ${beyondBmp}, and ` : ''}${SINGLE_BYTE}; ` +
      `§2 gives name and description the type string, and these are valid text: ${UTF8MB4} (PostgreSQL: a UTF8 database); a service that cannot store them refuses them with 400 (§4.2 rule 1), never with a fault`
    )
  }
  if (code <= 0xffff) return means
  return `${means ? `${means}; or ` : ''}if the store is why: the values hold ${beyondBmp}, an error left unhandled; ${UTF8MB4}, or refuse them with 400 (§4.2 rule 1)`
}

/**
 * A length a VARCHAR column is given: 16 or more, a multiple of 8 or 10, 255 or MySQL Workbench's
 * 45; a text cut at 9 characters is something else's doing.
 */
const columnLike = (length: number) => length >= 16 && (length % 8 === 0 || length % 10 === 0 || length === 255 || length === 45)

/** What a TEXT column of MySQL and MariaDB holds, in bytes. */
const TEXT_BYTES = 65_535

/**
 * Text cut at a column's length without an error: MySQL and MariaDB outside strict mode (a
 * VARCHAR(64) name kept its first 64 characters, measured on MariaDB 10.11 with sql_mode ''),
 * or, cut before a character beyond U+FFFF, MySQL's utf8mb3 outside strict mode. Only a cut that
 * is not spaces alone (those the SQL standard cuts in every mode: columnCutSpaces).
 */
export function columnCutText(sent: unknown, got: unknown): string | undefined {
  if (typeof sent !== 'string' || typeof got !== 'string' || got.length === 0 || got.length >= sent.length || !sent.startsWith(got)) return undefined
  const rest = sent.slice(got.length)
  if (/^\s+$/.test(rest)) return undefined
  // tag characters alone taken from the end are a filter's doing (known-answers' strip), not a character set's cut
  if (rest.codePointAt(0)! > 0xffff && [...rest].some((c) => c.codePointAt(0)! < 0xe0000 || c.codePointAt(0)! > 0xe007f)) {
    return (
      `the text was cut before its first character beyond U+FFFF: ${UTF8MB3}, and outside strict mode MySQL stores the text up to it with a warning only (1366, Incorrect string value; MariaDB writes '?' in its place), ` +
      `and the create answers 201; ${UTF8MB4}`
    )
  }
  // a TEXT column's 65,535 bytes, cut at a whole character: up to 3 bytes short of it
  const bytes = Buffer.byteLength(got)
  if (bytes <= TEXT_BYTES && bytes > TEXT_BYTES - 4) {
    return (
      `the text was cut to ${bytes} bytes, what a TEXT column of MySQL and MariaDB holds (65,535 bytes; Laravel's text(), Sequelize's and TypeORM's 'text'): outside strict mode the value is stored cut with a warning only (1265, Data truncated), ` +
      'and the create answers 201; in strict mode, their default, the insert fails (1406, Data too long), which the service answers 400 (lengths are not shown, §8): ' +
      'a MEDIUMTEXT column, or the sql_mode set back to strict, and never give back less than was sent'
    )
  }
  const length = [...got].length
  if (!columnLike(length)) return undefined
  return (
    `the text was cut to its first ${length} characters, as MySQL and MariaDB outside strict mode (a sql_mode without STRICT_TRANS_TABLES or STRICT_ALL_TABLES) store a value longer than its VARCHAR(${length}) column cut to that length, ` +
    'with a warning only (1265, Data truncated), and the create answers 201; in strict mode, their default, the insert fails (1406, Data too long), which the service answers 400 (lengths are not shown, §8): ' +
    "set the sql_mode back to strict (or check the length before the insert), and never give back less than was sent"
  )
}

/** A CHAR(n) column of MySQL and MariaDB, beside trims (php-ruby-answers.ts): trailing spaces go on every read. */
export const CHAR_COLUMN_TRIMS =
  'and a CHAR(n) column, which MySQL and MariaDB give back without its trailing spaces (unless sql_mode has PAD_CHAR_TO_FULL_LENGTH; VARCHAR keeps them), or that cuts spaces past its length (the SQL standard: PostgreSQL, MySQL)'

/** An id past int64: an unsigned column, whose ids go on to 2^64-1. */
export function idPastInt64(problem: string): string | undefined {
  const past = /\.id must be an int64 \(from -2\^63 to 2\^63-1\), got (\d{19,20})$/.exec(problem)
  if (!past || BigInt(past[1]!) < 2n ** 63n || BigInt(past[1]!) >= 2n ** 64n) return undefined
  return (
    'an id past 2^63-1: a BIGINT UNSIGNED AUTO_INCREMENT column (MySQL, MariaDB) counts on to 2^64-1, and §2 gives the id the format int64; ' +
    'a signed BIGINT column keeps every id an int64'
  )
}

/** Every create answered id 0: the driver's last insert id where the store generated none. */
export const ZERO_INSERT_ID =
  "; id 0 is what PDO::lastInsertId() (MySQL's LAST_INSERT_ID(), Go's Result.LastInsertId()) gives after an insert that generated no id, as one that set the id itself does (an id computed as MAX(id) + 1, a table without AUTO_INCREMENT): " +
  'let the store assign the id (AUTO_INCREMENT, an identity column) and answer the id it gave, or answer the id the insert set'

/**
 * Why a create of a name this run made up was answered 409: no record held that name, so the
 * conflict is on another key, most often the id a service computed before its insert.
 */
export function idKeyConflictStatus(response: RecordedResponse, expected: number, request: RecordedRequest): string | undefined {
  if (response.status !== 409 || expected !== 201 || request.method !== 'POST') return undefined
  let name: unknown
  try {
    name = (JSON.parse(request.body ?? '') as { name?: unknown }).name
  } catch {
    return undefined
  }
  if (typeof name !== 'string' || !/cf-[a-z0-9]{5}-[a-z0-9]/.test(name)) return undefined
  return (
    "409 to a name that carries this run's marker, which no record held before this run: unless this run sent the name before, the conflict is not the name's; " +
    'a service that computes the id before the insert (SELECT MAX(id) + 1, a counter read and written in two steps) gives two creates that run at once one id, and answers the store\'s duplicate key (MySQL 1062, SQLSTATE 23000 or 23505) as a conflict: ' +
    'let the store assign the id (AUTO_INCREMENT, an identity column, a sequence)'
  )
}
