/**
 * One classifier of network errors, shared by the HTTP client (lib/http/client.ts) and the
 * preflight handshake (lib/runner/preflight.ts), so a refused connection or an untrusted
 * certificate is named the same way wherever it happens. It matches on error codes (Node's errno
 * names and undici's UND_ERR_*), never on message text, as undici's documentation asks.
 */
import { errors as undiciErrors } from './undici-parts.ts'
import { CodedBodyCutShortError, UnsupportedEncodingError } from './body-reader.ts'
import { serverFaultStatus, type Exchange, type TransportErrorCode } from './exchange.ts'
import type { RefusalReason } from './journal.ts'

/**
 * The most of an answer's head (status line and headers) the client reads: 64 KiB, four times
 * undici's default of 16 KiB, which a conforming service passed with one Content-Security-Policy
 * or cookie of 40 KiB (§8 shows no maximum size; the gateways in front of most services let 32 KiB
 * through, AWS's load balancer and Cloudflare's). Bounded all the same: a head is held whole, with
 * every one of its headers, for the run's reports. A head past it is not read, and judges nothing
 * (HEAD_TOO_LARGE, lib/result/response-cap.ts); lib/http/agent.ts gives it to undici.
 */
export const MAX_HEAD_BYTES = 64 * 1024

/** The words that begin the error of a head past MAX_HEAD_BYTES: lib/result/response-cap.ts tells it from a body past --max-response-bytes by them. */
export const HEAD_TOO_LARGE = `response head (status line and headers) larger than ${MAX_HEAD_BYTES} bytes`

/** The same limit met by the trailer section of a chunked answer (fields after its last chunk: undici counts them as it counts a head), once the head came; told apart from a head too large by these words. */
export const TRAILERS_TOO_LARGE = `trailer section (fields after its chunked body's last chunk) larger than ${MAX_HEAD_BYTES} bytes`

export interface ClassifiedError {
  code: TransportErrorCode
  /** The code the error carried (ECONNREFUSED, UND_ERR_SOCKET …), '' when none. */
  errno: string
  /** The error's own words, for the detail in brackets (not yet redacted). */
  detail: string
}

/** Why a run's request was aborted: the request's own --timeout, or the run's end (its --deadline, or the user's interrupt). */
export class RunDeadlineReached extends Error {
  readonly code = 'DEADLINE'
  /** `interruptedBy`: the signal (SIGINT, SIGTERM) that ended the run before its deadline, when one did. */
  constructor(
    why = "the run's deadline (--deadline) passed",
    readonly interruptedBy?: string,
  ) {
    super(why)
    this.name = 'RunDeadlineReached'
  }
}

/**
 * Why the run sends nothing more to the port: its first answers showed that it speaks no HTTP/1.1
 * (lib/runner/tls-port.ts). The reason of the signal the run hands its client (ClientOptions.wrongPort);
 * its message says what the port answered, and a request not sent for it is told so.
 */
export class PortSpeaksNoHttp extends Error {
  readonly code = 'WRONG_PORT'
  constructor(why: string) {
    super(why)
    this.name = 'PortSpeaksNoHttp'
  }
}

/** The error of a request not sent because the port speaks no HTTP/1.1 (`why`: the reason's message). */
export const notSentToThePort = (why: string): { code: 'WRONG_PORT'; message: string } => ({ code: 'WRONG_PORT', message: `${why}, so this request was not sent` })

export function isTlsErrno(errno: string, message = ''): boolean {
  return /^ERR_TLS|^CERT_|SELF_SIGNED|^UNABLE_TO|HOSTNAME|^DEPTH_ZERO/.test(errno) || /certificate/i.test(message)
}

export function classifyNetworkError(error: unknown): ClassifiedError {
  const err = error as { code?: string; message?: string; cause?: { code?: string; message?: string } }
  const errno = err?.code ?? err?.cause?.code ?? ''
  const detail = err?.cause?.message ?? err?.message ?? String(error)
  const is = (code: TransportErrorCode): ClassifiedError => ({ code, errno, detail })
  if (error instanceof undiciErrors.ResponseExceededMaxSizeError || errno === 'UND_ERR_RES_EXCEEDED_MAX_SIZE' || errno === 'UND_ERR_HEADERS_OVERFLOW') return is('RESPONSE_TOO_LARGE')
  if (errno === 'ETIMEDOUT' || errno === 'UND_ERR_CONNECT_TIMEOUT' || errno === 'UND_ERR_HEADERS_TIMEOUT' || errno === 'UND_ERR_BODY_TIMEOUT') return is('TIMEOUT')
  if (errno === 'ECONNREFUSED') return is('CONNECTION_REFUSED')
  if (errno === 'ECONNRESET' || errno === 'UND_ERR_SOCKET' || errno === 'EPIPE' || errno === 'UND_ERR_CLOSED') return is('CONNECTION_RESET')
  if (errno === 'ENOTFOUND' || errno === 'EAI_AGAIN') return is('DNS_FAILURE')
  if (isTlsErrno(errno, detail)) return is('TLS_FAILURE')
  // undici's own assert() failed on what the server sent: a status code below 100, which its parser
  // reads as an interim answer that then never leads to a final one; the message is several lines of source
  if (errno === 'ERR_ASSERTION') return { code: 'PROTOCOL_ERROR', errno, detail: failedAssertion(detail) }
  // undici's parser errors do not always carry an HPE_ code (a reply that is not HTTP at all)
  if (error instanceof undiciErrors.HTTPParserError || errno.startsWith('HPE_') || errno === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || errno === 'UND_ERR_INFO')
    return is('PROTOCOL_ERROR')
  // Brotli's decoder names each fault of its format ERR__ERROR_FORMAT_…: one it did not list here (text under a br label,
  // ERR__ERROR_FORMAT_SIMPLE_HUFFMAN_SAME) was a body that "broke off", INCOMPLETE_BODY (hostile12)
  if (errno.startsWith('Z_') || errno === 'ERR_BROTLI' || errno.startsWith('ERR__ERROR_')) return is('UNDECODABLE_BODY')
  return is('NETWORK_ERROR')
}

