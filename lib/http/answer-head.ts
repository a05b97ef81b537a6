/**
 * A final answer's head, held whole until its empty line and read before undici's parser gets it:
 * what RFC 9112 asks of a client that undici does not do is done here, and framing undici refuses
 * in misleading words is refused here in words of its own.
 *
 * - Folded header lines are unfolded (lib/http/folded-headers.ts, RFC 9112 §5.2).
 * - A Content-Length given more than once with one value (two field lines, or `42, 42`) is read as
 *   that one value, as RFC 9110 §8.6 lets a recipient do ("likely indicates that a duplicate was
 *   generated or combined by an upstream message processor"; browsers, curl and Go do): undici added
 *   the values up as text (`2121` for two lines of `21`) and failed with "Response body length does
 *   not match content-length header" though the body was as long as both said.
 * - Content-Lengths that differ, or one beside Transfer-Encoding (RFC 9112 §6.3: the framing is
 *   invalid, one "ought to be handled as an error"), are the server's protocol faults, which undici
 *   refused in the same misleading words: the answer is refused with a `fault` that names it.
 * - A 101 Switching Protocols (the suite asks for no upgrade) is refused as the fault it is, and a
 *   204 or 304 is read as ending at its empty line whatever its Content-Length says (RFC 9112 §6.3).
 * - A chunked body's size lines lose the whitespace RFC 9112 §7.1.1 allows around `;` and `=`
 *   (lib/http/chunk-lines.ts), which undici refuses.
 *
 * The head is held at most MAX_HEAD: past it the bytes go through as they came, and undici refuses
 * the head for its size (lib/http/transport-errors.ts MAX_HEAD_BYTES). Everything after the body
 * starts goes through untouched but a chunked body's size lines.
 */
import { ChunkLines } from './chunk-lines.ts'
import { unfoldHead } from './folded-headers.ts'
import { MAX_HEAD_BYTES } from './transport-errors.ts'

const LF = 0x0a
const CR = 0x0d
/** Past this many bytes of head the client reads no more of it: the holding stops there too. */
const MAX_HEAD = MAX_HEAD_BYTES + 1
/** How a status line begins (RFC 9112 §4), after any empty lines. */
const STATUS_START = Buffer.from('HTTP/', 'latin1')

/** An answer refused for its framing: the code is llhttp's for the like (lib/http/transport-errors.ts reads HPE_ as PROTOCOL_ERROR). */
export class FramingFault extends Error {
  constructor(
    message: string,
    readonly code: 'HPE_INVALID_STATUS' | 'HPE_UNEXPECTED_CONTENT_LENGTH' | 'HPE_INVALID_HEADER_TOKEN' | 'HPE_INVALID_VERSION' | 'HPE_INVALID_CHUNK_SIZE',
  ) {
    super(message)
    this.name = 'FramingFault'
  }
}

/** Where the head in `bytes` ends (the offset after its empty line, looked for from `from` on); -1 when it has not ended. */
export function headEnd(bytes: Buffer, from: number): number {
  for (let at = bytes.indexOf(LF, from); at >= 0; at = bytes.indexOf(LF, at + 1)) {
    if (bytes[at + 1] === LF) return at + 2
    if (bytes[at + 1] === CR && bytes[at + 2] === LF) return at + 3
  }
  return -1
}

interface Framing {
  head: Buffer
  chunked: boolean
  fault?: FramingFault
  /** The body's length where the head gives one (Content-Length); 0 for a 204 or 304. */
  length?: number
  /** The answer closes its connection (Connection: close, or HTTP/1.0 without keep-alive, RFC 9112 §9.3). */
  closes?: boolean
}

const DIGITS = /^\d+$/

/** The head's field lines named `name` (lower case): their index among the lines and their values, a list split at its commas. */
function fieldLines(lines: string[], name: string): { at: number; values: string[] }[] {
  return lines.flatMap((line, at) => {
    const field = at > 0 ? /^([^:\s]+):(.*)$/.exec(line.replace(/\r$/, '')) : null
    return field && field[1]?.toLowerCase() === name ? [{ at, values: (field[2] ?? '').split(',').map((v) => v.trim().toLowerCase()) }] : []
  })
}

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]*$/
/** The controls no field value may hold (RFC 9110 §5.5; HTAB may be, and obs-text 0x80-0xFF). */
const CTL = /[\x00-\x08\x0a-\x1f\x7f]/

const byteWords = (c: string) => `0x${c.charCodeAt(0).toString(16).padStart(2, '0')}${c === ' ' ? ' (a space)' : c === '\t' ? ' (a tab)' : ''}`

