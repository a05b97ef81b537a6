/**
 * Interim answers (1xx) read past on the client's connections, as RFC 9110 §15.2 asks of every
 * client: "A client MUST be able to parse one or more 1xx responses received prior to a final
 * response, even if the client does not expect one. A user agent MAY ignore unexpected 1xx
 * responses."
 *
 * Why here, below undici: undici's HTTP/1 parser (lib/dispatcher/client-h1.js, onHeadersComplete)
 * destroys the connection with "bad response" on any 100 Continue (undici issue #197, "HTTP 100
 * Continue", open since 2020 and labelled wontfix), so a server or proxy that sends one unasked
 * before every answer to a request with a body failed every POST of a run with a
 * transport error. Other 1xx (102, 103) undici reads past; 101 it takes for an upgrade and, for a
 * request that asked none, fails with "bad upgrade". No undici option changes the 100 case, and
 * an interceptor sees the answer only after the parser has failed, so the interim answers are taken
 * off the connection's bytes before the parser reads them: the connector that makes each
 * connection (plain, TLS, or TLS through a proxy's tunnel) hands undici the socket with this
 * filter on it. Not a wrapping stream: undici reads and sets the socket's own state (its timers,
 * keep-alive, ALPN, destroy), so the socket it gets must be the real one.
 *
 * The filter looks only where an answer begins: after the client writes a request's head and
 * before any byte of its answer (undici's agent writes one request at a time on a connection,
 * pipelining 1, so that is exactly when its parser waits for a status line). There it takes off
 * whole 1xx heads but 101, however the bytes are cut into chunks, and hands the final answer,
 * from its first byte until the next request, to lib/http/answer-head.ts, which holds its head
 * until its empty line and reads it before the parser does. The statuses it took off go to the final answer's head as a header whose name a server
 * cannot guess (INTERIM_HEADER); the client takes it out again (takeInterimAnswers) and records
 * them on the exchange's response as `interim`.
 *
 * Read against undici 7.30 (package-lock.json); should a later undici read past a 100 itself, it
 * never sees one from here, and test/http/interim-answers.test.ts still holds. On a normal run the
 * cost is one test of a request line per head written, a few bytes per answer, and its head held.
 */
import { randomBytes } from 'node:crypto'
import { channel } from 'node:diagnostics_channel'
import type { Socket } from 'node:net'
import { AnswerHead, headEnd, type FramingFault } from './answer-head.ts'
import { MAX_HEAD_BYTES } from './transport-errors.ts'
import { buildConnector, kReset } from './undici-parts.ts'

/** Carries the statuses taken off from the filter to the client; random per process, so no server sends it. */
const INTERIM_HEADER = `x-conform-interim-${randomBytes(8).toString('hex')}`
/**
 * Says that the final answer's status line read HTTP/1.0, which undici does not tell: a client must
 * not send a chunked body to a server it does not know to handle HTTP/1.1 (RFC 9112 §6.1), so the
 * suite judges no refusal of one that such a server gave (suites/categories/create-checks.ts).
 */
const HTTP_1_0_HEADER = `x-conform-http10-${randomBytes(8).toString('hex')}`
const HTTP_1_0_START = 'HTTP/1.0 '

/** Where the filter tells of a stray answer (lib/http/stray-answers.ts listens). */
export const STRAY_ANSWERS = channel('conform:stray-answer')
export interface StrayAnswer {
  /** The request whose answer the bytes followed. */
  traceparent: string | undefined
  bytes: Buffer
}
/** The evidence keeps this many bytes of a stray answer (an error page quotes what it answers a few hundred bytes in). */
const STRAY_EVIDENCE = 2048
/** `HTTP/1.x 408 `: a server's notice that it closes an idle connection (lib/http/lost-answer.ts), no stray answer. */
const IDLE_CLOSE = 'HTTP/1.0 408 '
const TRACEPARENT = /\r\ntraceparent: ([^\r\n]+)/i

