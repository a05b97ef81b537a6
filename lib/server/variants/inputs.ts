/**
 * Conforming variants for the freedoms the suite's breadth of inputs meets: limits on lengths and
 * sizes (§8 shows none), a store that cannot hold U+0000, a parser that ignores a byte order mark
 * (RFC 8259 §8.1 allows it), and escape forms a JSON writer may choose. The suite must pass each one.
 */
import { conformingBehaviour, serialise } from '../reference-server.ts'
import { errorReply, seedCategories, type Variant } from '../server-cases.ts'
import { SQL_STORE_VARIANTS } from './sql-stores.ts'

const MAX_NAME = 255
const MAX_DESCRIPTION = 1_000
const MAX_BODY_BYTES = 4_096
/** A gateway's small limit (nginx client_max_body_size 100): above every create the suite requires 201 for, below the longest drawn wrong-type bodies. */
const SMALL_BODY_BYTES = 100

/**
 * Columns of a fixed size, as real tables have them: longer values refused with 400 and an Error
 * record. `count` is how the column measures (MySQL and PostgreSQL count characters, Oracle's
 * VARCHAR2 counts UTF-8 bytes by default, Java and .NET validators count UTF-16 code units).
 */
export function columnLimits(name: number, description: number, count: 'characters' | 'bytes' | 'utf16' = 'characters'): Pick<Variant, 'behaviour'>['behaviour'] {
  const size = (text: string) => (count === 'bytes' ? Buffer.byteLength(text) : count === 'utf16' ? text.length : [...text].length)
  return {
    validate(body) {
      const problem = conformingBehaviour.validate(body)
      if (problem !== null) return problem
      const fields = body as { name: string; description?: string }
      if (size(fields.name) > name) return `value too long for column NAME (maximum: ${name})`
      return size(fields.description ?? '') > description ? `value too long for column DESCRIPTION (maximum: ${description})` : null
    },
  }
}

/** A create body over `bytes` refused with `status` and an Error record, as a gateway's or a reader's body limit refuses it. */
function bodyLimit(bytes: number, status: 400 | 413): Variant['behaviour'] {
  return {
    finish: (reply, request, store) => {
      if (request.operation !== 'createCategory' || Buffer.byteLength(request.rawBody ?? '') <= bytes) return reply
      if (reply.status === 201) store.pop()
      return errorReply(status, 'body_too_large', `request bodies are limited to ${bytes} bytes`)
    },
  }
}

const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

const holdsNul = (body: unknown) =>
  body !== null && typeof body === 'object' && Object.values(body as object).some((v) => typeof v === 'string' && v.includes('\u0000'))

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** True when a JSON value nests deeper than `levels`. */
const nestedPast = (value: unknown, levels: number): boolean =>
  value !== null && typeof value === 'object' && (levels === 0 || Object.values(value).some((inner) => nestedPast(inner, levels - 1)))

const nameOf = (body: unknown) => (body !== null && typeof body === 'object' && typeof (body as { name?: unknown }).name === 'string' ? (body as { name: string }).name : undefined)


/** Names are unique (a UNIQUE index): a create whose name the store holds is taken back and refused with `status` and an Error record. */
function refusingRepeats(status: number, code: string, message: string): Variant['behaviour'] {
  return {
    finish: (reply, request, store) => {
      const name = nameOf(request.body)
      if (request.operation !== 'createCategory' || reply.status !== 201 || !store.slice(0, -1).some((r) => r.name === name)) return reply
      store.pop()
      return errorReply(status, code, message)
    },
  }
}

