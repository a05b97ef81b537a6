/** What the suite keeps of one request and its answer: the evidence behind every verdict. */
import { KEY_AUTHORIZATION } from './redact.ts'

export interface RecordedRequest {
  method: string
  url: string
  /** As sent, except that the API key stands as $CONFORM_API_KEY. */
  headers: Record<string, string>
  body?: string
  /** The body's bytes when they are not UTF-8 text (then `body` shows them with \xHH escapes). */
  bodyBase64?: string
  /** The body went out in two pieces, this many bytes first and the rest after a pause (lib/http/body-pieces.ts). */
  splitAt?: number
}

export interface RecordedResponse {
  status: number
  headers: Record<string, string>
  /** The body as text, redacted and cut to the evidence limit. */
  body: string
  /** Size of the whole body in bytes, before any cut. */
  bodyBytes: number
  bodyTruncated: boolean
  /** The Content-Encoding the body came in (decoded before anything judged it); absent for identity. */
  contentEncoding?: string
  /** Interim answers (1xx) the server sent before this one, which the client read past (RFC 9110 §15.2), e.g. [100]. */
  interim?: number[]
  /** '1.0' when the status line said HTTP/1.0 (lib/http/interim-answers.ts); absent for HTTP/1.1. */
  httpVersion?: '1.0'
  /** In the reports only: headers of the answer they leave out past the first ones (lib/result/shown-headers.ts); absent when none is. */
  headersLeftOut?: number
}

/** Why no complete response came back. Codes are stable: match on them, not on the message. */
export type TransportErrorCode =
  | 'TIMEOUT'
  /**
   * The run's --deadline passed: the request was not sent, or was cut short. Also an answer the client
   * took off rather than wait it out or send again (its message says which): a 429 or 503 past the
   * deadline or the POST resends (retry-after.ts), a 503 not sent again under --max-writes
   * (stored-despite-unavailable.ts). Never a server's silence: no-answer-in-time.ts leaves it out.
   */
  | 'DEADLINE'
  | 'RESPONSE_TOO_LARGE'
  | 'CONNECTION_REFUSED'
  | 'CONNECTION_RESET'
  /** Status and headers came, then the body broke off (e.g. shorter than its Content-Length). */
  | 'INCOMPLETE_BODY'
  | 'DNS_FAILURE'
  | 'TLS_FAILURE'
  | 'PROTOCOL_ERROR'
  /** The body came in a Content-Encoding the client cannot decode, or its coding was corrupt. */
  | 'UNDECODABLE_BODY'
  | 'NETWORK_ERROR'
  /** Not sent: a header value held a character no HTTP header can carry (RFC 9110 §5.5). */
  | 'UNSENDABLE'
  /** Not sent: an earlier request of the same operation got no answer within --timeout. */
  | 'STALLED'
  /**
   * Not sent: the port's first answers showed it speaks no HTTP/1.1 (bytes with no status line:
   * another service's port; TLS, or HTTP/2 only), so the run sent nothing more there (lib/runner/tls-port.ts).
   */
  | 'WRONG_PORT'

export interface Exchange {
  /** Unique within a run; the journal (lib/http/journal.ts) lists it under the same id. */
  id: string
  startedAt: string
  durationMs: number
  request: RecordedRequest
  /** Whether the request's head was written to a connection (false: the deadline had passed, or no connection was made). */
  sent?: boolean
  /** When its head was written (ms since the epoch): the wait for a connection before it is the client's, not the server's. */
  writtenAtMs?: number
  /** Its answer's head came before its body was written whole (a body in pieces or in chunks, answered on what had come): legal (RFC 9112 §9.3), and a refusal then is of how the body came. */
  answeredBeforeWritten?: true
  /** The traceparent of the request written before it on its connection, when one was (lib/result/unread-bodies.ts: its body left unread there). */
  afterOnItsConnection?: string
  /** 2, 3 …: a resend after the server answered 429, or 503 with Retry-After. */
  attempt?: number
  /** Before a resend: how long the client waited, as the server's Retry-After asked. */
  waitedMs?: number
  response?: RecordedResponse
  /** `tlsAlert`: the TLS alert of a server that asked for the client certificate during the request (lib/http/certificate-alert.ts). `status`: of an answer whose status line came, not read whole (--max-response-bytes) or whose body did not end in time. */
  error?: { code: TransportErrorCode; message: string; tlsAlert?: string; status?: number }
  /**
   * A GET the key was refused on, sent again with it after a pause to tell a revoked key from a
   * service that refused a valid one (lib/runner/key-recheck.ts): when served, the key works, and
   * its refusals, before or after, are the service's.
   */
  keyRecheck?: true
}

/** A body that is not UTF-8: shown with its non-ASCII bytes as \xHH, kept whole for the curl line. */
export function bytesEvidence(bytes: Uint8Array): Pick<RecordedRequest, 'body' | 'bodyBase64'> {
  const shown = Array.from(bytes, (b) => (b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('')
  return { body: shown, bodyBase64: Buffer.from(bytes).toString('base64') }
}

/** A header value an HTTP request can carry (RFC 9110 §5.5, as undici checks it): no CR, LF, NUL or other control but tab, nothing past Latin-1. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/

/** The name of the first header whose value no HTTP request can carry, if any. */
export function unsendableHeader(headers: Record<string, string>): string | undefined {
  return Object.keys(headers).find((name) => !HEADER_VALUE.test(headers[name] as string))
}

/** A request sent with the run's key (KEY_AUTHORIZATION, as every exchange records it) and answered 401 or 403: the key refused. */
export const refusedTheKey = (e: Exchange) => e.request.headers.authorization === KEY_AUTHORIZATION && (e.response?.status === 401 || e.response?.status === 403)

/**
 * A status that reports a server fault: 5xx. One past 599 reports nothing: HTTP's status codes are
 * 100 to 599 (RFC 9110 §15), so it is the server's protocol fault, never a fault it reports.
 */
export const serverFaultStatus = (status: number): boolean => status >= 500 && status <= 599

/** What the HTTP parser (llhttp) says of an answer whose first bytes are no status line ("HTTP/…"). */
const NO_STATUS_LINE = /Expected HTTP\//

/**
 * An error of an answer that began with bytes which are not HTTP: no status line (Redis's `-ERR`,
 * SSH's banner, a database's handshake, a TLS record). An answer with one, framed wrong
 * (Content-Length beside Transfer-Encoding, a header name with a space), is an HTTP server's.
 */
export const withoutStatusLine = (error: { code: TransportErrorCode; message: string }): boolean => error.code === 'PROTOCOL_ERROR' && NO_STATUS_LINE.test(error.message)