/** Whether `text` begins IDLE_CLOSE: true, false, or undefined while it is too short to tell. */
function idleClose(text: string): boolean | undefined {
  for (let i = 0; i < IDLE_CLOSE.length; i++) {
    const c = text[i]
    if (c === undefined) return undefined
    if (!(i === 7 ? c >= '0' && c <= '9' : i === 12 ? c === ' ' || c === '\r' || c === '\n' : c === IDLE_CLOSE[i])) return false
  }
  return true
}

/** The evidence keeps the first few interim statuses of an answer. */
const MAX_RECORDED = 10

/** undici's request line (client-h1.js writeH1), the first bytes of every request head it writes, as one latin1 string. */
const REQUEST_LINE = /^[A-Z]+ \S+ HTTP\/1\.1\r\n/

/** `HTTP/1.x 1dd` and a space or the line's end: the start of an interim answer's head. */
const INTERIM_START = Buffer.from('HTTP/1.0 100 ')
const NOT_INTERIM = -1
const INCOMPLETE = 0

/**
 * Where the whole interim head at the start of `bytes` ends (the offset after its empty line);
 * INCOMPLETE while the bytes so far may still be one; NOT_INTERIM if they are not (or a 101).
 */
function interimHeadEnd(bytes: Buffer): number {
  for (let i = 0; i < INTERIM_START.length; i++) {
    if (i >= bytes.length) return INCOMPLETE
    const byte = bytes[i] as number
    const expected = INTERIM_START[i] as number
    const fits =
      i === 7 || i === 10 || i === 11 ? byte >= 0x30 && byte <= 0x39 : i === 12 ? byte === 0x20 || byte === 0x0d || byte === 0x0a : byte === expected
    if (!fits) return NOT_INTERIM
  }
  if (bytes[10] === 0x30 && bytes[11] === 0x31) return NOT_INTERIM // 101 Switching Protocols: undici's to judge
  // the head ends at the first empty line (CRLF, or a bare LF as lenient parsers accept)
  const end = headEnd(bytes, 12)
  return end < 0 ? INCOMPLETE : end
}

function statusOf(head: Buffer): number {
  return Number(head.toString('latin1', 9, 12))
}

/** One connection's state: whether an answer is about to begin, and what was taken off before it. */
class InterimFilter {
  /** A request's head was written and no byte of its final answer has been read yet. */
  private awaitingAnswer = false
  /** An interim head not yet whole, held back from the parser. */
  private held: Buffer | undefined
  /** Statuses taken off before the final answer, still to be written into its head. */
  private taken: number[] = []
  /** The final answer's status line read HTTP/1.0, still to be written into its head. */
  private http10 = false
  /** The final answer's head, read before the parser reads it (lib/http/answer-head.ts). */
  private readonly head = new AnswerHead()
  /** The method and traceparent of the latest request written. */
  private method: string | undefined
  private traceparent: string | undefined
  /** Bytes after an answer's end, no request written since, held while they may still begin a 408. */
  private idle: Buffer | undefined
  /** A 408 came after an answer's end: the parser reads what follows, as it did. */
  private passing = false
  /** Bytes came after an answer's end that no request asked for: the connection is not used again. */
  strayed: StrayAnswer | undefined

  requestWritten(head: string): void {
    this.awaitingAnswer = true
    this.taken = []
    this.http10 = false
    this.method = head.slice(0, head.indexOf(' '))
    this.traceparent = TRACEPARENT.exec(head)?.[1]
    this.passing = false
    // bytes that may begin a 408 when the request went: the answer's start (the keep-alive race, lost-answer.ts)
    if (this.idle) this.held = this.idle
    this.idle = undefined
  }

