/**
 * How the reference server writes a reply on the wire: its body serialised, and the transport
 * behaviour a variant asks for (compression, chunks, interim answers, delays, closes).
 */
import type { ServerResponse } from 'node:http'
import { brotliCompressSync, constants, deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import { stringify as losslessStringify } from 'lossless-json'
import { TIMED_OUT } from './connection-closer.ts'

/** One answer on its way out; `body` is serialised with exact bigint ids unless it is a string. */
export interface Reply {
  status: number
  /** A header given as a list goes in one field line for each value (a JDK service's Headers.add). */
  headers: Record<string, string | string[]>
  body: unknown
  /** This reply alone goes this much later than the transport sends every reply (one slow request). */
  laterMs?: number
}

/** How a reply goes on the wire: what the conforming server and its variants choose. */
export interface Transport {
  delayMs: number
  /** Every GET (a list) answered this much later still, the others at once: a list computed slowly (a count over a large table). */
  listDelayMs?: number
  chunked: boolean
  connectionClose: boolean
  /** gzip every body unless the request's Accept-Encoding allows only identity (RFC 9110 12.5.3). */
  gzipUnlessIdentity?: boolean
  /** gzip the body when the request accepts gzip, but say nothing of it (no Content-Encoding); a number: only a body of more bytes than that (a compressor's threshold). */
  gzipUnlabelled?: boolean | number
  /** Compress every body with this coding, whatever the request's Accept-Encoding says ('raw-deflate': labelled deflate, without the zlib wrapper; 'gzip-unfinished': labelled gzip, flushed and never finished). */
  forceCoding?: 'gzip' | 'deflate' | 'br' | 'raw-deflate' | 'gzip-unfinished'
  /** How the body text becomes bytes (default UTF-8): a mutation writes a BOM or Latin-1 here. */
  encodeText?: (text: string) => Buffer
  /**
   * One worker: each request waits until those received before it are answered, then takes this
   * long (gunicorn's single sync worker). Timers, not a blocked event loop, so servers started
   * side by side in one process (the kill matrix) do not slow each other.
   */
  oneAtATimeMs?: number
  /**
   * A body sent in chunks read until the connection closes (wsgiref's wsgi.input.read() with no
   * length: it does not decode chunks), so its request is answered only once the client gives up;
   * with oneAtATimeMs, every request behind it waits as long.
   */
  chunkedReadToClose?: boolean
  /** Every answer's status line in HTTP/1.0 (wsgiref's and Python's http.server's default protocol_version). */
  http10?: boolean
  /**
   * One connection at a time, kept alive until the client closes it; the others wait unread (a
   * single-threaded server over HTTP/1.1: Python's http.server HTTPServer; lib/server/one-connection-server.ts).
   */
  oneConnectionAtATime?: boolean
  /**
   * At most this many connections open at once (Node's server.maxConnections): one past it is
   * closed as soon as it is accepted, before any byte of an answer, as a proxy's limit per client does.
   */
  maxConnections?: number
  /** Every answer's Content-Type value, and a header of its own, on folded lines (obs-fold: a line break then a space or a tab), as old servers and proxies still write them. */
  foldedHeaders?: boolean
  /** Every chunk's size line with an extension after spaces around `;` and `=` (BWS, RFC 9112 §7.1.1); with `chunked`. */
  spacedChunkExtensions?: boolean
  /** Content-Length given on two field lines and again as a list of one value (`42, 42`), as a proxy that adds its own writes it (RFC 9110 §8.6). */
  contentLengthTwice?: boolean
  /** An interim 103 Early Hints before every answer (RFC 8297; a client must read past 1xx, RFC 9110 §15.2). */
  earlyHints?: boolean
  /** No Content-Length and no chunks: the body ends when the connection closes (RFC 9112 §6.3, as HTTP/1.0 servers do). */
  closeDelimited?: boolean
  /**
   * A 100 Continue nobody asked for before the answer to every request with a body (RFC 9110
   * §15.2: a client must read past it): in the same write as the final answer, or apart from it.
   */
  unaskedContinue?: 'with-the-answer' | 'apart'
  /**
   * Closes a keep-alive connection idle this long, without a Keep-Alive header to say so (HTTP/1.1
   * lets a server close whenever it likes, RFC 9112 §9.3.1): a request written as it closes meets the close.
   */
  idleCloseMs?: number
  /** The idle close of idleCloseMs writes a 408 Request Timeout with Connection: close first (RFC 9110 §15.5.9), as some servers and proxies do. */
  idleCloseWith408?: boolean
  /** Closes the connection this long after every answer, without Connection: close. */
  closeAfterAnswerMs?: number
  /**
   * A reply this says so is never written: the connection closes under its request instead (a
   * worker that dies after its commit). `keptAlive`: its connection carried an earlier request.
   */
  dropAnswer?: (reply: Reply, keptAlive: boolean) => boolean
  /** A reply this says so is never written, and its connection is held open (Express 4: an async handler's rejection answers nothing). */
  neverAnswer?: (reply: Reply) => boolean
  /** The connection of a dropped answer closes with a 408 Request Timeout and Connection: close written first, the words of an idle close (RFC 9110 §15.5.9). */
  dropWith408?: boolean
  /** Every body gzipped as a transfer coding (`Transfer-Encoding: gzip, chunked`, RFC 9112 §7), whatever the request's TE and Accept-Encoding say. */
  gzipTransferCoding?: boolean
  /** Every body goes out at this many bytes a second, a tenth every 100 ms (a gateway's bandwidth limit: Apache's mod_ratelimit). */
  bytesPerSecond?: number
}

const JSON_TYPE = 'application/json'

/**
 * Serialises a reply; bigint ids are written exactly (lossless-json), strings go out as they are.
 * A body without a bigint is the same text from JSON.stringify, which is native and several times
 * faster than lossless-json's walk: the bench's ten servers share one thread, and their lists are
 * most of its work.
 */
export function serialise(body: unknown): string {
  if (typeof body === 'string') return body
  try {
    return JSON.stringify(body) ?? ''
  } catch (error) {
    if (!(error instanceof TypeError)) throw error
    return losslessStringify(body) ?? ''
  }
}

const COMPRESSORS = {
  gzip: gzipSync,
  deflate: deflateSync,
  br: brotliCompressSync,
  'raw-deflate': deflateRawSync,
  'gzip-unfinished': (bytes: Buffer) => gzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH }),
}
const LABELS = { gzip: 'gzip', deflate: 'deflate', br: 'br', 'raw-deflate': 'deflate', 'gzip-unfinished': 'gzip' }

