/** Mutations of §4.2 rule 1, §5.4: invalid create bodies are answered 400; and validation stricter than §2, which refuses valid ones. */
import { conformingBehaviour } from '../reference-server.ts'
import { errorReply, isInvalidBody, isInvalidJson, isMissingBody, isPlainObject, type Mutation } from '../server-cases.ts'

/** Object keys matched to the documented properties whatever their case (Go encoding/json, ASP.NET Core web defaults). */
function foldDocumentedKeys(value: unknown): unknown {
  if (!isPlainObject(value)) return value
  const documented = ['name', 'description']
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [documented.includes(key.toLowerCase()) ? key.toLowerCase() : key, v]))
}

/**
 * What Python's dict() makes of a list, as pydantic v1 coerces a body that is not a dict: each
 * element is a key/value pair, and an element that is a two-key object gives its two keys
 * ([{"name": "x", "description": "y"}] → {"name": "description"}). Anything else stays as it was.
 */
function readAsPairs(value: unknown): unknown {
  if (!Array.isArray(value)) return value
  const pairs = value.map((element) => (Array.isArray(element) ? element : isPlainObject(element) ? Object.keys(element) : typeof element === 'string' ? [...element] : []))
  return pairs.every((pair) => pair.length === 2 && typeof pair[0] === 'string') ? Object.fromEntries(pairs) : value
}

