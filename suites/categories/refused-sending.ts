/**
 * Words for a valid create refused for how it was sent (without Accept, in chunks, in two pieces)
 * rather than for what it holds (create-checks.ts).
 */
/** What a refusal of a valid body sent without Accept may say of the service, and its fix. */
export const NO_ACCEPT_REFUSED =
  'with no Accept header, which RFC 9110 §12.5.1 reads as any media type (the answer is JSON all the same, §4): a handler that demands an Accept naming JSON refuses it; ' +
  'take a missing Accept for */*'
/** What a 400 to a valid body sent in chunks most often says of the service, and its fix. */
export const CHUNKED_REFUSED =
  'the body went in chunks (Transfer-Encoding: chunked, no Content-Length), which every HTTP/1.1 server reads (RFC 9112 §7.1) or refuses with 411 Length Required (RFC 9110 §15.5.12); ' +
  'a server that reads a body only up to its Content-Length sees none and answers as for a missing body (a WSGI app that reads CONTENT_LENGTH bytes of wsgi.input, which a chunked request has not: Falcon\'s req.get_media() reads its bounded_stream so), or decodes the chunks a second time (Bottle 0.12 under gunicorn, which has decoded them: "Error while parsing chunked transfer body."): read the body to its end, or answer 411'
/**
 * What a refusal of a valid body sent in two pieces (valid-create.ts, inPieces) may say of the service, and its fix (measured: a Java server on a bare ServerSocket reading the request with one read()).
 * `early`: the answer's head came before the second piece was written (lib/http/write-watch.ts), so the refusal is of the first piece alone, what the service had read (early13).
 */
export const inPiecesRefused = (splitAt: number, early = false) =>
  (early
    ? `the answer came before the body was all written: it went in two pieces, its first ${splitAt} bytes and the rest after a pause, as the evidence's splitAt says and as a network may deliver any body under its Content-Length, and the answer's head came before the second piece was written, so the service answered on the first piece alone, which is no JSON (answering before the body has all come is HTTP's to allow, RFC 9112 §9.3; refusing the body for what had come is not: §4.2 rule 2): `
    : `the body went in two pieces, its first ${splitAt} bytes and the rest after a pause, as the evidence's splitAt says and as a network may deliver any body under its Content-Length: `) +
  'a server that takes the body from a single read() (a fixed buffer read once, what the first packet held) sees the first piece alone, which is no JSON; read until Content-Length bytes have come (Java: readNBytes(length), C: recv() in a loop)'
/** Why a chunked create's refusal by a server that answers in HTTP/1.0 is not judged. */
export const CHUNKED_TO_HTTP_1_0 =
  'the body went in chunks (Transfer-Encoding: chunked), which a client must not send to a server it does not know to handle HTTP/1.1 (RFC 9112 §6.1), ' +
  "and a server that answers in HTTP/1.0 (Python's http.server with its default protocol_version) need not read it; the other creates judge the service"

/** An answer's words that say the body is not JSON. */
const SAYS_NOT_JSON = /\b(?:not (?:a )?(?:valid|well-formed|parsable) json|invalid json|malformed json|json (?:parse|syntax) error|unexpected end of (?:json )?input)\b/i
/** …and words that show the parser read the body's fields (Jackson's "JSON parse error: Unrecognized field \"description\""): it parsed them, and refused for what they hold. */
const READ_ITS_FIELDS = /unrecognized field|unknown (?:field|property|key)|not marked as ignorable|cannot deserialize|\\?"(?:name|description)\\?"(?!\s*:)/i

/**
 * What a 400 that calls a valid create's body not JSON shows, when the body was ASCII JSON without
 * an escape, as JSON.stringify writes it, sent whole under its Content-Length, and the service took
 * no create of the run: the service parsed other bytes than these, none of the body or a part.
 * Measured (stackhunt6): a Java service on a bare ServerSocket that looks the header up as
 * `Content-Length` in one case reads no body from this client, which writes `content-length`, and
 * answered "Body is not valid JSON" to every create, with no words. Undefined when the evidence
 * does not show it (a body in pieces, in chunks or written otherwise has its own words).
 */
export function unreadBodyRefused(request: { body?: string; bodyBase64?: string; splitAt?: number }, answer: string, sentAs: { chunked?: boolean; writtenAs?: string }): string | undefined {
  const body = request.body ?? ''
  if (request.splitAt !== undefined || request.bodyBase64 !== undefined || sentAs.chunked || sentAs.writtenAs !== undefined) return undefined
  if (!/^[\x20-\x7e]+$/.test(body) || body.includes('\\') || !SAYS_NOT_JSON.test(answer) || READ_ITS_FIELDS.test(answer)) return undefined
  return (
    `the answer says the body is not valid JSON, and it is: ${Buffer.byteLength(body)} bytes of ASCII JSON without an escape, sent whole under their Content-Length, and the service took no create of the run: ` +
    'it parsed other bytes than those sent, none of the body or a part, as a server does that looks the Content-Length header up in one case (this client writes `content-length`; ' +
    'field names are case-insensitive, RFC 9110 §5.1) or takes the body from one read() before all of it came; read Content-Length bytes, the name in any case'
  )
}
