/**
 * Mutations that only a request without the headers the suite's own client always sends catches
 * (Accept): the document asks clients for the Authorization header alone (§5.2), and some send no
 * Accept (.NET's HttpClient unless told to), which RFC 9110 §12.5.1 reads as any media type.
 * suites/categories/probes.ts sends the list so, once. (A request without a User-Agent is not
 * sent: RFC 9110 §10.1.5 says a client SHOULD send one, and every request names the run in it.)
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
]
