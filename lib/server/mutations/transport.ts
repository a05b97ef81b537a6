/**
 * Mutations of how bodies are read and answers written: RFC 8259 §8.1 says JSON text exchanged
 * between systems is UTF-8 and must not begin with a byte order mark. A client that decodes leniently (TextDecoder
 * strips a BOM and replaces bad bytes) would take these bodies for JSON; the suite must not.
 */
import { errorReply, type Mutation } from '../server-cases.ts'

const BOM = Buffer.from([0xef, 0xbb, 0xbf])

export const TRANSPORT_MUTATIONS: readonly Mutation[] = [
  {
    name: 'json-with-byte-order-mark',
    breaks: 'list-returns-category-array',
    code: 'NOT_JSON',
    description: 'every body begins with a UTF-8 byte order mark (a serialiser writing "UTF-8 with BOM")',
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, encodeText: (text) => Buffer.concat([BOM, Buffer.from(text, 'utf8')]) } },
  },
  {
    name: 'bodies-in-latin-1',
    breaks: 'create-returns-category',
    code: 'NOT_JSON',
    description: 'bodies are written in Latin-1 (ISO-8859-1), so a non-ASCII name comes back as bytes that are not UTF-8',
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, encodeText: (text) => Buffer.from(text, 'latin1') } },
  },
  {
    // the words name the charset declared (lib/checks/response.ts); measured (stackhunt11): a front transcoding the answers so
    name: 'bodies-in-utf-16-so-declared',
    breaks: 'list-returns-category-array',
    code: 'NOT_JSON',
    description: 'bodies are written in UTF-16 with its byte order mark and declared application/json;charset=UTF-16 (a gateway that transcodes), where RFC 8259 §8.1 asks UTF-8',
    behaviour: {
      finish: (reply) => ({ ...reply, headers: { ...reply.headers, 'content-type': 'application/json;charset=UTF-16' } }),
      transport: { delayMs: 0, chunked: false, connectionClose: false, encodeText: (text) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]) },
    },
  },
  {
    name: 'gzip-without-content-encoding',
    breaks: 'list-returns-category-array',
    code: 'NOT_JSON',
    description: 'a request that accepts gzip gets a gzipped body with no Content-Encoding header (a compression step placed after the header was written)',
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, gzipUnlabelled: true } },
  },
  {
    // caught by a list that accepts gzip once the run's creates made it long: on a service that starts
    // empty, the list the run finds is "[]", which no compressor with a threshold compresses
    name: 'gzip-without-content-encoding-past-1400-bytes',
    breaks: 'list-returns-category-array',
    code: 'NOT_JSON',
    description:
      "a request that accepts gzip gets a body over 1,400 bytes (the minimum size of Go's gziphandler; compression() and Spring Boot compress from 1 KiB and 2 KiB) gzipped with no Content-Encoding: " +
      "a Go middleware that sets the header once the body passes its threshold, after the handler's WriteHeader, which Go ignores then; shorter bodies go out as they are",
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, gzipUnlabelled: 1400 } },
  },
  {
    name: 'body-pieces-decoded-apart',
    breaks: 'create-echoes-fields',
    code: 'FIELD_CHANGED',
    description:
      "each read of a request's body is decoded on its own (Node's `body += chunk`), so a character split between two reads comes back as two U+FFFD; the body as a whole is still checked to be UTF-8",
    timing: 'a server this busy (the kill matrix runs three at once in one process) may read both pieces at once, and then decodes them whole',
    behaviour: {
      decodeBody: (bytes, pieces) => {
        new TextDecoder('utf-8', { fatal: true }).decode(bytes)
        return pieces.map((piece) => piece.toString('utf8')).join('')
      },
    },
  },
  {
    name: 'body-from-first-read',
    breaks: 'create-returns-201',
    code: 'REFUSED_FOR_CONTENT',
    description:
      "a create's body is what the first read of it returned (a fixed buffer read once, as a server on a bare socket does: measured in Java), so a body that comes in two reads is taken cut and refused as not JSON",
    timing: 'a server this busy (the kill matrix runs three at once in one process) may read both pieces at once, and then takes the body whole',
    behaviour: {
      decodeBody: (bytes, pieces) => {
        new TextDecoder('utf-8', { fatal: true }).decode(bytes)
        return (pieces[0] ?? Buffer.alloc(0)).toString('utf8')
      },
    },
  },
  {
    name: 'body-from-first-read-answered-at-once',
    breaks: 'create-returns-201',
    code: 'REFUSED_FOR_CONTENT',
    description:
      "a create's body is what the first read of it returned, and it is answered at once, the rest unread (a server on a bare socket that reads once and answers): a body that comes in two reads is refused as not JSON before its second piece is written, which the client sees (early13)",
    timing: 'a server this busy (the kill matrix runs three at once in one process) may read both pieces at once, and then takes the body whole',
    behaviour: { bodyReadOnce: true },
  },
  {
    name: 'content-length-name-in-one-case',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description:
      "the body's length is looked up as `Content-Length`, in that case only (a server on a bare socket: measured in Java), and this client writes `content-length`: no byte of any body is read, and every create is answered 400 \"not valid JSON\"",
    behaviour: { decodeBody: () => '' },
  },
  {
    name: 'create-stored-answer-dropped',
    breaks: 'create-returns-201',
    code: 'NO_RESPONSE',
    description:
      'every valid create is stored, then its connection closes before any byte of the 201 (a worker that dies after its commit, a proxy that gives up on the upstream): no create is ever answered, and the list shows every record',
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, dropAnswer: (reply) => reply.status === 201 } },
  },
  // a fresh connection's creates are answered, so each create that goes first on its connection passes:
  // only the many kept-alive ones that end "answer lost, record found" show it (lib/http/lost-answer.ts)
  {
    name: 'create-stored-408-on-kept-alive',
    breaks: 'create-returns-201',
    code: 'NO_RESPONSE',
    shownByVarying: 'how many of the creates the pool puts on connections that carried an earlier request',
    description:
      'every valid create written on a connection that carried an earlier request is stored, then answered 408 Request Timeout with Connection: close (a request timeout shorter than the time the handler takes, a proxy that gives up on a reused upstream): the list shows every record; a create first on its connection is answered 201',
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, dropAnswer: (reply, keptAlive) => keptAlive && reply.status === 201, dropWith408: true } },
  },
  {
    name: 'create-stored-dropped-on-kept-alive',
    breaks: 'create-returns-201',
    code: 'NO_RESPONSE',
    shownByVarying: 'how many of the creates the pool puts on connections that carried an earlier request',
    description:
      'every valid create written on a connection that carried an earlier request is stored, then its connection closes before any byte of the 201 (a worker recycled after each request it serves on a reused connection): the list shows every record; a create first on its connection is answered 201',
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, dropAnswer: (reply, keptAlive) => keptAlive && reply.status === 201 } },
  },
  {
    name: 'create-stored-answered-429',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description:
      'every valid create is stored, then answered 429 with Retry-After: 0 (a quota counted after the handler): a 429 is a limit only when it processed nothing, and the list shows every record, so no create is answered 201',
    behaviour: { finish: (reply, request) => (request.operation === 'createCategory' && reply.status === 201 ? errorReply(429, 'rate_limited', 'Too many requests; retry later.', { 'retry-after': '0' }) : reply) },
  },
]
