/**
 * Mutations of other tables behind a service that refuses a create body holding a member
 * NewCategory does not name (an id, "Name", "extra") with 400, as §4.2 rule 1 lets it (pydantic's
 * extra="forbid", Joi's default, Jackson's FAIL_ON_UNKNOWN_PROPERTIES under a plain ObjectMapper or
 * Jersey; variant rejects-unknown-fields): the creates that send an id or such a member reach it
 * only as refusals, and a class only their descriptions carried passed it. Each of these did, until a
 * create without such members carried the class too (suites/cases/read-as-other-creates.ts), alone:
 * beside U+0000 or a long name, another freedom refused it. And one behind a store that refuses
 * U+0000 alone, which refused the long description while it held one.
 */
import { conformingBehaviour, type Behaviour } from '../reference-server.ts'
import type { Mutation } from '../server-cases.ts'
import { behindLimit } from './behind-short-columns.ts'
import { INPUT_MUTATIONS } from './inputs.ts'
import { TEXT_FORM_MUTATIONS } from './text-forms.ts'
import { VALIDATION_MUTATIONS } from './validation.ts'
import { CONTENT_REFUSAL_MUTATIONS } from './content-refusals.ts'
import { CHANGED, storedAs } from './inputs.ts'

/** `name` of `table`, behind a service that refuses every member NewCategory does not name. */
function behindRefusedMembers(table: readonly Mutation[], name: string): Mutation {
  const inner = table.find((m) => m.name === name)
  if (!inner) throw new Error(`no mutation ${name}`)
  const validate: Behaviour['validate'] = inner.behaviour.validate ?? conformingBehaviour.validate
  return {
    ...inner,
    name: `${name}-behind-unknown-fields-refused`,
    description: `${inner.description}; and a body holding a member NewCategory does not name (an id, "Name") is refused with 400, as pydantic's extra="forbid" or Jackson's FAIL_ON_UNKNOWN_PROPERTIES refuses it`,
    behaviour: {
      ...inner.behaviour,
      validate: (body) =>
        validate(body) ?? (Object.keys(body as object).some((key) => key !== 'name' && key !== 'description') ? 'unknown property in the body' : null),
    },
  }
}

/** `inner`, behind a store that refuses U+0000 with 400 as well (PostgreSQL text: variant refuses-nul-with-400). */
function behindNulRefused(inner: Mutation, name = `${inner.name}-and-nul-refused`): Mutation {
  const validate: Behaviour['validate'] = inner.behaviour.validate ?? conformingBehaviour.validate
  const holdsNul = (body: unknown) => Object.values(body as object).some((v) => typeof v === 'string' && v.includes('\u0000'))
  return {
    ...inner,
    name,
    description: `${inner.description}; and a value holding U+0000 is refused with 400, as a PostgreSQL store refuses it`,
    behaviour: { ...inner.behaviour, validate: (body) => validate(body) ?? (holdsNul(body) ? 'invalid byte sequence for encoding "UTF8": 0x00' : null) },
  }
}

export const BEHIND_REFUSED_MEMBER_MUTATIONS: readonly Mutation[] = [
  // caught by create-none-description (create-deep-value's "None" goes beside its "extra")
  behindRefusedMembers(TEXT_FORM_MUTATIONS, 'none-text-read-as-no-value'),
  // caught by create-null-description and create-cut-anywhere's description, "null" (create-sends-existing-id's goes beside its id)
  behindRefusedMembers(TEXT_FORM_MUTATIONS, 'null-text-answered-as-json-null'),
  // refusing U+0000 too, it refused create-nul, whose description was the other "None": caught by create-none-description
  behindNulRefused(behindRefusedMembers(TEXT_FORM_MUTATIONS, 'none-text-read-as-no-value')),
  // behind a name column of 64, which refuses create-cut-anywhere's 77 characters: caught by create-null-description
  behindLimit([behindRefusedMembers(TEXT_FORM_MUTATIONS, 'null-text-answered-as-json-null')], 'null-text-answered-as-json-null-behind-unknown-fields-refused', 64),
  // a PostgreSQL store that casts the description to varchar(4000), which cuts without an error: it refused
  // create-long-thousands while that one held U+0000, and took no other description as long; caught by it now
  {
    ...behindNulRefused(INPUT_MUTATIONS.find((m) => m.name === 'description-cut-at-4000') as Mutation, 'description-cut-at-4000-behind-nul-refused'),
    description:
      'descriptions are written to PostgreSQL cast to varchar(4000) (`$2::varchar(4000)`), which cuts longer text without an error (an explicit cast, per the SQL standard), ' +
      'and a value holding U+0000 is refused with 400, as PostgreSQL text refuses it; the create answers 201 with what was stored',
  },
  // a CSV-injection sanitiser set on descriptions only (the free text an export to a spreadsheet carries):
  // create-sends-id's "-0042" went beside its id; caught by create-numeric-name's description, which starts with "="
  behindRefusedMembers(
    [
      {
        name: 'csv-injection-quote-prefixed-in-descriptions',
        ...CHANGED,
        description:
          "a CSV-injection sanitiser set on the description only, the free text a spreadsheet export carries, prefixes a value that starts with =, +, - or @ with a quote (\"=SUM(A1)\" is stored as \"'=SUM(A1)\"); names keep theirs",
        behaviour: storedAs((text, field) => (field === 'description' && /^[=+\-@]/.test(text) ? `'${text}` : text)),
      },
    ],
    'csv-injection-quote-prefixed-in-descriptions',
  ),
  // Go's encoding/json with DisallowUnknownFields, after name is checked under its exact key: "Name" folds to name, so it is
  // no unknown field, and the later of the two wins; only create-sends-id sent both, beside its id, an unknown field
  {
    ...(VALIDATION_MUTATIONS.find((m) => m.name === 'json-keys-bound-case-insensitively-after-a-check') as Mutation),
    name: 'json-keys-bound-case-insensitively-after-a-check-behind-unknown-fields-refused',
    description:
      'name is checked under its exact key, then the body is bound to the struct case-insensitively with unknown fields refused (Go: a map[string]json.RawMessage checked, then a json.Decoder with DisallowUnknownFields): ' +
      '{"name": "a", "Name": "b"} creates "b", and a member that folds to no field (an id) is refused with 400',
    behaviour: {
      ...(VALIDATION_MUTATIONS.find((m) => m.name === 'json-keys-bound-case-insensitively-after-a-check') as Mutation).behaviour,
      validate: (body) =>
        conformingBehaviour.validate(body) ??
        (Object.keys(body as object).some((key) => !['name', 'description'].includes(key.toLowerCase())) ? 'json: unknown field "id"' : null),
    },
  },
  // a body limit of 100 bytes: the escapes create's short form, 98 bytes, was excused as refused for its size, since the one
  // larger body taken was create-sends-id's (99), which this service refuses for its id; caught since create-whitespace's short form is 98 bytes
  behindRefusedMembers(CONTENT_REFUSAL_MUTATIONS, 'upper-case-escapes-refused-behind-body-limit-100'),
]
