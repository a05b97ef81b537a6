/**
 * Mutations of other tables behind a short name column: the service refuses a longer name with 400
 * (a VARCHAR(64) or VARCHAR(32), Mongoose's maxlength, Django's max_length), as §8 lets it, and
 * then misreads what it takes as the mutation does; a few behind a short description column. The creates that carry a class in long values
 * reach such a service only in their short forms (suites/cases/valid-creates.ts, shortForm), and a
 * class a short form left out passed it: each of these did, until create-json-escapes' short form
 * carried it (or a create whose values such a store takes: create-described, create-whitespace).
 */
import { conformingBehaviour, type Behaviour } from '../reference-server.ts'
import type { Mutation } from '../server-cases.ts'
import { BODY_LAYOUT_MUTATIONS } from './body-layout.ts'
import { CHANGED, INPUT_MUTATIONS, storedAs } from './inputs.ts'
import { columnLimits } from '../variants/inputs.ts'
import { CREATE_MUTATIONS } from './create.ts'
import { JDK_MUTATIONS } from './jdk.ts'
import { FRONT_MUTATIONS } from './fronts.ts'
import { SANITISER_MUTATIONS } from './sanitisers.ts'
import { SQL_COLUMN_MUTATIONS } from './sql-columns.ts'
import { TEXT_FORM_MUTATIONS } from './text-forms.ts'
import { VALIDATION_MUTATIONS } from './validation.ts'

/** `name` of `table`, behind a column of `limit` characters (or UTF-8 bytes) for `field`. */
export function behindLimit(table: readonly Mutation[], name: string, limit: number, field: 'name' | 'description' = 'name', count: 'characters' | 'bytes' = 'characters'): Mutation {
  const inner = table.find((m) => m.name === name)
  if (!inner) throw new Error(`no mutation ${name}`)
  const validate: Behaviour['validate'] = inner.behaviour.validate ?? conformingBehaviour.validate
  const size = (text: string) => (count === 'bytes' ? Buffer.byteLength(text) : [...text].length)
  return {
    ...inner,
    name: `${name}-behind-${field}-limit-${limit}${count === 'bytes' ? '-bytes' : ''}`,
    description: `${inner.description}; behind a ${field} column of ${limit} ${count}, a longer ${field} refused with 400 (value too long)`,
    behaviour: {
      ...inner.behaviour,
      validate(body) {
        const sent = (body as Record<string, unknown> | null)?.[field]
        return typeof sent === 'string' && size(sent) > limit ? `value too long for type character varying(${limit})` : validate(body)
      },
    },
  }
}

/** Descriptions ended at U+0000 and names kept whole: behind a short description column, only a short description with U+0000 shows it. */
const DESCRIPTIONS_CUT_AT_NUL: Mutation = {
  name: 'descriptions-cut-at-nul',
  ...CHANGED,
  description:
    'descriptions go through a C-string API (a sanitiser or renderer written in C that reads the buffer up to its first zero byte) that ends them at U+0000, names go to the store whole, ' +
    'and the create answers 201 with what was stored',
  behaviour: storedAs((text, field) => (field === 'description' ? (text.split('\u0000')[0] as string) : text)),
}

/** Values changed in characters no short name held, until create-none-description's, create-null-description's and create-zero-description's did. */
const NAMES_ONLY: readonly Mutation[] = [
  {
    name: 'zero-width-stripped-from-names',
    ...CHANGED,
    description:
      'a guard against spoofed names strips zero-width characters (U+200B to U+200D, U+2060, U+FEFF) from names, the field a list shows, not from descriptions, ' +
      'and the create answers 201 with what was stored',
    behaviour: storedAs((text, field) => (field === 'name' ? text.replace(/[\u200b-\u200d\u2060\ufeff]/g, '') : text)),
  },
  {
    name: 'astral-names-stored-as-question-marks',
    ...CHANGED,
    description:
      "the name column is MySQL's utf8mb3 (a table made before utf8mb4 was the default), the description's utf8mb4: a character beyond U+FFFF (an emoji) in a name " +
      "is converted to '?' with a warning, and the create answers 201 with what was stored",
    behaviour: storedAs((text, field) => (field === 'name' ? text.replace(/[\u{10000}-\u{10ffff}]/gu, '?') : text)),
  },
  {
    name: 'nfd-normalising-store',
    ...CHANGED,
    description:
      "every text is stored normalised to NFD (PostgreSQL's normalize(text, NFD), a search index's decomposing filter): a precomposed é becomes e and U+0301, " +
      'and the create answers 201 with what was stored',
    behaviour: storedAs((text) => text.normalize('NFD')),
  },
]

