/**
 * §4.2 rule 2: valid creates whose one value a service may read as something other than the text it
 * is, and so answer or store otherwise: a description of spaces alone, which a blank check takes for
 * none, a name that is a member of JavaScript's Object.prototype, which a store kept in a plain
 * object keyed by name takes for one, and the descriptions "None" and "null", which a store of text
 * fields takes back as no value; and a member "Name" beside name, which a binder that matches keys in
 * any case reads as name. Apart from valid-creates.ts, which holds no more lines.
 */
import type { ValidCreate } from './valid-create.ts'

export const READ_AS_OTHER_CREATES: readonly ValidCreate[] = [
  {
    key: 'create-blank-description',
    label: 'a description of three spaces',
    // a blank check (String.isBlank, StringUtils.hasText, trim() === '', Rails' .presence) takes it
    // for no description, and drops it or puts a default in its place, in a service that refuses ''
    // (Joi.string()'s default, @Size(min = 1)) and so passes create-empty-description. A create of
    // its own: a service may refuse it as it may refuse '', and that refusal must hide no other class
    body: (p) => ({ name: `${p}-blank`, description: '   ' }),
    mayRefuse: 'a description of spaces alone may be an invalid value for the service (§4.2 rule 1), as an empty one may be',
  },
  {
    key: 'create-prototype-name',
    label: "the name __proto__, a member of JavaScript's Object.prototype",
    // categories kept in a plain object keyed by name (`categories[name] = record`, listed with
    // Object.values): the assignment to categories['__proto__'] sets the object's prototype and stores
    // nothing, and a taken-name check written `if (categories[name])` or `name in categories` holds
    // for it (and for constructor, toString, hasOwnProperty). The same name in every run, so the
    // description carries the prefix, as the empty name's does
    body: (p) => ({ name: '__proto__', description: `${p}-proto-name` }),
    nameOfEveryRun: true,
  },
  {
    key: 'create-none-description',
    label: 'the description "None", as text, and nothing else a service may refuse; a zero-width joiner in the name',
    // what Python writes for no value (str(None)), which a store of text fields (a Redis hash) takes
    // back as none. A plain create of its own: create-deep-value's "None" goes beside a field
    // NewCategory does not name, and create-nul held one beside U+0000; a service that refuses both
    // (pydantic's extra="forbid" and a PostgreSQL store) never got it. A name of 12 characters (cf-xxxxx-py and a
    // zero-width joiner, after the marker reports read) and 14 bytes: a guard against spoofed names strips zero-width
    // characters from names alone, and behind a name column of 32 characters or 64 bytes no other name that holds one is taken
    body: (p) => ({ name: `${p}-py\u200d`, description: 'None' }),
  },
  {
    key: 'create-null-description',
    label: 'the description "null", as text, and nothing else a service may refuse; an emoji (beyond U+FFFF) in the name',
    // the text form of no value in Java and JavaScript (String.valueOf(null), String(null)), which a
    // helper that cleans form fields takes back as none. A plain create of its own: create-sends-existing-id's
    // "null" goes beside an id and create-cut-anywhere's beside a name of 77 characters; a service that
    // refuses both (Jackson's FAIL_ON_UNKNOWN_PROPERTIES and @Size(max = 64)) never got it. And an emoji last in
    // the name (12 characters, 15 bytes): a name column in utf8mb3 beside a description in utf8mb4, or a filter
    // of emoji in names, changes it, and behind a name column of 32 characters or 64 bytes no other name that holds one is taken
    body: (p) => ({ name: `${p}-js🐇`, description: 'null' }),
  },
  {
    key: 'create-name-in-two-cases',
    label: 'a name, and after it a member "Name" holding another, and nothing else a service may refuse',
    // "Name" is not name (RFC 8259 §8.3), but a binder matching keys in any case takes the later one
    // (Go's encoding/json, System.Text.Json under ASP.NET Core's web defaults, Jackson's
    // ACCEPT_CASE_INSENSITIVE_PROPERTIES), and refuses no member that folds to a field (Go's
    // DisallowUnknownFields, FAIL_ON_UNKNOWN_PROPERTIES): create-sends-id's "Name" went beside its id,
    // which that refusal refuses. Both values fit a name column of 12 (cf-xxxxx-nm, cf-xxxxx-2nd)
    body: (p) => ({ name: `${p}-nm` }),
    alsoSends: (p) => ({ Name: `${p}-2nd` }),
    mayRefuse: 'a service may refuse a field NewCategory does not name (§4.2 rule 1: an invalid value)',
  },
]