export const VALIDATION_MUTATIONS: readonly Mutation[] = [
  // §4.2 rule 1: a body without name is answered 400
  {
    name: 'missing-name-gets-default',
    breaks: 'create-rejects-missing-name',
    code: 'UNEXPECTED_STATUS',
    description: 'a body without name creates a category named "unnamed"',
    behaviour: {
      validate: (body) => (isPlainObject(body) && !('name' in body) ? conformingBehaviour.validate({ ...body, name: 'unnamed' }) : conformingBehaviour.validate(body)),
      toRecord: (body, id) => conformingBehaviour.toRecord({ ...body, name: body.name ?? 'unnamed' }, id),
    },
  },
  {
    name: 'json-keys-bound-case-insensitively',
    breaks: 'create-rejects-missing-name',
    code: 'UNEXPECTED_STATUS',
    description:
      'object keys are bound to properties case-insensitively, so {"Name": "x"} creates a category although the body lacks name ' +
      "(Go's encoding/json and ASP.NET Core's JsonSerializerDefaults.Web do this by default)",
    behaviour: { parseBody: (text) => foldDocumentedKeys(JSON.parse(text)) },
  },
  {
    // the fix KEY_CASE_IGNORED names, half done: name looked up in a map[string]json.RawMessage
    // (so {"Name": "x"} alone is refused), then the body bound to the struct, case-insensitively,
    // the later of two members that fold to one field winning, as Go's encoding/json binds them
    name: 'json-keys-bound-case-insensitively-after-a-check',
    breaks: 'create-echoes-fields',
    code: 'FIELD_CHANGED',
    description:
      'name is checked under its exact key, then the body is bound to the struct case-insensitively, so {"name": "a", "Name": "b"} creates "b" ' +
      "(Go: a map[string]json.RawMessage checked, then json.Unmarshal into the struct)",
    behaviour: {
      toRecord: (body, id) => conformingBehaviour.toRecord(foldDocumentedKeys(body) as { name: string; description?: string }, id),
    },
  },
  {
    name: 'missing-name-answers-422',
    breaks: 'create-rejects-missing-name',
    code: 'UNEXPECTED_STATUS',
    description: 'a body without name is answered 422 Unprocessable Entity instead of 400',
    behaviour: {
      finish: (reply, request) =>
        isInvalidBody(reply, request) && isPlainObject(request.body) && !('name' in request.body)
          ? errorReply(422, 'unprocessable', 'name is required')
          : reply,
    },
  },

  // §4.2 rule 1: a value of the wrong type is answered 400
  {
    name: 'name-number-coerced',
    breaks: 'create-rejects-invalid-values',
    code: 'UNEXPECTED_STATUS',
    description: 'a numeric name is accepted and stored as a string (42 becomes "42")',
    behaviour: {
      validate: (body) => conformingBehaviour.validate(isPlainObject(body) && typeof body.name === 'number' ? { ...body, name: String(body.name) } : body),
      toRecord: (body, id) => conformingBehaviour.toRecord({ ...body, name: String(body.name) }, id),
    },
  },
  {
    name: 'null-description-accepted',
    breaks: 'create-rejects-invalid-values',
    code: 'UNEXPECTED_STATUS',
    description: '"description": null is accepted as "no description"',
    behaviour: {
      validate: (body) => conformingBehaviour.validate(isPlainObject(body) && body.description === null ? { name: body.name } : body),
      toRecord: (body, id) => conformingBehaviour.toRecord({ name: body.name, ...(typeof body.description === 'string' ? { description: body.description } : {}) }, id),
    },
  },
  {
    name: 'array-body-takes-first',
    breaks: 'create-rejects-invalid-values',
    code: 'UNEXPECTED_STATUS',
    description: 'a body that is an array is taken as a batch of one: its first element is created',
    behaviour: {
      validate: (body) => conformingBehaviour.validate(Array.isArray(body) ? body[0] : body),
      toRecord: (body, id) => conformingBehaviour.toRecord(Array.isArray(body) ? (body[0] as typeof body) : body, id),
    },
  },
  {
    name: 'array-body-read-as-pairs',
    breaks: 'create-rejects-invalid-values',
    code: 'UNEXPECTED_STATUS',
    description:
      'a body that is an array is read as key/value pairs, as pydantic v1 (FastAPI before 0.100) coerces it with dict(): ' +
      '[{"name": "x", "description": "y"}] creates a category named "description"; an array with anything after the object is refused',
    behaviour: { parseBody: (text) => readAsPairs(JSON.parse(text)) },
    // the drawn array body has values after the object (under every seed since one is always drawn):
    // only the array of the valid body alone, sent whatever the seed, catches it
    args: ['--seed', '2'],
  },
  {
    name: 'single-value-arrays-unwrapped',
    breaks: 'create-rejects-invalid-values',
    code: 'UNEXPECTED_STATUS',
    description:
      'a property sent as an array of one string is read as that string, as Jackson does with UNWRAP_SINGLE_VALUE_ARRAYS ' +
      '(a Spring Boot setting): {"name": ["x"]} creates a category named "x"',
    behaviour: {
      parseBody: (text) => {
        const body: unknown = JSON.parse(text)
        if (!isPlainObject(body)) return body
        return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, Array.isArray(v) && v.length === 1 && typeof v[0] === 'string' ? v[0] : v]))
      },
    },
  },
  {
    name: 'validation-answers-422',
    breaks: 'create-rejects-invalid-values',
    code: 'UNEXPECTED_STATUS',
    description: 'every body that fails validation is answered 422 (Rails style) instead of 400',
    behaviour: {
      finish: (reply, request) => (isInvalidBody(reply, request) ? errorReply(422, 'unprocessable', 'the body does not validate') : reply),
    },
  },
  {
    // the status is create-rejects-*'s finding; the body, not the Error record, is §7's, in one finding with it (fault-groups.ts)
    name: 'validation-answers-422-with-a-detail-list',
    breaks: 'error-body-is-error-record',
    code: 'SCHEMA_MISMATCH',
    description:
      'every body that fails validation is answered as FastAPI answers a RequestValidationError: 422 {"detail": [{"loc": ["body", "name"], "msg": "field required", "type": "value_error.missing"}]}',
    behaviour: {
      finish: (reply, request) =>
        isInvalidBody(reply, request)
          ? { status: 422, headers: { 'content-type': 'application/json' }, body: { detail: [{ loc: ['body', 'name'], msg: 'field required', type: 'value_error.missing' }] } }
          : reply,
    },
  },

  // §5.4: invalid JSON is answered 400
  {
    name: 'invalid-json-answers-500',
    breaks: 'create-rejects-invalid-json',
    code: 'SERVER_ERROR',
    description: 'the JSON parse error escapes to the error handler: 500',
    behaviour: { finish: (reply, request) => (isInvalidJson(reply, request) ? errorReply(500, 'internal', 'Unexpected end of JSON input') : reply) },
  },
  {
    name: 'invalid-json-answers-422',
    breaks: 'create-rejects-invalid-json',
    code: 'UNEXPECTED_STATUS',
    description: 'invalid JSON is answered 422 "JSON decode error" (FastAPI style)',
    behaviour: { finish: (reply, request) => (isInvalidJson(reply, request) ? errorReply(422, 'json_invalid', 'JSON decode error') : reply) },
  },
  {
    name: 'lenient-json-parser',
    breaks: 'create-rejects-invalid-json',
    code: 'UNEXPECTED_STATUS',
    description: 'a forgiving parser repairs trailing commas and unclosed braces, and creates the category',
    behaviour: {
      parseBody(text) {
        try {
          return JSON.parse(text) as unknown
        } catch (error) {
          const trimmed = text.trim().replace(/,$/, '')
          if (trimmed === '') throw error
          const open = (trimmed.match(/\{/g) ?? []).length - (trimmed.match(/\}/g) ?? []).length
          return JSON.parse(trimmed + '}'.repeat(Math.max(open, 0))) as unknown
        }
      },
    },
  },

  // §4.2, §5.4: a create without a body is answered 400
  {
    name: 'missing-body-answers-500',
    breaks: 'create-rejects-missing-body',
    code: 'SERVER_ERROR',
    description: 'an empty body crashes the handler (reading a property of undefined): 500',
    behaviour: {
      finish: (reply, request) =>
        isMissingBody(reply, request) ? errorReply(500, 'internal', "Cannot read properties of undefined (reading 'name')") : reply,
    },
  },
  {
    name: 'missing-body-answers-411',
    breaks: 'create-rejects-missing-body',
    code: 'UNEXPECTED_STATUS',
    description: 'an empty body is answered 411 Length Required',
    behaviour: { finish: (reply, request) => (isMissingBody(reply, request) ? errorReply(411, 'length_required', 'a request body is required') : reply) },
  },
  // §4.2 rule 2, §2: a name is any string; §8 leaves maximum lengths open, not a least one
  {
    name: 'names-under-3-characters-refused',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description: "a name under 3 characters is refused with 400, as by Laravel's `required|min:3` (§8 leaves maximum lengths open, not a least one)",
    behaviour: {
      validate: (body) => conformingBehaviour.validate(body) ?? ([...(body as { name: string }).name].length < 3 ? 'name must be at least 3 characters' : null),
    },
  },
  {
    name: 'php-empty-refuses-zero',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description: 'a name for which PHP\'s empty() holds ("" and "0") is refused with 400: `if (empty($data[\'name\']))` takes the name "0" for no name',
    behaviour: {
      validate: (body) => conformingBehaviour.validate(body) ?? (['', '0'].includes((body as { name: string }).name) ? 'name is required' : null),
    },
  },
  {
    name: 'php-empty-refuses-zero-description',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description: 'a description for which PHP\'s empty() holds ("" and "0") is refused with 400: `if (isset($d[\'description\']) && empty($d[\'description\']))` refuses an empty description, as a service may, and "0" with it',
    behaviour: {
      validate: (body) => conformingBehaviour.validate(body) ?? (['', '0'].includes((body as { description?: string }).description ?? 'x') ? 'description must not be empty' : null),
    },
  },
  // §4.2: the operation has no query parameters; §4.2 rule 1: a body without name gets 400
  {
    name: 'query-merged-into-body',
    breaks: 'create-rejects-missing-name',
    code: 'UNEXPECTED_STATUS',
    description: "the query string's fields fill in what the body lacks (Sinatra's params.merge(JSON.parse(body)), PHP's $_REQUEST), so a body without name creates the name the query gives",
    behaviour: {
      finish: (reply, request, store) => {
        const name = new URLSearchParams(request.query).get('name')
        if (request.operation !== 'createCategory' || reply.status !== 400 || name === null || !isPlainObject(request.body) || 'name' in request.body) return reply
        const description = request.body.description
        const record = conformingBehaviour.toRecord({ name, ...(typeof description === 'string' ? { description } : {}) }, conformingBehaviour.nextId(store))
        store.push(record)
        return { status: 201, headers: {}, body: conformingBehaviour.createdBody(record) }
      },
    },
  },
  // §4.2 rule 1: a value of the wrong type gets 400, an object in place of a string too
  {
    name: 'json-class-additions',
    breaks: 'create-rejects-invalid-values',
    code: 'UNEXPECTED_STATUS',
    description: "objects carrying json_class are made into what they name (Ruby's JSON.parse with create_additions: true, CVE-2013-0269), so {\"json_class\": \"String\", \"raw\": [100, 111, 103]} in place of a name is the string \"dog\"",
    behaviour: {
      parseBody: (text) =>
        JSON.parse(text, (_key, value: unknown) =>
          isPlainObject(value) && value.json_class === 'String' && Array.isArray(value.raw) ? Buffer.from(value.raw as number[]).toString('utf8') : value,
        ) as unknown,
    },
  },
]