  /** The bytes the parser gets instead of `chunk` (possibly none). */
  filter(chunk: Buffer): Buffer {
    if (this.strayed) return Buffer.alloc(0)
    if (!this.awaitingAnswer && this.taken.length === 0 && !this.http10) return this.answer(chunk)
    let bytes = this.held ? Buffer.concat([this.held, chunk]) : chunk
    this.held = undefined
    while (this.awaitingAnswer) {
      // empty lines before a status line, which undici's parser skips (one after a 100, or after a body), are dropped here: the statuses' header went before the status line
      let blank = 0
      while (blank < bytes.length && (bytes[blank] === 0x0d || bytes[blank] === 0x0a)) blank++
      bytes = bytes.subarray(blank)
      const end = interimHeadEnd(bytes)
      if (end === NOT_INTERIM) {
        this.awaitingAnswer = false
        this.head.answerBegins(this.method)
        // a final answer's first bytes reach here whole past its version (a shorter start is held as INCOMPLETE)
        this.http10 = bytes.length >= HTTP_1_0_START.length && bytes.toString('latin1', 0, HTTP_1_0_START.length) === HTTP_1_0_START
      } else if (end === INCOMPLETE) {
        // too long for a head the client reads (lib/http/agent.ts maxHeaderSize): let the parser have the bytes and say so itself
        if (bytes.length > MAX_HEAD_BYTES) {
          this.awaitingAnswer = false
          this.head.answerBegins(this.method)
        } else {
          this.held = Buffer.from(bytes) // a copy: a TLS socket reuses the memory of a chunk once it is pushed
          return Buffer.alloc(0)
        }
      } else {
        if (this.taken.length < MAX_RECORDED) this.taken.push(statusOf(bytes))
        bytes = bytes.subarray(end)
        if (bytes.length === 0) return bytes
      }
    }
    return this.answer(this.taken.length > 0 || this.http10 ? this.noted(bytes) : bytes)
  }

  /** The answer's bytes for the parser; those after its end (a kept-alive connection's, no request written since) judged apart. */
  private answer(bytes: Buffer): Buffer {
    if (this.head.ended && !this.awaitingAnswer) return this.afterTheEnd(bytes)
    const out = this.head.feed(bytes)
    const surplus = this.head.takeSurplus()
    if (!surplus) return out
    const after = this.afterTheEnd(surplus)
    return after.length === 0 ? out : Buffer.concat([out, after])
  }

  /**
   * Bytes after an answer's end on a connection it leaves open, before the next request: empty
   * lines (an old server's CRLF after a body) and 1xx heads are dropped, a 408 goes to the parser (a
   * server's notice that it closes the idle connection, RFC 9110 §15.5.9), anything else is a stray answer,
   * which no request asked for: RFC 9112 §6.3, "A client MUST NOT process, cache, or forward such
   * extra data as a separate response". Read by the next request, it was taken for that one's.
   */
  private afterTheEnd(bytes: Buffer): Buffer {
    if (!this.head.keepsOpen || this.passing) return bytes
    let idle = this.idle ? Buffer.concat([this.idle, bytes]) : bytes
    this.idle = undefined
    for (let interim = INCOMPLETE + 1; interim > INCOMPLETE; ) {
      let blank = 0
      while (blank < idle.length && (idle[blank] === 0x0d || idle[blank] === 0x0a)) blank++
      idle = idle.subarray(blank)
      // a 1xx no request awaits: a user agent may ignore an unexpected one (RFC 9110 §15.2), and this one does
      interim = interimHeadEnd(idle)
      if (interim > INCOMPLETE) idle = idle.subarray(interim)
      else if (interim === INCOMPLETE && idle.length > 0 && idle.length <= MAX_HEAD_BYTES) {
        this.idle = Buffer.from(idle)
        return Buffer.alloc(0)
      }
    }
    if (idle.length === 0) return idle
    const notice = idleClose(idle.toString('latin1', 0, IDLE_CLOSE.length))
    if (notice === undefined) {
      this.idle = Buffer.from(idle)
      return Buffer.alloc(0)
    }
    if (notice) {
      this.passing = true
      return idle
    }
    this.strayed = { traceparent: this.traceparent, bytes: Buffer.from(idle.subarray(0, STRAY_EVIDENCE)) }
    if (STRAY_ANSWERS.hasSubscribers) STRAY_ANSWERS.publish(this.strayed)
    return Buffer.alloc(0)
  }

  /** The final answer's bytes with the headers that name the interim statuses and an HTTP/1.0 status line after its status line. */
  private noted(bytes: Buffer): Buffer {
    const lineEnd = bytes.indexOf(0x0a)
    if (lineEnd < 0) return bytes // the status line goes on in the next chunk: the header follows it there
    const lines = (this.taken.length > 0 ? `${INTERIM_HEADER}: ${this.taken.join(', ')}\r\n` : '') + (this.http10 ? `${HTTP_1_0_HEADER}: 1.0\r\n` : '')
    this.taken = []
    this.http10 = false
    return Buffer.concat([bytes.subarray(0, lineEnd + 1), Buffer.from(lines, 'latin1'), bytes.subarray(lineEnd + 1)])
  }

