/**
 * What the HTTP client (lib/http/client.ts) is built from: the run hands these over, the client
 * reads no deadline, file or environment of its own. And what each request is sent with, and what
 * it gives back.
 */
import type { TlsMaterial } from '../config/client-tls.ts'
import type { ExtraHeader } from '../config/extra-headers.ts'
import type { Exchange } from './exchange.ts'
import type { JournalListener } from './journal.ts'
import type { AppliedOrNot, WhetherApplied } from './lost-answer.ts'
import type { RunClock } from './run-clock.ts'

export interface ClientOptions {
  /** Base URL, path included (…/v1); request paths are appended to it. */
  baseUrl: string
  apiKey: string
  /**
   * Per-request deadline for the answer, headers and body, from its write to a connection or the
   * server's latest answer (or 16 KiB of a body still coming), whichever is later; also the connect
   * timeout of each connection.
   */
  timeoutMs: number
  /** Largest body read, counted in decoded bytes. */
  maxResponseBytes: number
  /**
   * Bytes of response bodies one client keeps over the run (the suite keeps every body until the
   * run ends, and sends its requests at once); past it, further bodies fail RESPONSE_TOO_LARGE.
   * Default 4 × maxResponseBytes: two full lists and room for the small answers.
   */
  maxKeptBytes?: number
  /**
   * The run's end and clock (lib/http/run-clock.ts), owned by the run: no request is sent once its
   * signal is aborted or its deadline has passed, and one in flight is cut when it aborts; a 429 or
   * 503 is waited out only within what is left. Undefined: only the per-request deadline applies.
   */
  run?: RunClock
  /** The proxy the run's requests go through (the run decides it from its environment, lib/runner/preflight.ts proxyFor); undefined: none. */
  proxy?: string
  /** CAs to trust beside the system's, and a client certificate: in the TLS handshakes with the origin, never the proxy's (lib/config/client-tls.ts reads them). */
  tls?: TlsMaterial
  /** How much of a body the evidence keeps. */
  evidenceBodyBytes?: number
  /** The run's journal (lib/http/journal.ts): every request's stages are handed to it; undefined: none (unit tests of the client). */
  journal?: JournalListener
  /** The journal's dispatched line carries every request's headers as recorded, a GET's too, not only a POST's (a dry run, lib/cli/dry-run.ts). */
  journalEveryHeader?: boolean
  /** At most this many requests a second, every attempt counted (--rate-limit); undefined: no pacing. */
  requestsPerSecond?: number
  /** The run's W3C trace id (lib/http/trace-context.ts); each request gets a span id of its own. Undefined: a new one per client. */
  traceId?: string
  /** What the User-Agent names: the tool's version and the run id. */
  identity?: { version: string; runId: string }
  /** --header: on every request; the values of secret names are redacted as the key is. */
  extraHeaders?: readonly ExtraHeader[]
  /** The other keys of a fleet, hidden in evidence as this one is: a longer key that holds this one, echoed, lost only this one's part. */
  otherSecrets?: readonly string[]
  /** Connections to the origin (--concurrency); the other requests wait their turn, their --timeout not yet running. */
  concurrency: number
  /** Resends of one request answered 503 while the server serves no other, and of a 429 when there is no deadline (lib/http/retry-after.ts). Default 3. */
  maxRetries?: number
  /** Resends of POSTs after a 429 or 503, at most, in the whole run (bounded writes); undefined: no bound. */
  maxPostResends?: number
  /** Resends of POSTs after a lost answer that the list did not show stored, at most, in the whole run; undefined: no bound. */
  maxLostPostResends?: number
  /** The run's count of POSTs sent again, shared by its clients so that the two bounds above are the run's; undefined: this client's own. */
  postResends?: PostResends
  /**
   * The user bounded the run's writes (--max-writes): every POST goes on a connection of its own
   * (the keep-alive race cannot lose it), and one whose connection closed before any answer is
   * never sent again (lib/http/lost-answer.ts).
   */
  boundedWrites?: boolean
  /** True once the run knows why requests go unanswered (http:// to a port that speaks TLS, lib/runner/tls-port.ts): none is sent again after a lost answer. */
  resendsStopped?: () => boolean
  /**
   * Aborted (its reason a PortSpeaksNoHttp, lib/http/transport-errors.ts) once the run's first
   * answers show that the port speaks no HTTP/1.1 (lib/runner/tls-port.ts): no request is sent from
   * then on, nor one still waiting for a connection, and none is sent again.
   */
  wrongPort?: AbortSignal
  /** A question to the port under way (a TLS handshake, lib/runner/tls-port.ts), or undefined: no request goes to the port before it is answered. */
  portAsked?: () => Promise<void> | undefined
  /** What a request awaits before it goes (the run's first list, asked with the key, answered: lib/runner/list-first.ts), or undefined. */
  heldFirst?: (request: SendOptions) => Promise<void> | undefined
}