/**
 * The first field line that is none, in words: a name that is not a token (RFC 9110 §5.6.2; no
 * space before the colon, RFC 9112 §5.1), a line without a colon, a control in a value. undici
 * refuses such a head, and after a Content-Length in words of the length ("Response body length does
 * not match content-length header"), not of the fault. Only token characters of the server's are quoted.
 */
function malformedField(lines: string[]): string | undefined {
  for (const raw of lines.slice(1)) {
    const line = raw.replace(/\r$/, '')
    if (line === '') continue
    const colon = line.indexOf(':')
    const name = colon < 0 ? line : line.slice(0, colon)
    const bad = TOKEN.test(name) ? -1 : [...name].findIndex((c) => !TCHAR.test(c))
    const before = `"${name.slice(0, Math.min(bad < 0 ? name.length : bad, 40))}"`
    if (bad === 0 && (name[0] === ' ' || name[0] === '\t')) return `a header line that begins with ${byteWords(name[0])} right after the status line: a fold with no field value to continue (RFC 9112 §5.2)`
    if (bad >= 0) return `a header field name that holds ${byteWords(name[bad] as string)} after ${before}: a name is a token, with no space before its colon (RFC 9110 §5.6.2, RFC 9112 §5.1)`
    if (colon < 0 || name === '') return `a header line without a field name and colon${colon < 0 ? ` after ${before}` : ''} (RFC 9112 §5)`
    const control = CTL.exec(line.slice(colon + 1))?.[0]
    if (control !== undefined) return `the header ${name} holds the control character ${byteWords(control)}, which makes a field value invalid (RFC 9110 §5.5)`
  }
  return undefined
}

/**
 * The status line's version (RFC 9112 §2.3), to an HTTP/1.1 request: HTTP/1.0 and HTTP/1.1 are read;
 * a later HTTP/1 (1.2 …) is read as 1.1, as a recipient "SHOULD process the message as if it were
 * in the highest minor version within that major version to which the recipient is conformant";
 * any other version is a fault, named: undici read `HTTP/2.0 200` and `HTTP/0.9 200` as answers, and
 * refused `HTTP/2 200` and `HTTP/1.2 200` as "Expected dot" and "Invalid HTTP version".
 */
function versionRead(lines: string[]): FramingFault | undefined {
  const version = /^HTTP\/(\d+)(?:\.(\d+))?(?=[ \t\r]|$)/.exec(lines[0] ?? '')
  if (!version) return undefined
  if (version[1] === '1' && version[2] !== undefined && version[2].length === 1) {
    if (Number(version[2]) > 1) lines[0] = `HTTP/1.1${(lines[0] as string).slice(version[0].length)}`
    return undefined
  }
  return new FramingFault(
    `the status line says ${version[0]}, a version no answer to an HTTP/1.1 request carries: HTTP/1.1 or HTTP/1.0 (RFC 9112 §2.3: a server must not send a version it does not conform to${version[1] === '1' ? '' : '; HTTP/0.9 has no status line, HTTP/2 and HTTP/3 none in text'})`,
    'HPE_INVALID_VERSION',
  )
}

