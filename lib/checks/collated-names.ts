/**
 * Names as a store's UNIQUE index compares them. The document does not show uniqueness (§2), nor
 * so what counts as the same name: the default collations of SQL stores compare without case
 * (MySQL's and MariaDB's utf8mb4_general_ci, utf8mb4_0900_ai_ci, utf8mb4_uca1400_ai_ci; SQL
 * Server's SQL_Latin1_General_CP1_CI_AS; PostgreSQL's citext), the _ai_ ones without accents, the
 * PAD SPACE ones without trailing spaces (MariaDB's, SQL Server's: "0" = "0 ", "" = " "), and the
 * Unicode ones without default-ignorable characters (a zero-width space) and with every script's
 * digits and compatibility forms alike at the primary level (uca1400_ai_ci: "0" = "٠" = "０"), and SQL
 * Server's SQL_Latin1_General_CP1_CI_AS without what its sorting tables leave undefined (U+0000,
 * noncharacters, every character past U+FFFF: "0🐇" = "0", Microsoft's SQL Server blog, 2006). Measured on MariaDB
 * 10.11: a UNIQUE VARCHAR name under its default collation refused the suite's "0" and empty name
 * with 1062 where another client had stored "0 " and " ".
 */

const DIGIT = /\p{Nd}/u

/** A decimal digit of any script as its ASCII digit: UCA weighs them alike (U+0660 and "0" are one to utf8mb4_uca1400_ai_ci, measured). */
function asciiDigit(digit: string): string {
  const code = digit.codePointAt(0)!
  let start = code
  while (DIGIT.test(String.fromCodePoint(start - 1))) start--
  return String((code - start) % 10)
}

/**
 * The key under which such a collation takes two names for one: case, accents, compatibility forms
 * (a fullwidth "０"), digits of other scripts, ignorable characters and trailing spaces aside.
 */
export const collatedName = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/[\p{Mn}\p{Default_Ignorable_Code_Point}]/gu, '')
    // SQL Server's default collation weighs U+0000, noncharacters and every character past U+FFFF nothing
    .replace(/[\u0000\ufdd0-\ufdef\ufffe\uffff\u{10000}-\u{10ffff}]/gu, '')
    .replace(/\p{Nd}/gu, asciiDigit)
    .replace(/ +$/, '')
    .toLowerCase()

/** Whether a store with a default collation may hold `a` and `b` as one name (a repeated name for its UNIQUE index). */
export const sameNameToAStore = (a: string, b: string): boolean => a === b || collatedName(a) === collatedName(b)

/** Folded letter by letter, each to one letter (Go's strings.ToLower and ToUpper): no final sigma, ß kept in upper case. */
const byLetter = (text: string, fold: (c: string) => string): string =>
  [...text].map((c) => (fold(c).length === c.length ? fold(c) : c)).join('')

/**
 * Why a text came back in another case than sent, all of it: a service that folds names as it
 * would an email address or a slug, before storing them. Undefined for any other change. Go's folds
 * are named only where they give what came back: they fold letter by letter ("ΟΔΟΣ" to "οδοσ", not
 * "οδος"; "ß" stays in "STRAßE"), where JavaScript's, Python's and Ruby's fold the whole text.
 */
export function caseChangedText(sent: unknown, got: unknown): string | undefined {
  if (typeof sent !== 'string' || typeof got !== 'string' || sent === got) return undefined
  const lower = (c: string) => c.toLowerCase()
  const upper = (c: string) => c.toUpperCase()
  const folded = got === sent.toLowerCase() || got === byLetter(sent, lower) ? 'lower' : got === sent.toUpperCase() || got === byLetter(sent, upper) ? 'upper' : undefined
  if (folded === undefined) return undefined
  const fold = folded === 'lower' ? lower : upper
  const go = folded === 'lower' ? "Go's strings.ToLower" : "Go's strings.ToUpper"
  const others =
    folded === 'lower'
      ? "Python's str.lower(), JavaScript's toLowerCase(), Laravel's Str::lower, Ruby's downcase in a before_save, a Mongoose field's lowercase: true, LOWER() in the INSERT"
      : "Python's str.upper(), JavaScript's toUpperCase(), Ruby's upcase in a before_save, a Mongoose field's uppercase: true, UPPER() in the INSERT"
  const whole = got === fold(sent)
  const names = whole && got === byLetter(sent, fold) ? `${go}, ${others}` : whole ? others : `${go}, letter by letter`
  return (
    `the text came back in ${folded} case: the service folds it before storing it, as one does an email address or a slug (${names}); ` +
    '§4.2 rule 2 gives back every field as sent: store it as sent, and compare without case where that is meant (a case-insensitive collation or index, citext)'
  )
}
