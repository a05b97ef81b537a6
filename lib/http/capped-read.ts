/**
 * Reading a response body under the size caps: --max-response-bytes per body, counted in decoded
 * bytes (a compression bomb stops there), and 4 × that for all the bodies one client keeps over
 * the run (the suite keeps every body until the run ends, and sends its requests at once).
 */
import type { Readable } from 'node:stream'
import { codingWords, decodedStream } from './body-reader.ts'
import { ResponseTooLargeError, type BodyProgress } from './transport-errors.ts'

/** A piece smaller than this is copied into one with its neighbours; at most SMALL_PIECES_HELD are held apart. */
const SMALL_PIECE_BYTES = 4096
const SMALL_PIECES_HELD = 1024

/** Body bytes one client has read and kept so far, and the most it keeps. */
export interface KeptBytes {
  bytes: number
  max: number
}

/**
 * Reads the body, decoded from its Content-Encoding's `codings`, then its Transfer-Encoding's besides
 * chunked (`transfer`, applied on top), and stops at the cap on decoded bytes (a compression bomb
 * included); `arrived` hears of each piece's bytes as it comes.
 */
export async function readCapped(body: Readable, content: string[], partial: BodyProgress, limit: number, kept: KeptBytes, arrived?: (bytes: number) => void, transfer: string[] = []): Promise<Uint8Array> {
  const codings = [...content, ...transfer]
  // an honest Content-Length over the cap fails at once, without reading a byte of it
  if (partial.declaredBytes !== undefined && partial.declaredBytes > limit) {
    body.destroy()
    throw new ResponseTooLargeError(limit, partial.declaredBytes)
  }
  const decoded = decodedStream(body, codings, transfer.length)
  // events, not `for await`: an async iterator costs a body a chain of promises and an
  // end-of-stream watcher, and a run reads a few hundred bodies (a fleet, thousands)
  return new Promise<Uint8Array>((resolve, reject) => {
    const chunks: Buffer[] = []
    // small pieces are copied together: a chunked body of one-byte chunks (or a decoder's slivers)
    // comes as one Buffer each, a view that keeps the socket's whole read alive, so 1 byte of body
    // held ~150 bytes (2.3 GB in 20 s, under a 64 MiB cap, measured)
    let small: Buffer[] = []
    let smallBytes = 0
    const keepSmall = () => {
      if (small.length === 0) return
      chunks.push(Buffer.concat(small, smallBytes))
      small = []
      smallBytes = 0
    }
    let settled = false
    const fail = (error: unknown) => {
      if (settled) return
      settled = true
      decoded.destroy()
      reject(error)
    }
    decoded.on('data', (chunk: Buffer) => {
      if (settled) return
      partial.receivedBytes += chunk.byteLength
      kept.bytes += chunk.byteLength
      arrived?.(chunk.byteLength)
      if (partial.receivedBytes > limit) {
        return fail(
          new ResponseTooLargeError(limit, undefined, codings.length > 0 ? `decoded response body (${codingWords(codings, transfer.length)}) larger than ${limit} bytes (the limit set by --max-response-bytes); decoding stopped there` : undefined),
        )
      }
      // the cap holds per body; this holds for all of them, which are read at once and kept
      if (kept.bytes > kept.max) {
        return fail(
          new ResponseTooLargeError(limit, undefined, `response bodies of this run passed ${kept.max} bytes together (4 × --max-response-bytes); this one was not read past ${partial.receivedBytes} bytes`),
        )
      }
      if (chunk.byteLength >= SMALL_PIECE_BYTES) {
        keepSmall()
        chunks.push(chunk)
        return
      }
      small.push(chunk)
      smallBytes += chunk.byteLength
      if (small.length >= SMALL_PIECES_HELD || smallBytes >= SMALL_PIECE_BYTES) keepSmall()
    })
    decoded.once('end', () => {
      if (settled) return
      settled = true
      keepSmall()
      resolve(Buffer.concat(chunks, partial.receivedBytes))
    })
    decoded.once('error', fail)
    // destroyed before its end without an error of its own: what `for await` reports as a premature close
    // (the error made only then: every body closes after its end, and an Error's stack costs)
    decoded.once('close', () => settled || fail(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' })))
  })
}
