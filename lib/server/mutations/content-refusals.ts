/**
 * Mutations that refuse a valid value for what it holds, not for its size: a control character
 * (escaped in JSON, a valid string) called unsafe with 400, or called too large with 413, as a
 * request filter in front of a service answers a body it will not take. The suite tells such a
 * refusal from a length limit by sending plain ASCII in a body as long (suites/categories/probes.ts).
 */
import { conformingBehaviour } from '../reference-server.ts'
import { errorReply, isPlainObject, type Mutation } from '../server-cases.ts'
import { JDK_MUTATIONS } from './jdk.ts'

const upperCaseEscapesRefused = JDK_MUTATIONS.find((m) => m.name === 'upper-case-escapes-refused')!
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/

export const CONTENT_REFUSAL_MUTATIONS: readonly Mutation[] = [
  {
    name: 'refuses-control-characters-with-400',
    breaks: 'create-returns-201',
    code: 'REFUSED_FOR_CONTENT',
    description: 'a string holding a control character (U+0001 to U+001F) is refused with 400 as "unsafe", although JSON carries it escaped and it is a valid value',
    behaviour: {
      validate: (body) =>
        conformingBehaviour.validate(body) ??
        (isPlainObject(body) && Object.values(body).some((v) => typeof v === 'string' && /[\u0001-\u001f]/.test(v)) ? 'control characters are not allowed' : null),
    },
  },
  {
    // the refusal that claims a size: the control is a body as long in plain ASCII (a body limit counts the body's bytes), which it takes
    name: 'refuses-control-characters-with-413',
    breaks: 'create-returns-201',
    code: 'REFUSED_FOR_CONTENT',
    description: 'a string holding a control character (U+0001 to U+001F) is refused with 413 Payload Too Large, as a request filter answers a body it will not take, whatever its size',
    behaviour: {
      finish: (reply, request, store) => {
        const body = request.body
        if (reply.status !== 201 || !isPlainObject(body) || !Object.values(body).some((v) => typeof v === 'string' && /[\u0001-\u001f]/.test(v))) return reply
        store.pop()
        return errorReply(413, 'payload_too_large', 'the request body is too large')
      },
    },
  },
  {
    // review45's miss: the long escapes create's 400 passed as a length limit though its plain ASCII control, a valid create, was
    // answered 500 (only a control answered 201, 400 or 413 tells anything); the plain ASCII names a run sends are 18 characters at
    // most but for create-long-hundreds' 256 and create-padded-name's 258, which the 255 refuses, so the controls alone meet the column
    name: 'long-names-refused-ascii-control-answered-500',
    breaks: 'create-returns-201',
    code: 'SERVER_ERROR',
    description:
      'a name past 64 characters is refused with 400 (the validator\'s max 64), but a plain-ASCII name is checked against 255 (a fast path written for the ' +
      "framework's default string length) and reaches the VARCHAR(64) column, whose 'value too long' (22001) goes unhandled: a 500",
    behaviour: {
      validate: (body) => {
        const name = isPlainObject(body) ? body.name : undefined
        const limit = typeof name === 'string' && PRINTABLE_ASCII.test(name) ? 255 : 64
        return conformingBehaviour.validate(body) ?? (typeof name === 'string' && [...name].length > limit ? `name is longer than ${limit} characters` : null)
      },
      finish: (reply, request, store) => {
        const name = isPlainObject(request.body) ? request.body.name : undefined
        if (reply.status !== 201 || typeof name !== 'string' || [...name].length <= 64) return reply
        store.pop()
        return errorReply(500, 'internal', 'value too long for type character varying(64)')
      },
    },
  },
  {
    // the escapes create's short form (98 bytes, its emoji an upper-case surrogate pair) is the one body
    // that holds such an escape: under this limit, and larger than the first create (87), it passed as
    // refused for its size until create-sends-id, 99 bytes, showed a body as large taken
    name: 'upper-case-escapes-refused-behind-body-limit-100',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description: `${upperCaseEscapesRefused.description}; behind a body limit of 100 bytes (nginx client_max_body_size 100), a larger create body refused with 413`,
    behaviour: {
      parseBody: upperCaseEscapesRefused.behaviour.parseBody,
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || Buffer.byteLength(request.rawBody ?? '') <= 100) return reply
        if (reply.status === 201) store.pop()
        return errorReply(413, 'payload_too_large', 'request bodies are limited to 100 bytes')
      },
    },
  },
]
