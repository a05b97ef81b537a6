/**
 * Reading a response body: decoded from its Content-Encoding (gzip, deflate, br), with the size
 * cap on the DECODED bytes, so a compression bomb stops at --max-response-bytes, and decoded as
 * UTF-8 with its flaws (a byte order mark, bytes that are not UTF-8) reported instead of hidden.
 */
import { pipeline, type Readable, Transform, type TransformCallback } from 'node:stream'
import { constants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw, type ZlibOptions } from 'node:zlib'

/**
 * A gzip or zlib stream that ends where its last flush left it, without the end the format writes (a gzip
 * writer flushed and never closed: the JSON is all there, its trailer is not), is read as curl,
 * browsers and undici's own fetch read it; as read, such a body failed 17 rules
 * ("171 of 171 requests were answered with a body the client could not decode", found by
 * stackhunt3). A body cut short on the wire is still found: by the transfer, or by a stream that stops
 * before its end elsewhere than at a flush (CodedBodyCutShortError).
 */
const LENIENT: ZlibOptions = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH }

/**
 * A gzip, zlib, raw DEFLATE or Brotli stream that stops before its end anywhere but where a flush left it (its last four
 * bytes 00 00 ff ff, which a writer flushed and never closed ends on): a body cut short, the answer
 * framed to end inside its coding (a Content-Length of half the stream, a close mid-body that
 * undici took for the end of a body the close delimits). Read leniently it was JSON cut short
 * (NOT_JSON, "Unterminated string"), and a front that cut one answer in a few was reported as
 * "answered differently on a second probe" (hostile11).
 */
export class CodedBodyCutShortError extends Error {
  readonly code = 'CODED_BODY_CUT_SHORT'
}

const FLUSH_MARK = Buffer.from([0x00, 0x00, 0xff, 0xff])

/**
 * A decoder made once the body's first bytes are known: the lenient one, and a strict one beside it that only tells
 * whether the stream came to its end. `headerless`: the coding has no header to tell it from text sent under its
 * label (raw DEFLATE, Brotli), so a stream that stops short is a body cut short only when what it gave reads as text.
 * `terminator`: bytes that end a stream left where a flush leaves it, given to the strict one at the end (Brotli).
 */
type Decoders = (first: Buffer) => { lenient: Transform; strict?: Transform; coding: string; headerless?: boolean; terminator?: Buffer }

/**
 * deflate as the zlib format (RFC 9110 §8.4.1.2), or as raw DEFLATE without its wrapper, which the
 * RFC calls non-conformant and every browser, curl and undici's own fetch read all the same: told
 * by the first byte, as undici's fetch tells them (a zlib stream's first byte is 0x?8, its method).
 * Go's compress/flate and Java's new Deflater(level, true) write the raw form; a front answering
 * every body so failed 17 rules, "171 of 171 requests got no answer" (found by stackhunt3).
 */
const deflateEitherForm: Decoders = (first) =>
  (first[0]! & 0x0f) === 0x08
    ? { lenient: createInflate(LENIENT), strict: createInflate(), coding: 'deflate (zlib)' }
    : { lenient: createInflateRaw(LENIENT), strict: createInflateRaw(), coding: 'deflate', headerless: true }

const gzip: Decoders = () => ({ lenient: createGunzip(LENIENT), strict: createGunzip(), coding: 'gzip' })

/**
 * Brotli read as gzip is (hostile12): a writer flushed and never finished (BROTLI_OPERATION_FLUSH, a stream's flush()
 * ends on a byte boundary between meta-blocks) is read; one that stops anywhere else was "not decodable" for a cut.
 * The strict decoder is given one byte more, 0x03 (ISLAST, ISLASTEMPTY): a stream left at a flush ends there and
 * gives nothing more, one stopped inside a meta-block does not end (or gives a byte the lenient one did not).
 */
const brotli: Decoders = () => ({
  lenient: createBrotliDecompress({ flush: constants.BROTLI_OPERATION_FLUSH, finishFlush: constants.BROTLI_OPERATION_FLUSH }),
  strict: createBrotliDecompress(),
  coding: 'br',
  headerless: true,
  terminator: Buffer.from([0x03]),
})

/** The first decoded bytes of a stream read as text: UTF-8 (but for a character cut at their end), no control bytes but tab, CR and LF. */
function readsAsText(head: Buffer): boolean {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true })
    return text.length > 0 && !/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(text)
  } catch {
    return false
  }
}

