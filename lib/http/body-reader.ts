/**
 * Reading a response body: decoded from its Content-Encoding (gzip, deflate, br), with the size
 * cap on the DECODED bytes, so a compression bomb stops at --max-response-bytes, and decoded as
 * UTF-8 with its flaws (a byte order mark, bytes that are not UTF-8) reported instead of hidden.
 */
import { pipeline, Transform, type Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib'

/** Whether `first` (two bytes) is a zlib header (RFC 1950 §2.2: CM 8, deflate, and the check bits), which raw deflate data never begins with in practice. */
const zlibHeader = (first: Buffer): boolean => ((first[0] as number) & 0x0f) === 8 && (((first[0] as number) << 8) | (first[1] as number)) % 31 === 0

/**
 * deflate as RFC 9110 §8.4.1.2 names it, zlib data (RFC 1950), or the deflate data alone, without
 * the zlib wrapper: "Some non-conformant implementations send the "deflate" compressed data without
 * the zlib wrapper" (the same section), and browsers and curl read both. The client failed every
 * check such a service's answers reached (17 rules) with "incorrect header check". Told by the first
 * two bytes, held until both came.
 */
function createDeflateEitherWay(): Transform {
  let inner: Transform | undefined
  let first: Buffer | undefined
  const outer = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const bytes = first ? Buffer.concat([first, chunk]) : chunk
      first = undefined
      if (!inner && bytes.length < 2) {
        first = bytes
        return done()
      }
      inner ??= started(zlibHeader(bytes) ? createInflate() : createInflateRaw())
      if (inner.write(bytes)) done()
      else inner.once('drain', done)
    },
    flush(done) {
      inner ??= started(createInflateRaw())
      if (first) inner.write(first)
      inner.once('end', () => done())
      inner.end()
    },
    destroy(error, done) {
      inner?.destroy()
      done(error)
    },
  })
  const started = (made: Transform) => {
    made.on('data', (piece: Buffer) => outer.push(piece))
    made.on('error', (error) => outer.destroy(error))
    return made
  }
  return outer
}

/** Content codings the client decodes (RFC 9110 §8.4.1); identity needs nothing. */
const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createDeflateEitherWay,
  br: createBrotliDecompress,
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
 * The most codings of one body the client undoes. Each decoder holds its state and buffers from
 * the start: a Content-Encoding of 5,000 "br" (15 KB, a head undici takes) made 5,000 of them for
 * every answer, 1 GB in 15 s of a run (measured). A server applies one coding, seldom two.
 */
export const MAX_CODINGS = 4

/** The body as it comes off the wire, or through the decoders of its codings (last applied, first undone). */
export function decodedStream(body: Readable, codings: readonly string[]): Readable {
  if (codings.length === 0) return body
  // a body refused unread is ended here: left as it was, it held its connection until undici's body
  // timeout, and closing the client waited for it (a run against a zstd service ended after 112 s)
  const refused = (why: string) => {
    body.on('error', () => {}) // undici's "Request aborted", which says nothing more
    body.destroy()
    return new UnsupportedEncodingError(why)
  }
  if (codings.length > MAX_CODINGS) {
    throw refused(`the body is sent with ${codings.length} content codings (Content-Encoding ${codings.slice(0, MAX_CODINGS).join(', ')}, …), more than the ${MAX_CODINGS} the client undoes`)
  }
  const unknown = codings.find((coding) => DECODERS[coding] === undefined)
  if (unknown !== undefined) throw refused(`the body is sent with Content-Encoding ${unknown}, which the client cannot decode (it asked for identity)`)
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
