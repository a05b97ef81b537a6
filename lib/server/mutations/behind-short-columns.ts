/**
 * Mutations of other tables behind a short name column: the service refuses a longer name with 400
 * (a VARCHAR(64) or VARCHAR(32), Mongoose's maxlength, Django's max_length), as §8 lets it, and
 * then misreads what it takes as the mutation does. The creates that carry a class in long values
 * reach such a service only in their short forms (suites/cases/valid-creates.ts, shortForm), and a
 * class a short form left out passed it: each of these did, until create-json-escapes' short form
 * carried it (or a create whose values such a store takes: create-described, create-whitespace).
 */
import { conformingBehaviour, type Behaviour } from '../reference-server.ts'
import type { Mutation } from '../server-cases.ts'
import { CREATE_MUTATIONS } from './create.ts'
import { JDK_MUTATIONS } from './jdk.ts'
import { FRONT_MUTATIONS } from './fronts.ts'
import { SANITISER_MUTATIONS } from './sanitisers.ts'
import { TEXT_FORM_MUTATIONS } from './text-forms.ts'

/** `name` of `table`, behind a name column of `limit` characters. */
function behindNameLimit(table: readonly Mutation[], name: string, limit: number): Mutation {
  const inner = table.find((m) => m.name === name)
  if (!inner) throw new Error(`no mutation ${name}`)
  const validate: Behaviour['validate'] = inner.behaviour.validate ?? conformingBehaviour.validate
  return {
    ...inner,
    name: `${name}-behind-name-limit-${limit}`,
    description: `${inner.description}; behind a name column of ${limit} characters, a longer name refused with 400 (value too long)`,
    behaviour: {
      ...inner.behaviour,
      validate(body) {
        const sent = (body as { name?: unknown } | null)?.name
        return typeof sent === 'string' && [...sent].length > limit ? `value too long for type character varying(${limit})` : validate(body)
      },
    },
  }
}

export const BEHIND_SHORT_COLUMN_MUTATIONS: readonly Mutation[] = [
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
  // caught by create-whitespace's name, which holds <b>%25 (28 characters)
  behindNameLimit(SANITISER_MUTATIONS, 'names-url-decoded', 64),
  behindNameLimit(SANITISER_MUTATIONS, 'name-tags-stripped', 64),
  behindNameLimit(FRONT_MUTATIONS, 'markup-blocked', 64),
  // caught by create-unicode's short name, which holds a right-to-left override (the long one's 62 characters are refused)
  behindNameLimit(SANITISER_MUTATIONS, 'bidi-overrides-stripped-from-names', 32),
  // caught by create-whitespace's description, which holds fullwidth letters in both forms (create-unicode's long one did alone)
  behindNameLimit(SANITISER_MUTATIONS, 'fullwidth-folded', 32),
]
