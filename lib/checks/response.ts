/** Checks on the status line, the media type and the JSON of one response. */
import type { HttpResult } from '../http/client.ts'
import { cutClearOfSecrets } from '../http/secret-runs.ts'
import type { RecordedResponse, TransportErrorCode } from '../http/exchange.ts'
import { mediaType, mediaTypes } from '../http/media-type.ts'
import { notTheServers } from '../http/transport-errors.ts'
import { CHARACTERS_PER_CONTAINER, JsonOverLimitError, MAX_JSON_DEPTH } from '../json/exact-json.ts'
import { parsedOnce, type Parsed } from '../json/parsed-once.ts'
import { fail, NotApplicable } from './failure.ts'
import { answerLostReason, untoldWords } from '../http/lost-answer.ts'
import { blockPageWords, contentTypeOrigin, emptyBodyOrigin, gatewayFaultOrigin, statusOrigin, textBodyOrigin } from './known-answers.ts'

/**
 * The most characters of a Location a failure quotes whole: past it, its start and its length. A
 * 15 KB Location (under undici's 16 KiB head) was quoted whole by each failure and skip reason of
 * a run: 11 MB of junit.xml, 15 MB of results.json (measured). The start ends before any run of
 * the characters a key is made of that the cut would split (or a [REDACTED] it would), so that no
 * piece of one is left.
 */
const LOCATION_SHOWN = 500

const shownLocation = (location: string) =>
  location.length <= LOCATION_SHOWN ? location : `${location.slice(0, LOCATION_SHOWN).replace(/[A-Za-z0-9._~+/=%[\]-]*$/, '')}… (${location.length} characters)`

export function describeStatus(response: RecordedResponse): string {
  const location = response.status >= 300 && response.status < 400 ? response.headers.location : undefined
  const redirect = location !== undefined ? ` redirecting to ${shownLocation(location)} (redirects are not followed)` : ''
  // §7 shows no 5xx: a server fault is never the answer to a request the document says gets 201, 400 or 401
  // a 503 (here without Retry-After, still answered after its resends) is also what a gateway's
  // rate or connection limit answers (nginx limit_req, limit_conn): the way out is named
  const gateway = response.status === 503 ? "; a gateway's limit answers 503 too: try --rate-limit, --concurrency" : withOrigin(gatewayFaultOrigin(response))
  const fault = statusFailureCode(response) === 'SERVER_ERROR' ? ` (a server fault, which the document gives no request it describes${gateway})` : ''
  const block = blockPageWords(response)
  const undefinedStatus = response.status > 599 ? ' (no HTTP status: RFC 9110 §15 defines 100 to 599, so a protocol fault of the server, which the document gives no request)' : ''
  return `${response.status}${redirect}${fault}${undefinedStatus}${block ? ` (${block})` : ''}`
}

/** The client's code of why no complete response came, and the status of a status line that came first (FailureDetail.transport). */
const transportOf = (exchange: HttpResult['exchange'], otherwise: TransportErrorCode = 'CONNECTION_RESET') => ({
  code: exchange.error?.code ?? otherwise,
  ...(exchange.error?.status !== undefined ? { status: exchange.error.status } : {}),
})

