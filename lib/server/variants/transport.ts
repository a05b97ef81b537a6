/**
 * Conforming variants of the transport: freedoms the document leaves in how answers travel.
 * Compression is an HTTP matter the document does not restrict, and rate limits are "not shown"
 * (§8): a server may compress every body, and may answer 429 or 503, with or without Retry-After. The suite
 * decodes the first (an advisory note says identity was asked for) and waits out the others.
 * Slow answers are a freedom too, also from a server that answers one request at a time.
 */
import type { Reply, RequestInfo, StoredCategory } from '../reference-server.ts'
import { errorReply, seedCategories, type Variant } from '../server-cases.ts'

/** A create that is answered 429 or 503 was not processed: the record is taken back. */
function notProcessed(reply: Reply, request: RequestInfo, store: StoredCategory[], status: 429 | 503, retryAfter: number): Reply {
  if (request.operation === 'createCategory' && reply.status === 201) store.splice(store.indexOf(reply.body as StoredCategory), 1)
  const [code, message] = status === 429 ? ['rate_limited', 'Too many requests; retry later.'] : ['unavailable', 'Down for maintenance; retry later.']
  return errorReply(status, code, message, { 'retry-after': String(retryAfter) })
}

/** Per server (one store each): the window the limiter is in, and the requests it has let through. */
const windows = new WeakMap<StoredCategory[], { index: number; served: number; startedAt: number }>()

/**
 * A fixed-window limiter that keeps its word: `limit` requests per second, the rest refused
 * with Retry-After: 1, after which a new window has begun. Timed, but the suite's first ~80
 * requests go out within well under a second however loaded the machine is, so every run meets it.
 */
function overTheLimit(store: StoredCategory[], limit = RATE_LIMIT): boolean {
  const now = Date.now()
  const state = windows.get(store) ?? { index: 0, served: 0, startedAt: now }
  windows.set(store, state)
  const index = Math.floor((now - state.startedAt) / RATE_WINDOW_MS)
  if (index !== state.index) Object.assign(state, { index, served: 0 })
  if (state.served >= limit) return true
  state.served++
  return false
}
/** nginx's page for a request its limit_req refuses (limit_req_status defaults to 503). */
const NGINX_503_PAGE = '<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n'

/** Per server: requests already answered 503 once. */
const seen = new WeakMap<StoredCategory[], Set<string>>()

/**
 * The server's time per request, and the run's --timeout: the suite's requests queue for about
 * 12 s in all, and one written with 47 others ahead of it (--concurrency 48) waits 4.8 s at the
 * server's door, twice the timeout, while the server answers one every 100 ms. A client whose
 * --timeout ran from the queue, or from the write alone, fails them (CI on a loaded machine did,
 * at --timeout 4000); one that counts the server's answers to the others does not
 * (lib/http/answer-clock.ts).
 */
const SERIAL_MS = 100
const SERIAL_TIMEOUT_MS = 1_500

/**
 * A gateway's bandwidth limit (Apache's mod_ratelimit, `rate-limit 100` KiB/s in front of a list of
 * 30,000 categories took 20 s, twice --timeout): the list is seeded so that it takes about 2.5 s to
 * come at this rate, three times the run's --timeout, while every 100 ms brings more of it.
 */
const BANDWIDTH_BYTES_PER_SECOND = 48 * 1024
const BANDWIDTH_SEEDED = 1_500
const BANDWIDTH_TIMEOUT_MS = 800

const RATE_LIMIT = 30
/** A low limit: the suite's ~160 requests need about 16 windows, more than the resends a 503 gets. */
const LOW_RATE_LIMIT = 10
const RATE_WINDOW_MS = 1_000

/** Per server: the arrival times of the last window's requests, refused ones included. */
const arrivals = new WeakMap<StoredCategory[], number[]>()

/**
 * A sliding window of two seconds that counts every request it sees, those it refuses too
 * (HAProxy's stick table with http_req_rate(2s), which tracks each request before the deny): past
 * `limit` in it, refused. A client whose refused requests come back while others are still
 * refused keeps the window full, and so does one that waits only the Retry-After: 1 it is given.
 */
function overTheCountedLimit(store: StoredCategory[], limit = RATE_LIMIT): boolean {
  const now = Date.now()
  const times = (arrivals.get(store) ?? []).filter((t) => now - t < 2 * RATE_WINDOW_MS)
  times.push(now)
  arrivals.set(store, times)
  return times.length > limit
}