/** A body decoded by the decoders `make` gives for its first bytes; a stream cut short is an error (CodedBodyCutShortError). */
class Decoding extends Transform {
  private inner: Transform | undefined
  private strict: Transform | undefined
  private strictError: (Error & { code?: string }) | undefined
  private strictEnded: Promise<void> = Promise.resolve()
  private innerEnded: Promise<void> = Promise.resolve()
  private coding = ''
  private headerless = false
  private terminator: Buffer | undefined
  private tail = Buffer.alloc(0)
  private compressed = 0
  /** Decoded bytes: the lenient decoder's, the strict one's, and the first of them (told as text or not). */
  private given = 0
  private strictGiven = 0
  private head = Buffer.alloc(0)

  constructor(private readonly make: Decoders) {
    super()
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (chunk.length === 0) return done()
    if (!this.inner) {
      const { lenient, strict, coding, headerless, terminator } = this.make(chunk)
      this.coding = coding
      this.headerless = headerless === true
      this.terminator = terminator
      // the reader's pace holds for the inner stream too, so a bomb inflates no faster than it is read (the cap)
      lenient.on('data', (data: Buffer) => {
        this.given += data.length
        if (this.head.length < 64) this.head = Buffer.concat([this.head, data.subarray(0, 64 - this.head.length)])
        return this.push(data) || lenient.pause()
      })
      lenient.on('error', (error) => this.destroy(error))
      // listened for from the start: a stream followed by bytes it does not read (gzip's zero padding, which zlib allows, or
      // anything after a zlib stream's end) ends as it is written, before _flush, and waited for there it never came (hostile11 review)
      this.innerEnded = new Promise((resolve) => lenient.once('end', resolve))
      this.inner = lenient
      if (strict) {
        // its output is counted and dropped; it reads no further than the lenient one was given (a chunk ahead at most)
        strict.on('data', (data: Buffer) => void (this.strictGiven += data.length))
        this.strictEnded = new Promise((resolve) => {
          strict.once('end', resolve)
          strict.on('error', (error) => resolve(void (this.strictError ??= error)))
        })
        this.strict = strict
      }
    }
    this.compressed += chunk.length
    this.tail = Buffer.concat([this.tail, chunk]).subarray(-FLUSH_MARK.length)
    this.strict?.write(chunk)
    this.inner.write(chunk, done)
  }

  override _read(size: number): void {
    this.inner?.resume()
    super._read(size)
  }

  override _destroy(error: Error | null, done: (error: Error | null) => void): void {
    this.inner?.destroy()
    this.strict?.destroy()
    done(error)
  }

  /** The stream stopped before its end, and not where a flush left it. */
  private unfinished(): boolean {
    if (this.terminator) return this.strictError !== undefined || this.strictGiven !== this.given
    return this.strictError?.code === 'Z_BUF_ERROR' && !this.tail.equals(FLUSH_MARK)
  }

  override _flush(done: TransformCallback): void {
    if (!this.inner) return done()
    this.inner.end()
    if (this.terminator) this.strict?.end(this.terminator)
    else this.strict?.end()
    void Promise.all([this.innerEnded, this.strictEnded]).then(() => {
      if (!this.unfinished()) return done()
      // text sent under a br or deflate label reads as a stream that never ends: not a body cut short, one not decodable
      if (this.headerless && !readsAsText(this.head)) {
        const gave = this.given === 0 ? 'nothing' : `${this.given} bytes that are not text`
        const why = `its ${this.coding} stream stops before its end after ${this.compressed} bytes, having given ${gave}: not a ${this.coding} stream, or one cut short before its first text`
        const error = Object.assign(new Error(why), { code: 'Z_DATA_ERROR' })
        return done(error)
      }
      done(new CodedBodyCutShortError(`its ${this.coding} stream stops before its end after ${this.compressed} bytes, not where a flush left it: the body was cut short`))
    })
  }
}

/** Content codings the client decodes (RFC 9110 §8.4.1); identity needs nothing. */
const DECODERS: Record<string, () => Transform> = {
  gzip: () => new Decoding(gzip),
  'x-gzip': () => new Decoding(gzip),
  deflate: () => new Decoding(deflateEitherForm),
  // Brotli has no header either: "[]" sent as it is under a br label reads as a stream that never ends, and gives no text
  br: () => new Decoding(brotli),
}

export class UnsupportedEncodingError extends Error {
  readonly code = 'UNSUPPORTED_ENCODING'
}

/** The codings of a Content-Encoding header, in the order they were applied; identity left out. */
export function contentCodings(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity')
}

