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