export interface SendOptions {
  method: 'GET' | 'POST'
  /** Appended to the base URL, e.g. `/categories`. */
  path: string
  /** Header values may contain $CONFORM_API_KEY, replaced by the key only on the wire. */
  headers?: Record<string, string>
  /** Bytes only for bodies that are not UTF-8 text (a probe of invalid JSON). */
  body?: string | Uint8Array
  /** Send the body in two pieces, this many bytes first and the rest after a pause (lib/http/body-pieces.ts). */
  splitAt?: number
  /**
   * The body goes in two chunks (Transfer-Encoding: chunked, no Content-Length), as a client that
   * streams its body sends it; the evidence and the curl line say so.
   */
  chunked?: boolean
  /** The declared POST probe this request is (suites/cases/write-order.ts), for the journal. */
  probe?: string
  /**
   * On the run's critical path (an answer another request waits for): sent before any request that
   * is not; 'gates', before every other critical one too (another request waits for its answer to
   * be sent at all, lib/http/request-slots.ts).
   */
  critical?: boolean | 'gates'
  /** A Cookie header (HttpResult.cookies): on the wire as it is, in the evidence COOKIES_NOT_SHOWN. */
  cookies?: string
  /** POST: whether it was applied, should the connection race lose its answer (lost-answer.ts); none: never sent again. */
  whetherApplied?: WhetherApplied
  /**
   * The requests naming the same connection go on one connection of their own, in the order they
   * are sent, beside the --concurrency bounded ones: what a server does with a request after another on
   * the same keep-alive connection (a cache of header values per connection). One sent before the one
   * before it is answered goes right after that answer, with no idle pause the connection could close in
   * (awaited first, the next may come after the client closed it idle). A server that closes it makes
   * the next one go on a new connection. A run of one connection sends them on it.
   */
  connection?: string
}

export interface HttpResult {
  exchange: Exchange
  /** The whole body text, decoded; undefined when no complete response arrived. */
  text?: string
  /** The body began with a UTF-8 byte order mark (left out of `text`). */
  byteOrderMark?: boolean
  /** Some body bytes were not UTF-8 (U+FFFD in `text`). */
  invalidUtf8?: boolean
  /** The Cookie header that sends back the cookies the answer set (kept out of the evidence). */
  cookies?: string
  /** A POST whose answer the connection race lost, and what the list then showed (lost-answer.ts). */
  answerLost?: AppliedOrNot
  /** A POST answered 429 or 503 whose record the list showed (stored-despite-unavailable.ts): a failure of its status says so. */
  storedDespite?: true
}

/** POSTs sent again in a run: after a 429 or 503 (maxPostResends), after a lost answer (maxLostPostResends). */
export interface PostResends {
  afterWait: number
  afterLostAnswer: number
  /** The lists read before a POST answered 503 went again (lib/http/stored-despite-unavailable.ts). */
  unavailable?: UnavailableReads
}

/** How many lists were read (or begun) before a POST answered 503 went again, and whether one showed such a POST stored. */
export interface UnavailableReads {
  begun: number
  stored: boolean
  /** The reads not ended yet: a POST past the first ones waits for them before it goes again. */
  reading?: Set<Promise<unknown>>
}