/** Per server: whether its first valid create was answered yet. */
const firstCreateAnswered = new WeakSet<StoredCategory[]>()

export const TRANSPORT_VARIANTS: readonly Variant[] = [
  {
    name: 'first-create-slow',
    description:
      'the first valid create is answered 2 s late (a cold path: a connection pool, a JIT, a cache warming), every other request at once, side by side: ' +
      'one request left waiting is no sign of a server that serves one connection at a time (the run kept its connections)',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || reply.status !== 201 || firstCreateAnswered.has(store)) return reply
        firstCreateAnswered.add(store)
        return { ...reply, laterMs: 2_000 }
      },
    },
    slow: 'its first create is answered 2 s late, and the list after the POSTs is read again once --list-lag (5 s) has passed, as one create took far longer than the others',
  },
  {
    name: 'one-request-at-a-time',
    description:
      `one worker answers one request at a time, ${SERIAL_MS} ms each, and closes the connection after each (gunicorn's default: one sync worker): ` +
      `the suite's requests queue for about 12 s, the last of 48 in flight waits 4.8 s at its door, and --timeout ${SERIAL_TIMEOUT_MS} must not count the wait while the server answers the others`,
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: true, oneAtATimeMs: SERIAL_MS } },
    args: ['--timeout', String(SERIAL_TIMEOUT_MS)],
    slow: 'its answers come one after another, 100 ms each',
  },
  {
    name: 'one-connection-at-a-time',
    description:
      'one thread reads one kept-alive connection until the client closes it, and the connections made meanwhile wait unread ' +
      "(Python's http.server HTTPServer over HTTP/1.1): requests written on them are answered only once the client closes the one before",
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, oneConnectionAtATime: true } },
    // a client that waits for each of its idle connections to time out (1 s) takes about 50 s; the
    // suite takes about 2.5 s alone, and 23 s once in a full `npm test` on 2 busy cores: 40 s tells the two apart
    args: ['--deadline', '40000'],
  },
  {
    name: 'answers-at-a-bandwidth-limit',
    description:
      `every body goes out at ${BANDWIDTH_BYTES_PER_SECOND / 1024} KiB a second, a tenth every 100 ms (a gateway's bandwidth limit: Apache's mod_ratelimit), ` +
      `and ${BANDWIDTH_SEEDED.toLocaleString('en')} categories exist before the run: the list takes about 2.5 s to come, three times --timeout ${BANDWIDTH_TIMEOUT_MS}, and keeps coming all the while (slow answers are a freedom)`,
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, bytesPerSecond: BANDWIDTH_BYTES_PER_SECOND } },
    seed: () => seedCategories(BANDWIDTH_SEEDED),
    args: ['--timeout', String(BANDWIDTH_TIMEOUT_MS)],
    slow: 'its lists take 2.5 s each to come',
  },
  {
    name: 'early-hints-before-every-answer',
    description:
      'every answer is preceded by an interim 103 Early Hints response with a preload Link (a CDN or a framework that sends them): ' +
      'a client must read past any 1xx before the final answer (RFC 9110 §15.2)',
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, earlyHints: true } },
  },
  {
    name: 'folded-header-lines',
    description:
      "every answer's Content-Type value on a line of its own after its name, and a header over two lines (obs-fold: a line break then a space or a tab, as old servers and proxies write them): " +
      'a sender must not fold, but a client must read each fold as spaces (RFC 9112 §5.2), and the document says nothing of framing',
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, foldedHeaders: true } },
  },
  {
    name: 'gzip-as-transfer-coding',
    description:
      'every body gzipped as a transfer coding, `Transfer-Encoding: gzip, chunked`, though no TE asked for one: RFC 9112 §7 registers gzip as a transfer coding beside chunked, ' +
      'rare but HTTP/1.1, and the document says nothing of framing (undici hands such a body on still gzipped)',
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, gzipTransferCoding: true } },
  },
  {
    name: 'chunk-extensions-with-spaces',
    description:
      'every body chunked, each size line with an extension after a space (`2a ;src=edge`) and the last with spaces around `;` and `=` (`0 ; end = "a b"`): ' +
      'RFC 9112 §7.1.1 writes that whitespace (BWS) into the chunk extension, and a recipient must remove it (RFC 9110 §5.6.3); the document says nothing of framing',
    behaviour: { transport: { delayMs: 0, chunked: true, connectionClose: false, spacedChunkExtensions: true } },
  },
  {
    name: 'content-length-twice',
    description:
      'every Content-Length given on two field lines, the second a list of the same value (`content-length: 42` and `content-length: 42, 42`), as a proxy that adds its own to the service\'s writes it: ' +
      'RFC 9110 §8.6 lets a recipient read it as the one value, as browsers, curl and Go do; the document says nothing of framing',
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, contentLengthTwice: true } },
  },
  {
    name: 'continue-before-every-answer',
    description:
      'every answer to a request with a body is preceded by a 100 Continue nobody asked for, in the same write, on kept-alive connections ' +
      '(servers and proxies that send one unasked): a client must read past any 1xx before the final answer, and may discard the 100 (RFC 9110 §15.2)',
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, unaskedContinue: 'with-the-answer' } },
  },
  {
    name: 'continue-apart-then-close',
    description:
      'every answer to a request with a body is preceded by a 100 Continue nobody asked for, written apart 2 ms before it, and every connection closed after its answer',
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: true, unaskedContinue: 'apart' } },
  },
  {
    name: 'bodies-end-at-close',
    description:
      'bodies carry neither Content-Length nor chunks and end when the server closes the connection (RFC 9112 §6.3; an HTTP/1.0-style server or proxy)',
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: true, closeDelimited: true } },
  },
  {
    name: 'http-1-0-reading-chunks-to-the-close',
    description:
      "a WSGI app under wsgiref: one request at a time, every answer in HTTP/1.0, and a body with no Content-Length read with wsgi.input.read() until the connection closes (wsgiref does not decode chunks): " +
      'a client must not send chunks to a server it does not know to handle HTTP/1.1 (RFC 9112 §6.1), and the suite sends a body whole to one that answered in HTTP/1.0',
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: true, http10: true, oneAtATimeMs: 1, chunkedReadToClose: true } },
    args: ['--timeout', '1500'],
  },
  {
    name: 'chunked-requests-refused-411',
    description:
      "a create whose body comes in chunks (Transfer-Encoding: chunked, no Content-Length) is refused with 411 Length Required and an Error record, unprocessed, as mod_wsgi does by default (WSGIChunkedRequest Off): RFC 9110 §15.5.12 lets a server demand a Content-Length",
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || !/chunked/i.test(request.transferEncoding ?? '')) return reply
        if (reply.status === 201) store.splice(store.indexOf(reply.body as StoredCategory), 1)
        return errorReply(411, 'length_required', 'A request body needs a Content-Length.')
      },
    },
  },
  {
    name: 'session-cookie-on-every-answer',
    description: 'every answer sets a session cookie (a load balancer\'s affinity cookie, a framework\'s session) that is never taken for the key',
    behaviour: {
      finish: (reply) => ({ ...reply, headers: { ...reply.headers, 'set-cookie': `AWSALB=${Math.random().toString(36).slice(2)}; Expires=Wed, 02 Dec 2026 10:00:00 GMT; Path=/` } }),
    },
  },
  {
    name: 'chunked-session-cookies-past-its-head-limit',
    description:
      "every list and create answered to the key sets a session of 20 KB in chunked cookies (ASP.NET Core's cookie authentication cuts a large one into cookies of 4,050 characters), " +
      "and the server reads heads of 16 KiB (Node's default): the request that carries them back is refused 431 before its key is looked at. Sizes are not shown (§8)",
    behaviour: {
      finish: (reply) =>
        reply.status === 200 || reply.status === 201 ? { ...reply, headers: { ...reply.headers, 'set-cookie': ['.AspNetCore.Cookies=chunks-5; path=/; httponly', ...[1, 2, 3, 4, 5].map((i) => `.AspNetCore.CookiesC${i}=${String(i).repeat(4050)}; path=/; httponly`)] } } : reply,
    },
  },
  {
    name: 'gzip-even-for-identity',
    description: 'every body is gzipped, even when the request accepts only identity (advisory note: still exit 0)',
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, forceCoding: 'gzip' } },
  },
  {
    name: 'deflate-even-for-identity',
    description: 'every body is sent with Content-Encoding deflate (zlib), even when the request accepts only identity',
    behaviour: { transport: { delayMs: 0, chunked: true, connectionClose: false, forceCoding: 'deflate' } },
  },
  {
    name: 'raw-deflate-even-for-identity',
    description:
      'every body is sent with Content-Encoding deflate as raw DEFLATE, without the zlib wrapper (Go\'s compress/flate, Java\'s new Deflater(level, true)), even when the request accepts only identity: ' +
      'RFC 9110 §8.4.1.2 calls that form non-conformant, and browsers, curl and undici\'s fetch read it all the same',
    behaviour: { transport: { delayMs: 0, chunked: true, connectionClose: false, forceCoding: 'raw-deflate' } },
  },
  {
    name: 'gzip-unfinished-even-for-identity',
    description:
      'every body is gzipped, even for identity, and the gzip stream ends at a flush, never finished (no final block, no trailer: a gzip writer flushed and not closed), ' +
      'which curl, browsers and undici\'s fetch read all the same',
    behaviour: { transport: { delayMs: 0, chunked: true, connectionClose: false, forceCoding: 'gzip-unfinished' } },
  },
  {
    name: 'brotli-even-for-identity',
    description: 'every body is sent with Content-Encoding br (Brotli), even when the request accepts only identity',
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, forceCoding: 'br' } },
  },
  {
    name: 'rate-limited-429',
    description: `${RATE_LIMIT} requests a second: the rest get 429 with Retry-After: 1 and are not processed (rate limits are not shown, §8)`,
    behaviour: { finish: (reply, request, store) => (overTheLimit(store) ? notProcessed(reply, request, store, 429, 1) : reply) },
  },
  {
    name: 'rate-limit-counts-refused-requests',
    description:
      `at most ${RATE_LIMIT} requests in any 2 seconds, counting the refused ones too (HAProxy's stick table with http_req_rate(2s)): the rest get 429 with Retry-After: 1, ` +
      'unprocessed. Requests that come back one by one while others are refused keep the window full, and so do all of them after 1 s; the client must hold back longer (rate limits are not shown, §8)',
    behaviour: { finish: (reply, request, store) => (overTheCountedLimit(store) ? notProcessed(reply, request, store, 429, 1) : reply) },
    slow: 'a few seconds of 429s',
  },
  {
    name: 'rate-limited-10-per-second',
    description:
      `a plan of ${LOW_RATE_LIMIT} requests a second: the rest get 429 with Retry-After: 1, unprocessed; the run's requests need about 15 seconds ` +
      'to get through, so each is sent again as long as the deadline allows, not a fixed number of times (rate limits are not shown, §8)',
    behaviour: { finish: (reply, request, store) => (overTheLimit(store, LOW_RATE_LIMIT) ? notProcessed(reply, request, store, 429, 1) : reply) },
    slow: 'about 15 seconds of 429s at 10 requests a second',
  },
  {
    name: 'rate-limited-429-without-retry-after',
    description:
      `a gateway's usage plan lets ${RATE_LIMIT} requests a second through and throttles the rest with 429 {"message":"Too Many Requests"} ` +
      'and no Retry-After (AWS API Gateway does not send one; RFC 6585 §4 makes it optional), unprocessed (rate limits are not shown, §8)',
    behaviour: {
      finish: (reply, request, store) => {
        if (!overTheLimit(store)) return reply
        notProcessed(reply, request, store, 429, 1) // takes a create's record back
        return { status: 429, headers: { 'content-type': 'application/json' }, body: { message: 'Too Many Requests' } }
      },
    },
  },
  {
    name: 'rate-limited-503-like-nginx',
    description:
      `nginx's limit_req in front: ${RATE_LIMIT} requests a second get through, the rest get its default answer, 503 with an HTML page and no Retry-After, ` +
      'unprocessed; a 503 is sent again while the server serves other requests (rate limits are not shown, §8; RFC 9110 §15.6.4)',
    behaviour: {
      finish: (reply, request, store) => {
        if (!overTheLimit(store)) return reply
        notProcessed(reply, request, store, 503, 1) // takes a create's record back
        return { status: 503, headers: { 'content-type': 'text/html' }, body: NGINX_503_PAGE }
      },
    },
  },
  {
    name: 'unavailable-503-once',
    description: 'each distinct request is first answered 503 with Retry-After: 1 (a brief maintenance) and not processed; sent again, it is served',
    behaviour: {
      finish: (reply, request, store) => {
        const requests = seen.get(store) ?? new Set<string>()
        seen.set(store, requests)
        const key = `${request.method} ${request.path} ${request.authorization ?? ''} ${request.rawBody ?? ''}`
        if (requests.has(key)) return reply
        requests.add(key)
        return notProcessed(reply, request, store, 503, 1)
      },
    },
  },
]