export const INPUT_VARIANTS: readonly Variant[] = [
  {
    // review56: the 1 MB words (lib/checks/cut-lists.ts) are for records missing from such a list; whole, it passes and says nothing of a cut
    name: 'list-of-1-mb-whole',
    description:
      "370 records of 2,700-character descriptions listed whole, about 1 MB of JSON, the size of one DynamoDB Scan call's page, every record in it (§8: all categories in one array)",
    seed: () => seedCategories(370).map((record) => ({ ...record, description: `${record.name} `.repeat(400).slice(0, 2700) })),
    behaviour: {},
  },
  {
    name: 'content-type-exactly-application-json',
    description:
      'a create whose Content-Type is not exactly "application/json" (a charset added, another type) is refused with 415, as a Go handler comparing the header does: the document asks clients for exactly that (§4.2 rule 4)',
    behaviour: {
      finish: (reply, request) =>
        request.operation === 'createCategory' && reply.status === 201 && request.contentType !== 'application/json'
          ? errorReply(415, 'unsupported_media_type', 'Content-Type must be application/json')
          : reply,
    },
  },
  {
    name: 'empty-name-refused-400',
    description: 'an empty name is an invalid value for this service: refused with 400 and an Error record (§4.2 rule 1)',
    behaviour: { validate: (body) => conformingBehaviour.validate(body) ?? (nameOf(body) === '' ? 'name must not be empty' : null) },
  },
  {
    name: 'empty-name-accepted-empty-description-refused',
    description:
      "an empty name is taken and an empty description refused with 400 and an Error record (Fastify's description: {type: 'string', minLength: 1}): " +
      'both are the service\'s choice (§4.2 rule 1), and the refused create must not be taken for the empty name\'s record',
    behaviour: {
      validate: (body) =>
        conformingBehaviour.validate(body) ?? ((body as { description?: unknown }).description === '' ? 'description must NOT have fewer than 1 characters' : null),
    },
  },
  {
    name: 'blank-descriptions-refused',
    description:
      "an empty description and one of whitespace alone are refused with 400 and an Error record (Joi's string().pattern(/\\S/), Rails' validates :description, presence: true, allow_nil: true): " +
      'the service\'s choice (§4.2 rule 1), for the blank description as for the empty one',
    behaviour: {
      validate: (body) =>
        conformingBehaviour.validate(body) ?? (/^\s*$/.test((body as { description?: string }).description ?? 'x') ? 'description must not be blank' : null),
    },
  },
  {
    name: 'repeated-names-refused-409',
    description: 'names are unique (a UNIQUE index): a create whose name exists is refused with 409 Conflict and an Error record (uniqueness is not shown)',
    behaviour: refusingRepeats(409, 'conflict', 'a category with this name exists'),
  },
  {
    name: 'repeated-names-refused-422',
    description: "names are unique, and a repeated one is refused with 422 Unprocessable Content and an Error record (Rails' and Laravel's answer to a failed unique validation)",
    behaviour: refusingRepeats(422, 'taken', 'name has already been taken'),
  },
  {
    name: 'repeated-names-refused-409-as-problem-json-with-extras',
    description:
      'names are unique, and a repeated one is refused with 409 as application/problem+json; charset=utf-8, its Error record (code a number as a string, message empty) beside RFC 9457 members and a trace id: ' +
      'what §2 asks holds, and the rest is the service\'s (review59: a 409 judged since verdicts13 must pass in any form the document allows)',
    behaviour: {
      finish: (reply, request, store) => {
        const refused = refusingRepeats(409, '23505', '').finish!(reply, request, store)
        if (refused === reply) return reply
        const extras = { type: 'about:blank', title: 'Conflict', detail: 'name taken', traceId: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', errors: [{ field: 'name' }] }
        return { ...refused, headers: { 'content-type': 'application/problem+json; charset=utf-8' }, body: { ...extras, ...(refused.body as object) } }
      },
    },
  },
  {
    name: 'repeated-names-refused-400',
    description: 'names are unique, and a repeated one is refused with 400 and an Error record, as an invalid value',
    behaviour: refusingRepeats(400, 'duplicate_name', 'name is taken'),
  },
  {
    name: 'name-limit-12',
    description:
      'a VARCHAR(12) name: longer names are refused with 400 and an Error record (lengths are not shown, §8). The run passes: the creates whose names ' +
      "the prefix makes longer are not verified (cause length-limit), since the service took no name as long; the empty name's record is created",
    behaviour: columnLimits(12, 255),
  },
  {
    // create-unicode's short form, 12 code points in the name and 12 in the description, is the one create such columns take
    name: 'name-limit-12-description-16',
    description:
      'a VARCHAR(12) name and a VARCHAR(16) description: longer values are refused with 400 and an Error record (§8). The run passes: the one create ' +
      "that fits, create-unicode's short form, is taken, and the creates refused for lengths are not verified (cause length-limit)",
    behaviour: columnLimits(12, 16),
  },
  {
    // create-null-description's 12-character name ends in an emoji: 13 UTF-16 units, 15 bytes; create-none-description's
    // ends in a zero-width joiner (14 bytes), create-zero-description's in a precomposed é (13 bytes): refused, as the
    // plain ASCII names of 13 characters are, for a length no accepted name reached (review47: they failed create-returns-201)
    name: 'name-limit-12-utf16',
    description: 'a Java validator, @Size(max = 12) on the name, counts UTF-16 code units (an emoji is two): longer names refused with 400 and an Error record (§8)',
    behaviour: columnLimits(12, 255, 'utf16'),
  },
  {
    name: 'name-limit-12-bytes',
    description: "Oracle's VARCHAR2(12) name, which counts UTF-8 bytes (an emoji is four, a zero-width joiner three, a precomposed é two): longer names refused with 400 and an Error record (§8)",
    behaviour: columnLimits(12, 255, 'bytes'),
  },
  {
    name: 'description-limit-24',
    description:
      'a VARCHAR(24) description: longer descriptions are refused with 400 and an Error record (§8). The run passes: the first create\'s ' +
      '32-character description is not verified (cause length-limit), since the service took no description as long',
    behaviour: columnLimits(255, 24),
  },
  {
    name: 'name-limit-16',
    description: 'a VARCHAR(16) name and a VARCHAR(32) description: longer values are refused with 400 and an Error record (lengths are not shown, §8)',
    behaviour: columnLimits(16, 32),
  },
  {
    name: 'name-limit-32',
    description: 'a VARCHAR(32) name and a VARCHAR(255) description (MySQL counts characters): longer values are refused with 400',
    behaviour: columnLimits(32, 255),
  },
  {
    name: 'name-limit-64-bytes',
    description: "Oracle's VARCHAR2(64) name and VARCHAR2(100) description count UTF-8 bytes: a 22-character name of emoji is already too long",
    behaviour: columnLimits(64, 100, 'bytes'),
  },
  {
    // create-whitespace's 64-character name, whose last 44 are spaces, is taken by both whole: a column that cuts it shows
    name: 'name-limit-64',
    description: 'a VARCHAR(64) name and a VARCHAR(255) description (MySQL and PostgreSQL count characters): longer values are refused with 400 and an Error record (§8)',
    behaviour: columnLimits(64, 255),
  },
  {
    name: 'name-and-description-limit-255',
    description: "a VARCHAR(255) name and description, the length an ORM's defaults give a string column (JPA's, Laravel's, Rails' on MySQL): longer values are refused with 400 and an Error record (§8)",
    behaviour: columnLimits(255, 255),
  },
  {
    name: 'name-limit-50-utf16',
    description: 'a Java validator, @Size(max = 50) on the name and 200 on the description, counts UTF-16 code units (an emoji is two)',
    behaviour: columnLimits(50, 200, 'utf16'),
  },
  {
    name: 'refuses-long-strings',
    description: `a name over ${MAX_NAME} characters or a description over ${MAX_DESCRIPTION} is refused with 400 and an Error record (lengths are not shown, §8)`,
    behaviour: {
      validate(body) {
        const problem = conformingBehaviour.validate(body)
        if (problem !== null) return problem
        const { name, description } = body as { name: string; description?: string }
        return name.length > MAX_NAME || (description ?? '').length > MAX_DESCRIPTION ? `name is limited to ${MAX_NAME} characters, description to ${MAX_DESCRIPTION}` : null
      },
    },
  },
  {
    name: 'refuses-nul-with-400',
    description:
      'a string holding U+0000 is refused with 400 and an Error record, as a PostgreSQL-backed service must (text cannot hold it): ' +
      'an invalid value (§4.2 rule 1) for its store, as an empty name may be',
    behaviour: {
      validate: (body) => conformingBehaviour.validate(body) ?? (holdsNul(body) ? 'invalid byte sequence for encoding "UTF8": 0x00' : null),
    },
  },
  {
    name: 'refuses-unstorable-values-400',
    description:
      'values its stack cannot store or give back are refused with 400 and an Error record (§4.2 rule 1: invalid values for this service): lone surrogates ' +
      "(serde_json: \"lone leading surrogate in hex escape\"), U+0000 (PostgreSQL text), noncharacters, and bodies nested past 128 levels (serde_json's recursion limit)",
    behaviour: {
      validate: (body) => {
        const problem = conformingBehaviour.validate(body)
        if (problem !== null) return problem
        if (nestedPast(body, 128)) return 'recursion limit exceeded'
        const strings = Object.values(body as object).filter((v): v is string => typeof v === 'string')
        return strings.some((v) => LONE_SURROGATE.test(v) || /[\u0000\ufdd0-\ufdef\ufffe\uffff]/u.test(v) || /[\u{1fffe}\u{1ffff}\u{10fffe}\u{10ffff}]/u.test(v))
          ? 'value holds a character this service cannot store'
          : null
      },
    },
  },
  {
    name: 'keeps-unknown-fields',
    description: 'fields NewCategory does not name are stored with the record and answered back in the create and the list, however deep (extra properties are a freedom)',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || reply.status !== 201 || request.body === null || typeof request.body !== 'object') return reply
        const { id: _id, name: _name, description: _description, ...extra } = request.body as Record<string, unknown>
        store[store.length - 1] = { ...store[store.length - 1], ...extra }
        return { ...reply, body: store[store.length - 1] }
      },
    },
  },
  {
    name: 'ascii-only-json',
    description: "answers write every character beyond ASCII as a \\u escape, lone surrogates included (Python's json.dumps default, ensure_ascii=True; Flask's default)",
    behaviour: {
      finish: (reply) => ({ ...reply, body: serialise(reply.body).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) }),
    },
  },
  {
    name: 'request-size-limit-413',
    description: `a create body over ${MAX_BODY_BYTES} bytes is refused with 413 Payload Too Large and an Error record (sizes are not shown, §8)`,
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || Buffer.byteLength(request.rawBody ?? '') <= MAX_BODY_BYTES) return reply
        if (reply.status === 201) store.pop()
        return errorReply(413, 'payload_too_large', `request bodies are limited to ${MAX_BODY_BYTES} bytes`)
      },
    },
  },
  {
    name: 'request-size-limit-413-before-the-body',
    description: `a create body over ${SMALL_BODY_BYTES} bytes is refused with 413 before it is read, as a gateway's body limit does (nginx client_max_body_size), a body of a value of the wrong type too: sizes are not shown (§8)`,
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || Buffer.byteLength(request.rawBody ?? '') <= SMALL_BODY_BYTES) return reply
        if (reply.status === 201) store.pop()
        return { status: 413, headers: { 'content-type': 'text/html' }, body: '<html><head><title>413 Request Entity Too Large</title></head><body><center><h1>413 Request Entity Too Large</h1></center><hr><center>nginx</center></body></html>' }
      },
    },
  },
  {
    // the first create's body, indented (87 bytes), is over it, and create-numeric-name's, as long in both fields but compact (76), under it
    name: 'request-size-limit-85-bytes',
    description:
      "a gateway's body limit of 85 bytes (nginx client_max_body_size 85), refused with 413 and an Error record: the first create, 16 and 32 characters laid out over several lines, " +
      "is refused where a compact create of the same lengths is taken, a size refused and not the layout (sizes are not shown, §8)",
    behaviour: bodyLimit(85, 413),
  },
  {
    // the first create (87 bytes) is under it, and the escapes create's short form, its escapes written out (98), over it
    name: 'request-size-limit-90-bytes-answered-400',
    description:
      "Go's http.MaxBytesReader(w, r.Body, 90): a create body over 90 bytes fails the decoder, answered 400 with an Error record; the escapes create's short form, " +
      'whose values fit the first create\'s lengths but whose escapes make its body 98 bytes, is refused for its size (sizes are not shown, §8)',
    behaviour: bodyLimit(90, 400),
  },
  {
    // create-unicode's short name, 13 code points (e + U+0301, a right-to-left override), is 12 graphemes: taken, where the 13-character names of plain ASCII are not
    name: 'ecto-name-limit-12-graphemes',
    description:
      "Phoenix with Ecto's validate_length(:name, max: 12), which counts grapheme clusters (e + U+0301 is one): longer names refused with 400 and an Error record (lengths are not shown, §8)",
    behaviour: {
      validate(body) {
        const problem = conformingBehaviour.validate(body)
        if (problem !== null) return problem
        return [...GRAPHEMES.segment((body as { name: string }).name)].length > 12 ? 'name should be at most 12 character(s)' : null
      },
    },
  },
  {
    name: 'byte-order-mark-ignored',
    description: 'a create body that starts with a UTF-8 byte order mark is read without it and accepted (RFC 8259 §8.1: a parser MAY ignore it)',
    behaviour: { decodeBody: (bytes) => new TextDecoder('utf-8', { fatal: true }).decode(bytes) },
  },
  {
    name: 'html-safe-json-escapes',
    description: "answers escape <, >, &, U+2028 and U+2029 as \\u escapes and / as \\/ (Go's encoding/json and JSON for HTML pages)",
    behaviour: {
      finish: (reply) => ({
        ...reply,
        body: serialise(reply.body).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).replaceAll('/', '\\/'),
      }),
    },
  },
  // services on a SQL store, whose constraints and defaults decide what a create gets
  ...SQL_STORE_VARIANTS,
]