/** `name` of `table`, behind a name column of `limit` characters. */
const behindNameLimit = (table: readonly Mutation[], name: string, limit: number): Mutation => behindLimit(table, name, limit)

export const BEHIND_SHORT_COLUMN_MUTATIONS: readonly Mutation[] = [
  // a check of the name's length (@Size(max = 255), Go's len(name) > 64) in front of a column of 32:
  // caught by create-whitespace's name, 64 characters whose last 44 are spaces (every other name past 32 is
  // refused by the check in front, or holds more than spaces past 32, which the column refuses)
  behindNameLimit(SQL_COLUMN_MUTATIONS, 'varchar-32-name-cuts-trailing-spaces', 255),
  behindNameLimit(SQL_COLUMN_MUTATIONS, 'varchar-32-name-beside-varchar-255-description', 255),
  behindNameLimit(SQL_COLUMN_MUTATIONS, 'varchar-32-name-cuts-trailing-spaces', 64),
  behindLimit(INPUT_MUTATIONS, 'names-cut-at-32', 64, 'name', 'bytes'),
  // a check of 64 UTF-16 code units in front of a column that cuts at 45: caught by create-whitespace's name, 64 characters
  // (44 before, which the column took whole: every other name past 45 characters is longer than 64 UTF-16 code units)
  {
    name: 'name-cut-at-45-behind-name-limit-64-utf16',
    ...CHANGED,
    description:
      "a Java service with @Size(max = 64) on the name (UTF-16 code units; a longer name refused with 400) stores it in MySQL's VARCHAR(45) (MySQL Workbench's default) outside strict mode, " +
      'which cuts a longer name to 45 characters with a warning only (1265, Data truncated), and the create answers 201 with what was stored',
    behaviour: { validate: columnLimits(64, Number.POSITIVE_INFINITY, 'utf16').validate, ...storedAs((text, field) => (field === 'name' ? [...text].slice(0, 45).join('') : text)) },
  },
  // caught by create-json-escapes' short name, which holds %( (a directive Java's Formatter refuses as it refuses %s)
  behindNameLimit(JDK_MUTATIONS, 'name-in-format-string', 64),
  // caught by create-json-escapes' short description, which holds a quote as the long one does
  behindNameLimit(SANITISER_MUTATIONS, 'description-sql-built-by-concatenation', 64),
  // caught by create-json-escapes' short description: U+0085, a backslash before n as text, the emoji
  // the request writes as an escaped surrogate pair, a typographic quote, a line break last
  behindNameLimit(SANITISER_MUTATIONS, 'c1-controls-stripped', 64),
  behindNameLimit(SANITISER_MUTATIONS, 'escapes-read-again-by-a-replace-chain', 64),
  behindNameLimit(SANITISER_MUTATIONS, 'escaped-surrogates-mangled', 64),
  behindNameLimit(SANITISER_MUTATIONS, 'smart-quotes-straightened', 64),
  behindNameLimit(SANITISER_MUTATIONS, 'trailing-line-break-chomped', 64),
  // caught by create-whitespace's short name, which holds CR LF and a tab
  behindNameLimit(SANITISER_MUTATIONS, 'line-breaks-stripped-from-names', 64),
  // caught by create-described's name, which holds an upper-case letter (create-unicode's 62 characters are refused)
  behindNameLimit(CREATE_MUTATIONS, 'name-lower-cased', 32),
  // caught by create-described's description, which reads as a date and time (create-cut-anywhere's name is 301 bytes)
  behindNameLimit(TEXT_FORM_MUTATIONS, 'json-net-dynamic-reformats-dates', 64),
  behindNameLimit(TEXT_FORM_MUTATIONS, 'date-reviver-reformats-listed-dates', 64),
  // caught by create-padded-name's short form, whose description is "undefined" as the long one's is
  behindNameLimit(TEXT_FORM_MUTATIONS, 'undefined-text-listed-as-no-value', 64),
  // caught by create-whitespace's description, which holds &amp; in both forms
  behindNameLimit(SANITISER_MUTATIONS, 'html-entities-decoded', 64),
  // caught by create-padded-name's short name, which holds <b>%25 as its long one does
  behindNameLimit(SANITISER_MUTATIONS, 'names-url-decoded', 64),
  behindNameLimit(SANITISER_MUTATIONS, 'name-tags-stripped', 64),
  behindNameLimit(FRONT_MUTATIONS, 'markup-blocked', 64),
  // caught by create-none-description's name, which holds a zero-width joiner, and create-null-description's, which
  // holds an emoji (create-unicode's long name, 62 characters and 114 bytes, is refused; its short one holds neither)
  behindLimit(NAMES_ONLY, 'zero-width-stripped-from-names', 64, 'name', 'bytes'),
  behindNameLimit(NAMES_ONLY, 'astral-names-stored-as-question-marks', 32),
  // caught by create-zero-description's name, which holds a precomposed é (create-unicode's Ñandú is refused)
  behindNameLimit(NAMES_ONLY, 'nfd-normalising-store', 32),
  // caught by create-unicode's short name, which holds a right-to-left override (the long one's 62 characters are refused)
  behindNameLimit(SANITISER_MUTATIONS, 'bidi-overrides-stripped-from-names', 32),
  // caught by create-whitespace's description, which holds fullwidth letters in both forms (create-unicode's long one did alone)
  behindNameLimit(SANITISER_MUTATIONS, 'fullwidth-folded', 32),
  // behind a description column of 32 characters, which refuses the escapes create and create-whitespace:
  // caught by create-padded-name's name, which holds <b>%25 in both forms
  behindLimit(SANITISER_MUTATIONS, 'name-tags-stripped', 32, 'description'),
  behindLimit(SANITISER_MUTATIONS, 'names-url-decoded', 32, 'description'),
  // caught by create-described, the one create laid out otherwise, now that create-numeric-name, sent
  // compact, is as long in both fields: the first create's refusal was taken for a length limit
  behindLimit(BODY_LAYOUT_MUTATIONS, 'compact-json-only', 32, 'description'),
  behindLimit(BODY_LAYOUT_MUTATIONS, 'whitespace-after-the-value-refused', 32, 'description'),
  // behind a VARCHAR(255) description, which refused create-long-thousands' 21,900 characters while they held
  // U+0000 too (they hold it no more): caught by create-nul's short description (its "None" went to create-none-description)
  behindLimit([DESCRIPTIONS_CUT_AT_NUL], 'descriptions-cut-at-nul', 255, 'description'),
  // PHP's empty() added in a release after the one an earlier run met, which stored its "0" and its
  // "__proto__": behind a name column of 12 this run's own repeated name is refused for its length
  // the first time, and says nothing of repeats; caught by this run's "__proto__", taken though the
  // earlier run's is listed (the service takes repeated names, so its 400 to "0" refuses "0" itself)
  {
    ...behindNameLimit(VALIDATION_MUTATIONS, 'php-empty-refuses-zero', 12),
    seed: () => [
      { id: 1n, name: '0', description: 'cf-0earl-short-name' },
      { id: 2n, name: '__proto__', description: 'cf-0earl-proto-name' },
    ],
  },
]