/**
 * A Transfer-Encoding's codings besides the final chunked (undici's parser undoes that one), in the
 * order they were applied; identity left out. RFC 9112 §7 registers gzip, deflate and compress as
 * transfer codings beside chunked, which a server may apply on top of any content coding: rare (no
 * browser asks for one, TE), but HTTP/1.1, and read here as the same codings of Content-Encoding
 * are, under the same cap. undici hands such a body on still coded, and the suite took it for a
 * body compressed without saying so ("a body compressed without Content-Encoding: gzip to say so").
 */
export function transferCodings(header: string | undefined): string[] {
  const codings = contentCodings(header)
  // `chunked` said twice at the end (two field lines of it, a proxy's and the service's): the parser dechunked the body once, as it came
  while (codings[codings.length - 1] === 'chunked') codings.pop()
  return codings
}

/** The codings of a body in words: its Content-Encoding's, and the last `transfer` of them its Transfer-Encoding's. */
export function codingWords(codings: readonly string[], transfer = 0): string {
  const content = codings.slice(0, codings.length - transfer)
  const words = [content.length > 0 ? `Content-Encoding ${content.join(', ')}` : '', transfer > 0 ? `Transfer-Encoding ${codings.slice(-transfer).join(', ')}` : '']
  return words.filter((w) => w !== '').join(', ')
}

/**
 * The most codings of one body the client undoes. Each decoder holds its state and buffers from
 * the start: a Content-Encoding of 5,000 "br" (15 KB, a head undici takes) made 5,000 of them for
 * every answer, 1 GB in 15 s of a run (measured). A server applies one coding, seldom two.
 */
export const MAX_CODINGS = 4

/** The body as it comes off the wire, or through the decoders of its codings (last applied, first undone); the last `transfer` are its Transfer-Encoding's. */
export function decodedStream(body: Readable, codings: readonly string[], transfer = 0): Readable {
  if (codings.length === 0) return body
  // a body refused unread is ended here: left as it was, it held its connection until undici's body
  // timeout, and closing the client waited for it (a run against a zstd service ended after 112 s)
  const refused = (why: string) => {
    body.on('error', () => {}) // undici's "Request aborted", which says nothing more
    body.destroy()
    return new UnsupportedEncodingError(why)
  }
  if (codings.length > MAX_CODINGS) {
    throw refused(`the body is sent with ${codings.length} ${transfer === 0 ? 'content codings' : 'codings'} (${codingWords(codings.slice(0, MAX_CODINGS), Math.max(0, transfer - (codings.length - MAX_CODINGS)))}, …), more than the ${MAX_CODINGS} the client undoes`)
  }
  const unknown = codings.findIndex((coding) => DECODERS[coding] === undefined)
  const transferList = codings.slice(codings.length - transfer).join(', ')
  // chunked under another coding, ended by the close: allowed (RFC 9112 §6.1), and rarer still
  if (unknown >= codings.length - transfer && codings[unknown] === 'chunked') throw refused(`the body is sent with Transfer-Encoding ${transferList}: chunked under another transfer coding (an answer ended by the close), which the client does not read`)
  if (unknown >= codings.length - transfer)
    throw refused(`the body is sent with Transfer-Encoding ${codings[unknown]}, a transfer coding the client does not read (it reads chunked, gzip and deflate, RFC 9112 §7, and asked for none but chunked: no TE header)`)
  if (unknown >= 0) throw refused(`the body is sent with Content-Encoding ${codings[unknown]}, which the client cannot decode (it asked for identity)`)
  const decoders = [...codings].reverse().map((coding) => (DECODERS[coding] as () => Transform)())
  // pipeline destroys every stage when one fails or the reader stops early
  return pipeline([body, ...decoders] as [Readable, ...Transform[]], () => {}) as unknown as Readable
}

export interface DecodedText {
  text: string
  /** The body began with a UTF-8 byte order mark (RFC 8259 §8.1: a JSON text must not). */
  byteOrderMark: boolean
  /** Some bytes were not UTF-8 (shown as U+FFFD in the text). */
  invalidUtf8: boolean
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
const lenient = new TextDecoder('utf-8', { ignoreBOM: true })

export function decodeUtf8(bytes: Uint8Array): DecodedText {
  const byteOrderMark = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
  const content = byteOrderMark ? bytes.subarray(3) : bytes
  try {
    return { text: strict.decode(content), byteOrderMark, invalidUtf8: false }
  } catch {
    return { text: lenient.decode(content), byteOrderMark, invalidUtf8: true }
  }
}