/** The requests each connection has carried so far (one at a time: no client of the suite pipelines). */
const carried = new WeakMap<object, number>()

export function send(res: ServerResponse, reply: Reply, transport: Transport, acceptEncoding: string | undefined): void {
  const socket = res.req.socket
  const keptAlive = (carried.get(socket) ?? 0) > 0
  carried.set(socket, (carried.get(socket) ?? 0) + 1)
  const write = () => {
    if (res.destroyed) return
    if (transport.neverAnswer?.(reply)) return
    if (transport.dropAnswer?.(reply, keptAlive)) return void (transport.dropWith408 ? res.socket?.end(TIMED_OUT) : res.socket?.destroy())
    // Node's own 'HTTP/1.1 100 Continue\r\n\r\n' (writeContinue), although no Expect asked for it
    if (transport.unaskedContinue && hadBody && !continued) {
      continued = true
      if (transport.unaskedContinue === 'apart') {
        res.writeContinue()
        return void setTimeout(write, 2) // its own write, and most likely its own read
      }
      res.socket?.cork() // the 100 and the final answer in one write: uncorked after res.end
      corked = true
      res.writeContinue()
    }
    const text = serialise(reply.body)
    let bytes = transport.encodeText ? transport.encodeText(text) : Buffer.from(text, 'utf8')
    const headers: Record<string, string | string[]> = {}
    for (const [name, value] of Object.entries({ 'content-type': JSON_TYPE, ...reply.headers })) if (value !== '') headers[name] = value
    if (transport.gzipUnlessIdentity && !/^\s*identity\s*$/i.test(acceptEncoding ?? '')) {
      bytes = gzipSync(bytes)
      headers['content-encoding'] = 'gzip'
    }
    const unlabelledOver = transport.gzipUnlabelled === true ? -1 : transport.gzipUnlabelled === false ? undefined : transport.gzipUnlabelled
    if (unlabelledOver !== undefined && bytes.byteLength > unlabelledOver && /\bgzip\b/i.test(acceptEncoding ?? '')) bytes = gzipSync(bytes)
    if (transport.forceCoding) {
      bytes = COMPRESSORS[transport.forceCoding](bytes)
      headers['content-encoding'] = LABELS[transport.forceCoding]
    }
    if (transport.gzipTransferCoding) {
      bytes = gzipSync(bytes)
      headers['transfer-encoding'] = 'gzip, chunked' // node:http writes chunks when the header names chunked
    }
    if (transport.connectionClose) headers.connection = 'close'
    if (transport.closeDelimited) res.useChunkedEncodingByDefault = false
    else if (!transport.chunked && !transport.gzipTransferCoding) headers['content-length'] = String(bytes.byteLength)
    if (transport.earlyHints) res.writeEarlyHints({ link: '</v1/categories>; rel=preload; as=fetch' })
    res.writeHead(reply.status, headers)
    if (transport.bytesPerSecond !== undefined) {
      paced(res, bytes, transport.bytesPerSecond)
    } else if (transport.chunked && bytes.byteLength > 1) {
      // two chunks, split inside the first multi-byte UTF-8 sequence when there is one: a client
      // must decode the body as a whole, not chunk by chunk
      const multiByte = bytes.findIndex((byte) => byte >= 0xc0)
      const at = multiByte >= 0 ? multiByte + 1 : Math.floor(bytes.byteLength / 2)
      res.write(bytes.subarray(0, at))
      res.end(bytes.subarray(at))
    } else {
      res.end(bytes)
    }
    if (corked) res.socket?.uncork()
  }
  const hadBody = Number(res.req.headers['content-length'] ?? 0) > 0 || res.req.headers['transfer-encoding'] !== undefined
  let continued = false
  let corked = false
  const delayMs = transport.delayMs + (res.req.method === 'GET' ? (transport.listDelayMs ?? 0) : 0) + (reply.laterMs ?? 0)
  if (delayMs > 0) setTimeout(write, delayMs)
  else write()
}

/**
 * Writes `bytes` at `perSecond`, a tenth of it at once and the rest every 100 ms, as a gateway that
 * limits each answer's bandwidth does. A timer that fires late (a loaded machine) writes what the
 * rate allowed meanwhile: a tenth a turn fell to 28 KiB/s with the event loop busy 400 ms at a time
 * (runs side by side in one process), below the rate the variant claims, and it failed on timeouts
 * (test/server/bandwidth-limit.test.ts).
 */
function paced(res: ServerResponse, bytes: Buffer, perSecond: number): void {
  const slice = Math.max(1, Math.floor(perSecond / 10))
  const started = performance.now()
  let at = 0
  const next = () => {
    if (res.destroyed) return
    const allowed = slice + Math.floor((perSecond * (performance.now() - started)) / 1000)
    const piece = bytes.subarray(at, Math.max(at + 1, allowed))
    at += piece.byteLength
    if (at >= bytes.byteLength) return void res.end(piece)
    res.write(piece)
    setTimeout(next, 100)
  }
  next()
}