  /** The answer's framing is the server's fault (lib/http/answer-head.ts): the connection ends with it. */
  fault(): FramingFault | undefined {
    return this.head.fault
  }

  /** Bytes held back when the connection ends: the parser gets them, to fail on them as it would have. */
  flush(): Buffer | undefined {
    const held = this.held
    this.held = undefined
    this.idle = undefined // a 408's first bytes, and the connection closed: the idle close
    const unfolding = this.head.flush()
    return held && unfolding ? Buffer.concat([unfolding, held]) : (held ?? unfolding)
  }
}

/**
 * Puts the filter on a connection undici is about to use: its reads pass through it (Readable's
 * push, which Node's stream code calls for every chunk read from a TCP or TLS socket), and its
 * writes tell it when a request's head goes out.
 */
export function readPastInterimAnswers(socket: Socket): void {
  const filter = new InterimFilter()
  const push = socket.push
  socket.push = function (chunk: unknown, encoding?: BufferEncoding): boolean {
    if (chunk === null) {
      const held = filter.flush()
      if (held) push.call(this, held)
      return push.call(this, null)
    }
    if (!Buffer.isBuffer(chunk)) return push.call(this, chunk, encoding)
    const strayed = filter.strayed
    const bytes = filter.filter(chunk)
    const fault = filter.fault()
    // undici fails the request it reads for with the error the socket ends with
    if (fault) {
      this.destroy(fault)
      return false
    }
    // a stray answer: the connection is not used again. Closed now when the parser has read all before it
    // (undici reads an idle connection's bytes before it writes on it again); else once its answer ends
    if (!strayed && filter.strayed) {
      if (bytes.length === 0 && this.readableLength === 0) {
        this.destroy()
        return false
      }
      ;(this as unknown as Record<symbol, boolean>)[kReset] = true
    }
    return bytes.length === 0 ? true : push.call(this, bytes)
  }
  const write = socket.write
  socket.write = function (this: Socket, chunk: unknown, ...rest: unknown[]): boolean {
    if (typeof chunk === 'string' && REQUEST_LINE.test(chunk)) filter.requestWritten(chunk)
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest)
  } as Socket['write']
}

/** undici's connector (its options, or a function such as a proxy's tunnel), with the filter on every connection it makes. */
export function connectReadingPastInterimAnswers(connect: buildConnector.BuildOptions | buildConnector.connector | undefined): buildConnector.connector {
  const base = typeof connect === 'function' ? connect : buildConnector({ ...connect })
  return (options, callback) =>
    base(options, (...args: [null, Socket] | [Error, null]) => {
      if (args[1]) readPastInterimAnswers(args[1])
      callback(...args)
    })
}

/** Takes the filter's header out of a final answer's headers: the interim statuses passed over before it, if any. */
export function takeInterimAnswers(headers: Record<string, string | string[] | undefined>): number[] | undefined {
  const value = headers[INTERIM_HEADER]
  if (value === undefined) return undefined
  delete headers[INTERIM_HEADER]
  return String(value).split(', ').map(Number)
}

/** Takes the filter's header out of a final answer's headers: whether its status line read HTTP/1.0. */
export function takeHttp10(headers: Record<string, string | string[] | undefined>): boolean {
  if (headers[HTTP_1_0_HEADER] === undefined) return false
  delete headers[HTTP_1_0_HEADER]
  return true
}

/** Whether an answer closes its connection: Connection: close, or HTTP/1.0 without Connection: keep-alive (RFC 9112 §9.3). */
export function closesItsConnection(connection: string | string[] | undefined, http10: boolean): boolean {
  const tokens = String(connection ?? '').toLowerCase().split(',').map((token) => token.trim())
  return tokens.includes('close') || (http10 && !tokens.includes('keep-alive'))
}
