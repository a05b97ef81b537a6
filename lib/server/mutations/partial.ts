/**
 * Mutations that break a rule on some answers only: the answers a run reads more than once (the list
 * after its POSTs, read again while the suite waits for a lag), which the checks of the first reads
 * never see, and the answer to a body sent in chunks.
 */
import type { StoredCategory } from '../reference-server.ts'
import { errorReply, seedCategories, type Mutation } from '../server-cases.ts'

/** Per server (one store each): how many lists it has answered to the key. */
const listsAnswered = new WeakMap<StoredCategory[], number>()
/** Whether this list answered to the key is the 4th, 8th … this server answers. */
function everyFourthList(store: StoredCategory[]): boolean {
  const answered = (listsAnswered.get(store) ?? 0) + 1
  listsAnswered.set(store, answered)
  return answered % 4 === 0
}
/** Per server: the lists a cache in front has kept, by the request's Accept and the store they showed. */
const cachedLists = new WeakMap<StoredCategory[], Set<string>>()

export const PARTIAL_MUTATIONS: readonly Mutation[] = [
  {
    name: 'cached-list-without-content-type',
    breaks: 'json-content-type',
    code: 'WRONG_CONTENT_TYPE',
    description:
      'a cache in front keeps the list bodies it passed, not their headers: a list asked again (same Accept) while the store is unchanged is answered from it as application/octet-stream; the first answer to each is right',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'listCategories' || reply.status !== 200) return reply
        const kept = cachedLists.get(store) ?? cachedLists.set(store, new Set()).get(store)!
        const key = `${request.accept ?? ''}|${store.length}`
        if (!kept.has(key)) return (kept.add(key), reply)
        return { ...reply, headers: { ...reply.headers, 'content-type': 'application/octet-stream' } }
      },
    },
  },
  {
    name: 'replica-500-on-every-4th-list',
    breaks: 'list-returns-200',
    code: 'SERVER_ERROR',
    description: 'one replica of four fails the list: every 4th list answered to the key is a 500 (a run reads the list to the key four times: first, as a browser, after its POSTs, and once more)',
    behaviour: {
      finish: (reply, request, store) =>
        request.operation === 'listCategories' && reply.status === 200 && everyFourthList(store) ? errorReply(500, 'internal', 'replica unavailable') : reply,
    },
  },
  {
    name: 'replica-lost-old-rows',
    breaks: 'created-in-list',
    code: 'VANISHED_FROM_LIST',
    description:
      'one replica of four lost the rows written while its replication was broken: every 4th list answered to the key lacks the categories that were there before the run (ids 1 to 3); the run\'s own it holds',
    seed: () => seedCategories(3),
    behaviour: {
      finish: (reply, request, store) =>
        request.operation === 'listCategories' && reply.status === 200 && everyFourthList(store) ? { ...reply, body: store.filter((r) => r.id > 3n) } : reply,
    },
  },
  {
    // caught by create-zero-description, the create sent in chunks (suites/cases/valid-creates.ts)
    name: 'chunked-body-read-as-empty',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description:
      'a body is read only up to its Content-Length (a WSGI app that reads CONTENT_LENGTH bytes of wsgi.input): a valid body sent in chunks (Transfer-Encoding: chunked) reads as none, and is answered 400 as a missing body',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || !/chunked/i.test(request.transferEncoding ?? '')) return reply
        if (reply.status === 201) store.splice(store.indexOf(reply.body as StoredCategory), 1)
        return errorReply(400, 'invalid_json', 'The request body is missing.')
      },
    },
  },
  {
    // caught by create-zero-description, the create sent in chunks; the requests written behind it
    // wait for the server to answer again once it is given up (lib/http/answer-clock.ts), and are
    // no findings of their own
    name: 'chunked-body-read-to-close',
    breaks: 'create-returns-201',
    code: 'NO_RESPONSE',
    description:
      "one worker answers one request at a time and reads a body sent in chunks until the connection closes (a WSGI app's wsgi.input.read() under wsgiref, which does not decode chunks): the chunked create gets no answer, and the requests behind it wait until the client gives it up",
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: true, oneAtATimeMs: 1, chunkedReadToClose: true } },
    args: ['--timeout', '1500'],
  },
  {
    // caught on the invalid creates sent before the operation stalled, each unanswered past --timeout, confirmed by its re-probes:
    // a finding of its own ("deterministic"), not a replica that fails now and then
    name: 'invalid-create-never-answered',
    // the refusals sent before the operation stalled (the rest of it held back once one went unanswered past
    // --timeout) vary with the run's order: the invalid JSON among them every time, invalid values not in a busy matrix
    breaks: 'create-rejects-invalid-json',
    code: 'NO_RESPONSE',
    alsoFailsVarying: 'the other refusals of a create sent before the operation stalled, which depends on the order the run sent them in',
    description:
      "an async handler whose validation error rejects its promise, which Express 4 does not catch: an invalid create is never answered, its connection held open (the valid ones are answered 201)",
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, neverAnswer: (reply) => reply.status === 400 } },
    args: ['--timeout', '3000'],
  },
]
