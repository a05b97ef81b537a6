/**
 * Values of the valid creates (valid-creates.ts) that are made, not written out: text of a length
 * that ends in it, the run's digits, the long description of € signs, and the first create's
 * description, which reads as a date. Apart from the table, which holds no more lines.
 */

/**
 * The shortest limits a conforming service may have that the suite still verifies every class of
 * string against (a VARCHAR(16) name, a VARCHAR(32) description). The first create sends exactly
 * these lengths in plain ASCII, so that a short form refused after it cannot be a length refusal.
 * Below them (§8 shows no limit) the creates refused for length are not verified, not failed
 * (suites/categories/create-checks.ts).
 */
export const NAME_FLOOR = 16
export const DESCRIPTION_FLOOR = 32

/**
 * create-numeric-name's name: "-", zeros and the run's digits (runDigits), NAME_FLOOR characters,
 * a negative number with leading zeros as text that no other run sends.
 */
export const numericName = (prefix: string): string => `-${runDigits(prefix).padStart(NAME_FLOOR - 1, '0')}`

/** The digits of a run's prefix (cf-xxxxx: the five base-36 characters as a number, eight digits with leading zeros, so that every run's are as long): numeric text no other run sends. */
export const runDigits = (prefix: string): string => String(parseInt(prefix.slice(prefix.lastIndexOf('-') + 1), 36)).padStart(8, '0')

/**
 * `length` characters that start with `head` and end in the length, so a cut anywhere shows. After
 * the head only [a-z0-9-]: a service whose names allow few characters refuses these for their
 * lengths only.
 */
export function textOfLength(head: string, length: number): string {
  const tail = `-${length}`
  const filler = '0123456789abcdefghijklmnopqrstuvwxyz'.repeat(Math.ceil(length / 36))
  return (head + '-' + filler).slice(0, length - tail.length) + tail
}

/**
 * The characters of create-long-thousands' description: € signs, three bytes each in UTF-8, so that
 * the body passes the 65,535 bytes of a MySQL or MariaDB TEXT column (the type of Laravel's text(),
 * Sequelize's and TypeORM's 'text'), which cuts a longer value without an error outside strict mode,
 * and Oracle's 32,767-byte VARCHAR2 and SQL Server's 8,000; a body of 66 KB, under the body limits
 * frameworks set by default (Express and Play 100 KB, Fastify and nginx 1 MiB). Three bytes a
 * character, not one: the run holds a third as many characters for the same bytes on the wire (ten
 * deployments at once peaked at 305 MiB with 66,000 ASCII characters, 259 MiB with these).
 */
export const LONG_DESCRIPTION = 21_900
/** Its bytes in UTF-8: past 65,535. */
export const LONG_DESCRIPTION_BYTES = Buffer.byteLength(longDescription())

/**
 * The description itself: a head naming it, then € signs. No U+0000 (create-nul's short description
 * holds it): a service that refuses it (PostgreSQL text) refused this create for it, and so never
 * took a long description, which a cut at 4,000 characters behind it needs (`::varchar(4000)` cuts
 * without an error in PostgreSQL; mutation description-cut-at-4000-behind-nul-refused). A € in its
 * head where U+0000 was, not a space: the run of signs then starts 18 bytes into the value's JSON
 * text, a multiple of 3 as 21 was after U+0000's 6-byte escape (16 is not), and the one 64 KiB read
 * boundary a loopback gives this body falls inside a sign again (with the space it fell between two,
 * and a service that decodes each read on its own, `body += chunk`, passed this create:
 * test/inputs/body-in-pieces.test.ts). Where a network cuts a body depends on it, not on this.
 */
export function longDescription(): string {
  return ('description [\u20ac] ' + '\u20ac'.repeat(LONG_DESCRIPTION)).slice(0, LONG_DESCRIPTION)
}

/**
 * The first create's description: plain ASCII of DESCRIPTION_FLOOR (32) characters that reads as an
 * ISO 8601 date and time, the one such text the suite sends (create-cut-anywhere's name, beside which
 * one went before, is refused by a store with short names; its description is now "null").
 * Six digits of a second and an offset: Json.NET reads no more than seven as a date.
 */
export const DATE_DESCRIPTION = '2024-02-29T23:59:59.123456+00:00'