/** The words for an assertion of undici's that failed on an answer: its expression, on one line. */
function failedAssertion(message: string): string {
  const expression = message.split('\n').map((line) => line.trim()).filter((line) => line.startsWith('assert(')).pop()
  if (expression === 'assert(statusCode >= 100)') return 'a status code below 100: HTTP defines 100 to 599 (RFC 9110 §15)'
  return `an answer the HTTP client could not read: its check ${expression ?? 'of the answer'} failed`
}

/**
 * Errors that say nothing of the server: the run's --deadline came first, the request could not be
 * sent, or its operation had already let one request go unanswered past --timeout (that request's
 * own checks failed). The checks that need such an answer are not verified, for this reason.
 */
const NOT_THE_SERVERS: Partial<Record<TransportErrorCode, RefusalReason>> = { DEADLINE: 'deadline', UNSENDABLE: 'unsendable', STALLED: 'stalled', WRONG_PORT: 'misdirected' }

/** Why an error says nothing of the server (a skip's cause), or undefined when it does (NO_RESPONSE). */
export function notTheServers(code: TransportErrorCode): RefusalReason | undefined {
  return NOT_THE_SERVERS[code]
}

/** What is known of a response when its body fails: the status line came, the body did not. */
export interface BodyProgress {
  status: number
  /** Its Content-Length, for a body without codings. */
  declaredBytes?: number
  /** Decoded bytes read so far. */
  receivedBytes: number
  /** Its codings in words, for a coded body ("Content-Encoding gzip"): the bytes read are decoded ones. */
  coded?: string
}

/** Resends of a request whose connection the server did not take in time: half as many at once each time (48 to 1: six). */
export const NOT_TAKEN_RESENDS = 6

/**
 * A request that got no connection within --timeout (undici's connect timeout, or the system's):
 * it never left, so sending it again writes nothing twice, a POST included. A server that takes one
 * connection at a time and closes each after its answer (Python's http.server as it comes: one
 * thread, HTTP/1.0, a listen backlog of 5) has the kernel drop the handshakes past its backlog, and
 * the retries of a dropped one can outlast --timeout while the server answers the others in turn.
 */
export function connectionNotTaken(exchange: Exchange): boolean {
  return exchange.sent !== true && exchange.response === undefined && exchange.error?.code === 'TIMEOUT'
}

/** An answer not read whole for the cap, its status kept: a server fault's page past the cap is a server fault still (lib/result/response-cap.ts). */
function capped(message: string, partial: BodyProgress | undefined): { code: 'RESPONSE_TOO_LARGE'; message: string; status?: number } {
  // the status first: a report's line cut to its width still shows it
  const fault = partial !== undefined && serverFaultStatus(partial.status) ? `answered ${partial.status} (a server fault), its body not read whole: ` : ''
  return { code: 'RESPONSE_TOO_LARGE', message: `${fault}${message}`, ...(partial ? { status: partial.status } : {}) }
}

/**
 * Why a request got no complete response, in the words a report shows. An abort is told apart by
 * its reason (the request's --timeout or the run's --deadline), and by whether the request had
 * left: one cut while it waited for a connection was never sent (`stalledWhileWaiting`: its
 * operation stalled meanwhile); the rest by the classifier.
 */