/** What the head says of its framing: whether its body is chunked, its repeated Content-Length made one, or the fault it shows. */
export function readFraming(given: Buffer): Framing {
  const lines = given.toString('latin1').split('\n')
  const version = lines[0]
  const versionFault = versionRead(lines)
  // a later HTTP/1 read as HTTP/1.1: the head with its status line so
  const head = lines[0] === version ? given : Buffer.from(lines.join('\n'), 'latin1')
  if (versionFault) return { head, chunked: false, fault: versionFault }
  const status = Number(/^HTTP\/\d\.\d (\d{3})(?:[ \r]|$)/.exec(lines[0] ?? '')?.[1] ?? 0)
  const malformed = malformedField(lines)
  if (malformed !== undefined) return { head, chunked: false, fault: new FramingFault(malformed, 'HPE_INVALID_HEADER_TOKEN') }
  // the suite asks for no upgrade: undici failed one with "bad upgrade" (read as a connection lost under the request) or its assert(upgrade)
  if (status === 101) return { head, chunked: false, fault: new FramingFault("a 101 Switching Protocols, though the request asked for no protocol (RFC 9110 §7.8: a server must not switch to one the request's Upgrade did not name)", 'HPE_INVALID_STATUS') }
  const lengths = fieldLines(lines, 'content-length')
  const codings = fieldLines(lines, 'transfer-encoding').flatMap((line) => line.values)
  const tokens = fieldLines(lines, 'connection').flatMap((line) => line.values)
  const closes = tokens.includes('close') || (/^HTTP\/1\.0 /.test(lines[0] ?? '') && !tokens.includes('keep-alive'))
  // a 204 or a 304 ends at its empty line whatever its fields say (RFC 9112 §6.3): undici waited for the body its Content-Length gave
  const bodiless = status === 204 || status === 304
  const chunked = !bodiless && codings[codings.length - 1] === 'chunked'
  if (bodiless) return { head: Buffer.from(lines.filter((_, at) => !lengths.some((line) => line.at === at)).join('\n'), 'latin1'), chunked, length: 0, closes }
  if (lengths.length === 0) return { head, chunked, closes }
  if (codings.length > 0) return { head, chunked, fault: new FramingFault('Content-Length beside Transfer-Encoding: where the body ends is ambiguous (RFC 9112 §6.3; a sender must not send both, §6.2)', 'HPE_UNEXPECTED_CONTENT_LENGTH') }
  const values = [...new Set(lengths.flatMap((line) => line.values))]
  if (values.length > 1 && values.every((v) => DIGITS.test(v)))
    return { head, chunked, fault: new FramingFault(`Content-Length given with different values (${values.join(', ')}): where the body ends is ambiguous (RFC 9112 §6.3)`, 'HPE_UNEXPECTED_CONTENT_LENGTH') }
  const repeated = lengths.length > 1 || (lengths[0]?.values.length ?? 0) > 1
  const length = values.length === 1 && DIGITS.test(values[0] ?? '') ? Number(values[0]) : undefined
  if (!repeated || length === undefined) return { head, chunked, ...(length === undefined ? {} : { length }), closes }
  // one value said more than once: one field line of it where the first was, the others gone
  const [first, ...others] = lengths.map((line) => line.at)
  const kept = lines.map((line, at) => (at === first ? `content-length: ${values[0]}${line.endsWith('\r') ? '\r' : ''}` : line)).filter((_, at) => !others.includes(at))
  return { head: Buffer.from(kept.join('\n'), 'latin1'), chunked, length, closes }
}

/**
 * The head with each line ended by CRLF: RFC 9112 §2.2 lets a recipient take a bare LF for a line's
 * end, as curl, Go and browsers do, where undici's parser refuses it ("Missing expected CR after
 * response line"). The same Buffer when every line has its CR.
 */
function withCrlf(head: Buffer): Buffer {
  for (let at = head.indexOf(LF); at >= 0; at = head.indexOf(LF, at + 1)) {
    if (at === 0 || head[at - 1] !== CR) return Buffer.from(head.toString('latin1').replace(/(?<!\r)\n/g, '\r\n'), 'latin1')
  }
  return head
}

/** A body said chunked whose size line is none, in words: what came, its first characters, printable ASCII and escapes. */
function notInChunks(line: string): FramingFault {
  const shown = JSON.stringify(line.slice(0, 40)) + (line.length > 40 ? '…' : '')
  return new FramingFault(`the body is said to come in chunks (Transfer-Encoding: chunked), and where the size of a chunk was due came ${shown}, no hexadecimal size (RFC 9112 §7.1)`, 'HPE_INVALID_CHUNK_SIZE')
}

export class AnswerHead {
  private inHead = false
  private pieces: Buffer[] = []
  private length = 0
  /** The head's last two bytes so far: an empty line may begin in them. */
  private lastTwo = Buffer.alloc(0)
  private body: ChunkLines | undefined
  /** A status line has begun past the empty lines (its first bytes are STATUS_START's). */
  private statusLine = false
  /** The CR and LF bytes before the status line so far (empty lines, which end no head); `begun` once a byte of it came. */
  private leading = 0
  private begun = false
  /** The answer's framing is the server's fault: it is refused (the caller ends the connection with it). */
  fault: FramingFault | undefined
  /** Body bytes still to come, where the head gave its length; undefined: chunked, or ended by the close. */
  private remaining: number | undefined
  /** A request with HEAD: its answer has no body, whatever its head says (RFC 9112 §6.3). */
  private headRequest = false
  /**
   * Where the answer ended, once it has (Content-Length bytes, the chunked body's end, a bodiless
   * status): `surplus` holds the bytes that came after it, no part of it (RFC 9112 §6.3), for the
   * caller to judge; `keepsOpen`: the answer leaves its connection open.
   */
  ended = false
  keepsOpen = false
  surplus: Buffer | undefined

  /** A final answer begins with the next byte; `method`: the request's it answers. */
  answerBegins(method?: string): void {
    this.headRequest = method === 'HEAD'
    this.remaining = undefined
    this.ended = false
    this.keepsOpen = false
    this.surplus = undefined
    this.inHead = true
    this.pieces = []
    this.length = 0
    this.lastTwo = Buffer.alloc(0)
    this.body = undefined
    this.fault = undefined
    this.statusLine = false
    this.leading = 0
    this.begun = false
  }