/** The response, or a failure saying why none came (timeout, reset, size cap …). */
export function responseOf(result: HttpResult): RecordedResponse {
  const { exchange } = result
  if (exchange.response) return exchange.response
  const lost = answerLostReason(result)
  if (lost) throw new NotApplicable(lost, 'answer-lost')
  if (result.answerLost?.firstOnItsConnection) {
    return fail(
      {
        code: 'NO_RESPONSE',
        message: `no answer, though the list shows the record was created: the connection closed under the request (${exchange.error?.message ?? 'reset'}) before any byte of an answer, and it was the first request on that connection, so not the keep-alive race (RFC 9112 §9.3.1), which loses only a request written on a connection that carried an earlier one`,
        expected: 'an HTTP response',
        actual: `${exchange.error?.code ?? 'CONNECTION_RESET'} on a fresh connection; the record stored`,
        transport: transportOf(exchange),
      },
      exchange,
    )
  }
  const alone = result.answerLost?.unansweredAlone
  if (alone !== undefined) {
    return fail(
      {
        code: 'NO_RESPONSE',
        message: `no answer, sent alone ${alone} times: each time the first request on a fresh connection, the only one open to the server, its body written whole, and the connection closed under it (${exchange.error?.message ?? 'reset'}) before any byte of an answer, while the list read right after each was answered at once; neither the keep-alive race (RFC 9112 §9.3.1), which loses only a request written on a connection that carried an earlier one, nor a limit on connections, which one connection cannot pass (one others fill would have closed the list's too), explains it (the list does not show its record)`,
        expected: 'an HTTP response',
        actual: `${exchange.error?.code ?? 'CONNECTION_RESET'} ${alone} times, sent alone on a fresh connection`,
        transport: transportOf(exchange),
      },
      exchange,
    )
  }
  // a POST answered 503 under --max-writes, not in the list: the client took its answer off (stored-despite-unavailable.ts)
  if (result.answerLost?.notSentAgain === 'unavailable') throw new NotApplicable(`not verified: ${exchange.error?.message ?? 'answered 503'}`, 'not-sent-again')
  if (result.answerLost?.notSentAgain) {
    // it may or may not have been stored, and sending it again could store it twice, past the bound:
    // nothing to judge (the connection race, or a server that drops connections past a limit of its own)
    const notSent = result.answerLost.notSentAgain
    const why = notSent === 'max-writes' ? 'under --max-writes it was not sent again' : "the run had already sent as many POSTs again after lost answers as its plan has POSTs, so it was not sent again"
    // a list that could not be read says nothing of the record, and why the loss is not the server's (lost-answer.ts untoldWords)
    const listSaid =
      notSent === 'list-unreadable'
        ? `${untoldWords(result)}, and the list could not tell whether it was stored (it was not answered 200 with an array), so it was not sent again`
        : `the list does not show its record, but a list may show one late, and ${why}`
    throw new NotApplicable(
      `not verified: no answer, the connection closed under the request (${exchange.error?.message ?? 'reset'}) before any byte of one; ${listSaid} (it may have created a record). A server that closes connections past a limit of its own is spared them by a lower --concurrency`,
      'not-sent-again',
    )
  }
  // an error that says nothing of the server (transport-errors.ts classifies it): not verified, with why
  const notJudged = exchange.error && notTheServers(exchange.error.code)
  if (notJudged) throw new NotApplicable(`not verified: ${exchange.error!.message}`, notJudged)
  return fail(
    {
      code: 'NO_RESPONSE',
      message: `no complete response: ${exchange.error?.message ?? 'unknown transport error'}`,
      expected: 'an HTTP response',
      actual: `${exchange.error?.code ?? 'NETWORK_ERROR'}: ${exchange.error?.message ?? ''}`,
      transport: transportOf(exchange, 'NETWORK_ERROR'),
    },
    exchange,
  )
}

/**
 * The code of a failure for a status the rule does not allow: a 5xx is a server fault, never an
 * answer the document gives (§4.1, §4.2 and §7 show 200, 201, 400 and 401 only), whatever the
 * input, so it gets a code of its own. A 503 with Retry-After is a declared pause, which the client
 * waits out and resends (lib/http/client.ts); if it still comes back it stays UNEXPECTED_STATUS.
 */
export function statusFailureCode(response: RecordedResponse): 'SERVER_ERROR' | 'UNEXPECTED_STATUS' {
  const pause = response.status === 503 && response.headers['retry-after'] !== undefined
  return response.status >= 500 && response.status <= 599 && !pause ? 'SERVER_ERROR' : 'UNEXPECTED_STATUS'
}

/**
 * The code of a failure for a status the rule does not allow, and what a baseline compares of it:
 * the status alone (never a redirect's Location, which may name a generated id), so that a known
 * 200 that becomes a 404 after a deploy is no longer the failure its entry excused.
 */
