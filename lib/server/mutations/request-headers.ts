/**
 * Mutations that only a request without the headers the suite's own client always sends catches
 * (Accept): the document asks clients for the Authorization header alone (§5.2), and some send no
 * Accept (.NET's HttpClient unless told to), which RFC 9110 §12.5.1 reads as any media type.
 * suites/categories/probes.ts sends the list so, once, and suites/cases/valid-creates.ts two
 * creates. (A request without a User-Agent is not sent: RFC 9110 §10.1.5 says a client SHOULD send
 * one, and every request names the run in it.)
 */
import { errorReply, type Mutation } from '../server-cases.ts'

export const REQUEST_HEADER_MUTATIONS: readonly Mutation[] = [
  {
    // caught by the list asked for with the key and no Accept (suites/categories/probes.ts, bareList)
    name: 'accept-header-assumed',
    breaks: 'list-returns-200',
    code: 'SERVER_ERROR',
    description:
      "the list's handler reads the Accept header as if every client sent one (req.headers.accept.includes('json'), to choose JSON or HTML): " +
      'a request without it throws, and the framework answers 500 (TypeError: Cannot read properties of undefined)',
    behaviour: {
      finish: (reply, request) =>
        request.operation === 'listCategories' && reply.status === 200 && request.accept === undefined ? errorReply(500, 'internal', "TypeError: Cannot read properties of undefined (reading 'includes')") : reply,
    },
  },
  {
    // caught by create-numeric-name, sent without Accept: create-empty-description, sent so too, may
    // be refused with 400 for its empty description (§4.2 rule 1), so it alone could not tell
    name: 'create-without-accept-refused',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description:
      "the create's handler checks that the client accepts JSON before it stores (const accept = req.get('Accept') ?? ''; if (!/json|\*\/\*/.test(accept)) " +
      'return badRequest(res, ...)): a create without Accept, which RFC 9110 §12.5.1 reads as any media type, is refused with 400 and an Error record',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || reply.status !== 201 || request.accept !== undefined) return reply
        store.pop()
        return errorReply(400, 'not_acceptable', 'the client must accept application/json')
      },
    },
  },
]