  /**
   * Whether the bytes so far can no longer begin a status line. Such bytes are no HTTP (a cache's or a
   * database's port: `-ERR unknown command`), and go to the parser at once, which refuses them: held
   * for an empty line that never comes, each request waited out --timeout (test/cli/base-url-not-found.test.ts).
   */
  private notHttp(): boolean {
    if (!this.begun || this.statusLine) return false
    // held as one piece from here: the bytes past the empty lines are read again until they tell
    const held = this.pieces.length === 1 ? (this.pieces[0] as Buffer) : Buffer.concat(this.pieces)
    this.pieces = [held]
    const first = held.subarray(this.leading, this.leading + STATUS_START.length)
    if (!first.equals(STATUS_START.subarray(0, first.length))) return true
    this.statusLine = first.length === STATUS_START.length
    return false
  }

  /** The bytes to hand on for `chunk`: none while the head is incomplete, then the head as read and what follows. */
  feed(chunk: Buffer): Buffer {
    if (!this.inHead) return this.inBody(chunk)
    // an empty line may begin in the bytes before this chunk: look from two bytes before it
    const tail = this.lastTwo.length > 0 ? Buffer.concat([this.lastTwo, chunk]) : chunk
    const offset = this.length - this.lastTwo.length
    // a copy: a TLS socket reads into memory it reuses once the chunk is pushed (held as it came, heads over TLS were garbled and runs hung)
    this.pieces.push(Buffer.from(chunk))
    this.length += chunk.length
    this.lastTwo = Buffer.from(tail.subarray(-2))
    if (!this.begun) {
      let blank = 0
      while (blank < chunk.length && (chunk[blank] === CR || chunk[blank] === LF)) blank++
      this.leading += blank
      this.begun = blank < chunk.length
    }
    // the head's empty line comes after its status line: two or more empty lines before that end none
    const end = this.begun ? headEnd(tail, Math.max(0, this.leading - offset)) : -1
    if (end < 0) {
      if (this.length <= MAX_HEAD && !this.notHttp()) return Buffer.alloc(0)
      // too long for a head the client reads, or no HTTP: let the parser have it and refuse it itself
      this.inHead = false
      return this.taken()
    }
    this.inHead = false
    const bytes = this.taken()
    // empty lines before the status line, which undici's parser skips (a CRLF an old server writes after a body), are no field lines
    const framing = readFraming(unfoldHead(bytes.subarray(this.leading, offset + end)))
    if (framing.fault) {
      this.fault = framing.fault
      return Buffer.alloc(0)
    }
    const rest = bytes.subarray(offset + end)
    const head = withCrlf(framing.head)
    this.keepsOpen = framing.closes !== true
    this.remaining = this.headRequest ? 0 : framing.length
    if (framing.chunked && !this.headRequest) this.body = new ChunkLines()
    return Buffer.concat([head, this.inBody(rest)])
  }

  /** The body's bytes of `chunk`: those past its end, once it has one, go to `surplus`. */
  private inBody(chunk: Buffer): Buffer {
    if (this.ended) {
      this.ends(Buffer.from(chunk)) // a copy: a TLS socket reuses a chunk's memory
      return Buffer.alloc(0)
    }
    if (this.body) {
      const out = this.body.feed(chunk)
      if (this.body.notChunked !== undefined) this.fault = notInChunks(this.body.notChunked)
      if (this.body.ended) this.ends(this.body.surplus)
      this.body.surplus = undefined
      return out
    }
    if (this.remaining === undefined) return chunk
    const take = Math.min(this.remaining, chunk.length)
    this.remaining -= take
    if (this.remaining === 0) this.ends(take < chunk.length ? Buffer.from(chunk.subarray(take)) : undefined)
    return take === chunk.length ? chunk : chunk.subarray(0, take)
  }

  private ends(surplus: Buffer | undefined): void {
    this.ended = true
    if (surplus && surplus.length > 0) this.surplus = this.surplus ? Buffer.concat([this.surplus, surplus]) : surplus
  }

  /** The bytes that came after the answer's end so far, taken. */
  takeSurplus(): Buffer | undefined {
    const surplus = this.surplus
    this.surplus = undefined
    return surplus
  }

  private taken(): Buffer {
    const bytes = this.pieces.length === 1 ? (this.pieces[0] as Buffer) : Buffer.concat(this.pieces)
    this.pieces = []
    return bytes
  }

  /** The bytes held back when the connection ends: the parser gets them, to judge them as it would have. */
  flush(): Buffer | undefined {
    if (this.inHead && this.length > 0) {
      this.inHead = false
      return this.taken()
    }
    return this.body?.flush()
  }
}