export function describeTransportError(
  error: unknown,
  signal: AbortSignal,
  partial: BodyProgress | undefined,
  limits: { timeoutMs: number; maxResponseBytes: number },
  redact: (text: string) => string,
  left: { sent: boolean; stalledWhileWaiting?: string } = { sent: true },
): { code: TransportErrorCode; message: string; status?: number } {
  if (!left.sent && left.stalledWhileWaiting !== undefined) return { code: 'STALLED', message: left.stalledWhileWaiting }
  // cut while it waited for a connection, as the port was found to speak no HTTP/1.1: it never left
  if (!left.sent && signal.aborted && signal.reason instanceof PortSpeaksNoHttp) return notSentToThePort(signal.reason.message)
  if (error instanceof ResponseTooLargeError) return capped(error.message, partial)
  if (error instanceof UnsupportedEncodingError) return { code: 'UNDECODABLE_BODY', message: error.message }
  // framed to end (or closed) inside its gzip stream: a body cut short, however its framing said it ended
  if (error instanceof CodedBodyCutShortError && partial) return { code: 'INCOMPLETE_BODY', message: `the ${partial.status} response's body broke off after ${partial.receivedBytes} bytes decoded: ${error.message}` }
  if (signal.aborted) {
    const byDeadline = signal.reason instanceof RunDeadlineReached
    // cut while it waited for one of the bounded connections: it never left
    // the user's interrupt ends the run as its deadline does, and says so (Ctrl-C was reported as the deadline)
    const interruptedBy = byDeadline ? (signal.reason as RunDeadlineReached).interruptedBy : undefined
    const ended = interruptedBy !== undefined ? `the run was interrupted (${interruptedBy})` : "the run's deadline (--deadline)"
    if (byDeadline && !left.sent) return { code: 'DEADLINE', message: `${interruptedBy !== undefined ? ended : `${ended} passed`} while this request waited for a connection, so this request was not sent` }
    const within = byDeadline ? `before ${ended}` : `within ${limits.timeoutMs} ms`
    const message = partial ? `the ${partial.status} response's body did not end ${within}` : `no response ${within}`
    // the status of one whose status line came: a server that answered, a body that did not end (no-answer-in-time.ts)
    return { code: byDeadline ? 'DEADLINE' : 'TIMEOUT', message, ...(partial ? { status: partial.status } : {}) }
  }
  const { code, errno, detail: raw } = classifyNetworkError(error)
  const detail = redact(raw)
  // the client's own limit on a head: a head past it is not read, no fault of the server's (§8)
  // …met after the head came: the trailers of a chunked answer (an endless trailer section was told as a head too large)
  if (errno === 'UND_ERR_HEADERS_OVERFLOW' && partial) return { code: 'RESPONSE_TOO_LARGE', message: `the ${partial.status} response's ${TRAILERS_TOO_LARGE}, the most this client reads; not read`, status: partial.status }
  if (errno === 'UND_ERR_HEADERS_OVERFLOW') return { code: 'RESPONSE_TOO_LARGE', message: `${HEAD_TOO_LARGE}, the most this client reads; not read` }
  // undici's own limit on the bytes on the wire, which it checks as they arrive, ahead of the reader
  if (code === 'RESPONSE_TOO_LARGE') return capped(new ResponseTooLargeError(limits.maxResponseBytes).message, partial)
  if (code === 'UNDECODABLE_BODY') return { code, message: `the ${partial?.status ?? ''} response's body could not be decoded from its Content-Encoding (${detail})` }
  if (partial && (code === 'CONNECTION_RESET' || code === 'PROTOCOL_ERROR' || code === 'NETWORK_ERROR')) {
    // the status line and headers came, the body broke off: say how much of it arrived
    const of = partial.declaredBytes !== undefined ? ` of the ${partial.declaredBytes} its Content-Length declared` : partial.coded ? ` decoded from its ${partial.coded}` : ''
    return { code: 'INCOMPLETE_BODY', message: `the ${partial.status} response's body broke off after ${partial.receivedBytes} bytes${of} (${detail})` }
  }
  // the run's preflight was let in: a new connection not taken in time is the server's capacity
  // (a server that serves one connection at a time, a full backlog), not a host out of reach
  const words: Partial<Record<TransportErrorCode, string>> = {
    TIMEOUT:
      errno === 'UND_ERR_CONNECT_TIMEOUT'
        ? `no new connection taken within ${limits.timeoutMs} ms while the run had others open: a server that serves one connection at a time needs --concurrency 1 (${detail})`
        : `no response within ${limits.timeoutMs} ms (${detail})`,
    CONNECTION_REFUSED: `connection refused (${detail})`,
    // undici drops the connection on an answer it cannot place: most often an interim 100 Continue
    // the request did not ask for (RFC 9110 §15.2 lets a server send one; undici cannot read it)
    CONNECTION_RESET: `connection closed before a complete response (${detail === 'bad response' ? 'bad response: an answer the HTTP client could not place, such as one to no request' : detail})`,
    DNS_FAILURE: `host not found (${detail})`,
    TLS_FAILURE: `TLS failure: ${detail}`,
    PROTOCOL_ERROR: `malformed HTTP response (${detail})`,
  }
  return { code, message: words[code] ?? `${errno ? errno + ': ' : ''}${detail}` }
}

export class ResponseTooLargeError extends Error {
  /** `message` overrides the text for other limits than the one body's. */
  constructor(limit: number, declared?: number, message?: string) {
    const text =
      message ??
      (declared === undefined
        ? `response body larger than ${limit} bytes (the limit set by --max-response-bytes); reading stopped there`
        : `response body of ${declared} bytes (its Content-Length) is larger than ${limit} bytes (the limit set by --max-response-bytes); not read`)
    super(text)
  }
}
