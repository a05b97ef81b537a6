/**
 * The values of the wrong-type bodies (wrong-types.ts has the cases): drawn by fast-check from the
 * run's seed, so `--seed N` sends the same values again. Apart from the cases, because fast-check is
 * the largest module a run loads (390 KB of JavaScript, ~30 ms and 5 MiB): the write order (the
 * suites' manifest) needs only the cases; the probes load this with the suites, beside the
 * preflight. Loaded later, when the first wrong-type POST goes out, it changed the order in which
 * the POSTs took their slots, and with it what the first answers could show (docs/performance.md).
 */
import fc from 'fast-check'
import { newCategorySchema, type JsonType, type ObjectSchema, type WrongTypeCase } from './wrong-types.ts'

const value = fc.jsonValue({ maxDepth: 2 })
const ARBITRARIES: Record<JsonType, fc.Arbitrary<unknown>> = {
  null: fc.constant(null),
  boolean: fc.boolean(),
  integer: fc.integer(),
  // JSON.stringify writes -0 and 1e21 as integers: only values with a fraction are "number" here
  number: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n)),
  string: fc.string({ minLength: 1, maxLength: 12 }),
  array: fc.array(value, { maxLength: 3 }),
  object: fc.dictionary(fc.string({ maxLength: 8 }), value, { maxKeys: 3 }),
}

/**
 * The drawn values after the valid NewCategory of the array body: at least one, so that it is never
 * the array of the valid NewCategory alone, which goes whatever the seed (an empty draw, under 15 of
 * seeds 1 to 40, sent that body twice, and a service that reads it as pairs failed twice for it).
 */
const AFTER_THE_VALID = fc.array(value, { minLength: 1, maxLength: 3 })

/**
 * What Ruby's JSON.parse with create_additions (CVE-2013-0269's json_class) turns into the string
 * "json_class": an object in place of a string property carries it, so that such a parser, which
 * stores a string where an object was sent, answers 201 (the drawn keys follow; a drawn key of the
 * same name wins, and the object stays an object all the same). The same in every run (the other
 * property carries the marker).
 */
const RUBY_STRING = { json_class: 'String', raw: [...Buffer.from('json_class')] }

/**
 * An optional property's array is empty, whatever the seed: a parser that reads [] as no value
 * (Jackson's ACCEPT_EMPTY_ARRAY_AS_NULL_OBJECT, Spring's
 * spring.jackson.deserialization.accept-empty-array-as-null-object) stores the record without the
 * property and answers 201, and only an empty array shows it. A drawn one was empty under a third of
 * the seeds. A required property's array stays drawn: no value for it is refused all the same.
 */
const emptiedIfOptional = (c: WrongTypeCase, schema: ObjectSchema): unknown[] | undefined =>
  c.type === 'array' && c.property !== undefined && !(schema.required ?? []).includes(c.property) ? [] : undefined

/**
 * The body of one case, as JSON text. Every string property carries `marker` (the run's prefix and
 * the case key), so a server that wrongly stores the body shows it in the list that follows; the
 * array bodies start with a valid NewCategory (a server that takes arrays as batches creates it), one
 * with drawn values after it and one with nothing else, and one more is the valid NewCategory's
 * values alone, in the order its properties are declared.
 */
export function wrongTypeBody(c: WrongTypeCase, marker: string, seed: number, index: number, schema: ObjectSchema = newCategorySchema()): string {
  const arbitrary = c.type === 'array' && c.property === undefined ? AFTER_THE_VALID : ARBITRARIES[c.type]
  const drawn = fc.sample(arbitrary, { seed: (seed + index) | 0, numRuns: 1 })[0]
  const valid: Record<string, unknown> = {}
  for (const [property, declared] of Object.entries(schema.properties ?? {})) if (declared.type === 'string') valid[property] = marker
  if (c.property !== undefined && c.oneString) return JSON.stringify({ ...valid, [c.property]: [marker] })
  if (c.property !== undefined) return JSON.stringify({ ...valid, [c.property]: c.type === 'object' ? { ...RUBY_STRING, ...(drawn as object) } : emptiedIfOptional(c, schema) ?? drawn })
  // a property that is not a string (none yet) is null there: serde reads null as None for an Option field
  if (c.fieldValues) return JSON.stringify(Object.keys(schema.properties ?? {}).map((property) => valid[property] ?? null))
  if (c.type === 'array') return JSON.stringify(c.validAlone ? [valid] : [valid, ...(drawn as unknown[])])
  if (c.type === 'string') return JSON.stringify(marker)
  return JSON.stringify(drawn)
}