export function statusFailure(response: RecordedResponse): { code: 'SERVER_ERROR' | 'UNEXPECTED_STATUS'; observed: string } {
  return { code: statusFailureCode(response), observed: `status ${response.status}` }
}

/** `acceptedMeans`: what a 2xx to this request says of the service, and how such a service is usually fixed. */
export function expectStatus(result: HttpResult, expected: number, acceptedMeans?: string, faultNote = ''): void {
  const response = responseOf(result)
  if (response.status === expected) return
  const origin = statusOrigin(response, expected, result.exchange.request)
  // faultNote: what a create's server fault says (its case's words, a store's refusal of its characters: create-checks.ts faultNote), after the status's origin
  const meaning = acceptedMeans && response.status >= 200 && response.status < 300 ? `: ${acceptedMeans}` : `${origin ? `: ${origin}` : ''}${faultNote}`
  // a 429 or 503 read as a limit or a pause, though the service processed the request
  const stored = result.storedDespite ? `, though the list shows its record stored: it was processed, which a limit's ${response.status} says it was not` : ''
  fail(
    {
      ...statusFailure(response),
      message: `${result.exchange.request.method} answered ${describeStatus(response)}, expected ${expected}${stored}${meaning}`,
      expected: `status ${expected}`,
      actual: `status ${describeStatus(response)}`,
    },
    result.exchange,
  )
}

/** What a failure's message adds of the stack that answered (known-answers.ts), when it is well known. */
const withOrigin = (origin: string | undefined) => (origin ? `; ${origin}` : '')

/** Throws NotApplicable unless the response has one of the statuses a check judges. */
export function requireStatus(result: HttpResult, statuses: readonly number[], why: string): RecordedResponse {
  const response = responseOf(result)
  if (!statuses.includes(response.status)) {
    throw new NotApplicable(`answered ${describeStatus(response)}, not ${statuses.join(' or ')}: ${why}`)
  }
  return response
}

/** A Content-Type in several field lines that do not agree: a client takes one of them (a browser's fetch, the last). */
const SEVERAL_CONTENT_TYPES =
  'its Content-Type came in more than one field line (or as a list), and a client reads one of them (the Fetch standard, a browser\'s, the last); ' +
  "most often a header added where it was meant to be set, beside one set before (the JDK HttpServer's Headers.add, Go's Header().Add): set it once (Headers.set, Header().Set). " +
  'The same application/json twice is read as application/json'

/** §4: the response is declared application/json (parameters allowed; in several field lines, only if every one says so). */
export function expectJsonContentType(result: HttpResult): void {
  const response = responseOf(result)
  const types = mediaTypes(response.headers['content-type'])
  if (types.length > 0 && types.every((type) => type === 'application/json')) return
  fail(
    {
      code: 'WRONG_CONTENT_TYPE',
      message:
        types.length > 1 && types.includes('application/json')
          ? `the ${response.status} response is declared ${[...new Set(types)].join(' and ')}, not application/json alone: ${SEVERAL_CONTENT_TYPES}`
          : `the ${response.status} response is not declared as application/json${withOrigin(contentTypeOrigin(response.headers['content-type'], response, result.exchange.request))}`,
      expected: 'Content-Type: application/json (parameters such as charset allowed)',
      actual: response.headers['content-type'] === undefined ? 'no Content-Type header' : `Content-Type: ${response.headers['content-type']}`,
      // the media type without its parameters (a multipart boundary is drawn anew each time)
      observed: types.length === 0 ? 'no media type' : `Content-Type: ${[...new Set(types)].join(', ')}`,
    },
    result.exchange,
  )
}

/** Why a body is no JSON text before any parse (RFC 8259 §8.1), or undefined. */
function notJsonText(result: HttpResult): Error | undefined {
  // RFC 8259 §8.1: JSON text is UTF-8 and must not begin with a byte order mark; the client
  // decodes either way, and says so, so that neither passes for valid JSON here
  if (result.byteOrderMark) return new Error('the body begins with a UTF-8 byte order mark, which RFC 8259 §8.1 forbids in JSON text')
  if (result.invalidUtf8) return new Error('the body holds bytes that are not UTF-8, which RFC 8259 §8.1 requires of JSON text')
  return undefined
}

