/**
 * §4.2 rule 1, §5.4: the invalid bodies typed by hand, because a schema cannot say them (malformed
 * JSON is suites/cases/malformed-json.ts, values of the wrong type suites/cases/wrong-types.ts).
 */
import type { WritePriority } from './write-priority.ts'

export interface InvalidBody extends WritePriority {
  key: string
  label: string
  rule: 'create-rejects-missing-name' | 'create-rejects-missing-body'
  /** The raw request body. */
  body: (prefix: string) => string
  /**
   * What the body carries that a stored record would show (the refusal checks look for it in the
   * list); one a lenient service could take for a name fits NAME_FLOOR (case-markers.ts says why).
   */
  marker?: (prefix: string) => string
  /** A query string the POST carries: §4.2 gives the operation none, so it must change nothing. */
  query?: (prefix: string) => string
  /** What a 201 to it says of the service, and how such a service is usually fixed. */
  acceptedMeans?: string
}

/** A body without name taken: the binder made a record of it and nothing checked it before the store. */
const NO_VALIDATION =
  'the service stored a body without name: nothing checked it before the store (Spring: @Valid missing on the @RequestBody parameter, or no @NotNull/@NotBlank on name; ' +
  'FastAPI: name declared Optional; Express: no schema on the route)'

/** A body whose name stood only in a "__proto__" member taken: the handler copied it onto an object and read that object's fields. */
const NAME_FROM_PROTOTYPE =
  'the service took the name from the body\'s "__proto__" member: JSON.parse keeps it as a member of its own, and a copy of the body onto an object ' +
  '(Object.assign({ description: null }, body) for defaults, Object.assign(new Category(), body), a for…in loop) makes it that object\'s prototype, whose name the record inherited (an Express, Koa or Hono handler); ' +
  'spread it instead ({ description: null, ...body } defines "__proto__" as a member), read the fields from the parsed body itself, or refuse such a body as Fastify\'s secure-json-parse does'

export const INVALID_BODIES: readonly InvalidBody[] = [
  { key: 'missing-name', label: 'a body without name', rule: 'create-rejects-missing-name', priority: 3,
    body: (p) => JSON.stringify({ description: `${p}-noname` }), marker: (p) => `${p}-noname`, acceptedMeans: NO_VALIDATION },
  // a framework that merges the query into the body's fields (Sinatra's params.merge, PHP's
  // $_REQUEST) creates a record named by the query
  { key: 'missing-name-named-in-query', label: 'a body without name, and a name in the query string (§4.2: no query parameters)', rule: 'create-rejects-missing-name',
    body: (p) => JSON.stringify({ description: `${p}-inquery` }), query: (p) => `?name=${p}-inquery`, marker: (p) => `${p}-inquery` },
  { key: 'empty-body', label: 'an empty body', rule: 'create-rejects-missing-body', priority: 6, body: () => '' },
  { key: 'empty-object', label: 'an empty object', rule: 'create-rejects-missing-name', body: () => '{}', acceptedMeans: NO_VALIDATION },
  // JSON names compare code unit by code unit (RFC 8259 §8.3): "Name" is not name,
  // though Go's encoding/json and ASP.NET Core's web defaults bind it to name
  { key: 'name-key-capitalised', label: 'the name under the key "Name"', rule: 'create-rejects-missing-name',
    body: (p) => JSON.stringify({ Name: `${p}-namekey` }), marker: (p) => `${p}-namekey` },
  // JSON.parse keeps "__proto__" as a member of its own, but a handler that copies the body onto an
  // object (Object.assign({ description: null }, body) for defaults, Object.assign(new Category(), body),
  // a for…in loop) sets it as that object's prototype, whose name the record then inherits. Written as text: a "__proto__" key in an object literal
  // sets the literal's prototype, and JSON.stringify would leave it out.
  { key: 'name-under-proto', label: 'the name only inside a "__proto__" member', rule: 'create-rejects-missing-name',
    body: (p) => `{"__proto__": ${JSON.stringify({ name: `${p}-proto` })}}`, marker: (p) => `${p}-proto`, acceptedMeans: NAME_FROM_PROTOTYPE },
]
