/**
 * §4.2 rule 2: valid creates whose one value a service may read as something other than the text it
 * is, and so answer or store otherwise: a description of spaces alone, which a blank check takes for
 * none, and a name that is a member of JavaScript's Object.prototype, which a store kept in a plain
 * object keyed by name takes for one. Apart from valid-creates.ts, which holds no more lines.
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
]