/** The body parsed once per answer (its exchange), shared by the checks and the run's journal: several checks judge one probe, and a list can be 80 MB. Read-only. */
function parseOnce(result: HttpResult): Parsed {
  const refused = notJsonText(result)
  return refused ? { error: refused } : parsedOnce(result.exchange, result.text ?? '')
}

/** The body parsed as exact JSON, once per response and shared with the checks (the run's ledger reads every list too); undefined when it is not JSON. */
export function parsedJsonOf(result: HttpResult): unknown {
  const parsed = parseOnce(result)
  return 'value' in parsed ? parsed.value : undefined
}

/** gzip's magic bytes and method (1f 8b 08) as the lenient decoder reads them: a body compressed without a Content-Encoding that says so. */
const GZIP_STREAM = /^\x1f\ufffd\x08/
const GZIP_UNLABELLED =
  "it starts as a gzip stream does (1f 8b 08): a body compressed without Content-Encoding: gzip to say so (RFC 9110 §8.4), which a client cannot read; a compression step that sets the header after it was written (Go's middleware once a body passes its threshold, after the handler's WriteHeader) sends that"

/**
 * A body that is not UTF-8 under a Content-Type that names another charset: its JSON was written in
 * that encoding (measured by stackhunt11: a front transcoding the answers to ISO-8859-1 and UTF-16),
 * where RFC 8259 §8.1 asks UTF-8; undefined when the charset named is UTF-8 or none, or the media type is no JSON.
 */
function otherCharsetWords(response: RecordedResponse): string | undefined {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(response.headers['content-type'] ?? '')?.[1]
  if (charset === undefined || /^utf-?8$/i.test(charset)) return undefined
  // a page of another media type in it (Jetty's ISO-8859-1 error page) holds no JSON written in it: its origin says what it is
  const type = mediaType(response.headers['content-type'])
  if (type !== 'application/json' && !type?.endsWith('+json')) return undefined
  return `the answer declares charset=${charset}, and its JSON was written in that encoding (a gateway that transcodes, a writer or a servlet response set to it), where RFC 8259 §8.1 asks UTF-8 of JSON text exchanged between systems, and defines no charset parameter`
}

/** The body parsed as JSON, int64 values kept exact; a failure when it is not JSON. */
export function jsonBodyOf(result: HttpResult): unknown {
  const response = responseOf(result)
  const parsed = parseOnce(result)
  if ('value' in parsed) return parsed.value
  const text = result.text ?? ''
  const overLimit = parsed.error instanceof JsonOverLimitError ? parsed.error.limit : undefined
  return fail(
    {
      code: 'NOT_JSON',
      message: overLimit ? `the ${response.status} body is not JSON this client reads: ${parsed.error.message}` : `the ${response.status} body is not valid JSON${result.invalidUtf8 && GZIP_STREAM.test(text) ? `: ${GZIP_UNLABELLED}` : (result.invalidUtf8 || result.byteOrderMark) && otherCharsetWords(response) ? `: ${otherCharsetWords(response)}` : withOrigin(text.length === 0 ? emptyBodyOrigin(response) : textBodyOrigin(response, result.exchange.request))}`,
      expected: 'a JSON body',
      actual: text.length === 0 ? 'an empty body' : `${parsed.error.message}; body starts ${JSON.stringify(cutClearOfSecrets(response.body, 80))}`,
      // the kind of text, not the parser's words (they give a position, which the values' lengths move)
      observed: text.length === 0 ? 'an empty body' : result.byteOrderMark ? 'a byte order mark' : result.invalidUtf8 ? 'bytes that are not UTF-8' : overLimit === 'depth' ? `JSON nested past ${MAX_JSON_DEPTH} levels` : overLimit ? `JSON with more than one array or object in every ${CHARACTERS_PER_CONTAINER} characters` : 'text that is not JSON',
    },
    result.exchange,
  )
}
