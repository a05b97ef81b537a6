/**
 * A request body sent in two pieces, the second after a pause, split inside a character: what any
 * network does to a body longer than a segment, and what a loopback run never does on its own (a
 * body of a few hundred bytes arrives in one read). A service that decodes each piece it reads on
 * its own (Node's `body += chunk`, each Buffer turned into a string apart) cuts the character in
 * two, and stores two U+FFFD in its place: §4.2 rule 2 asks the record to carry every field sent.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { Readable } from 'node:stream'

/**
 * How long the second piece waits at least, and at most. Between the two, it waits until the
 * server has surely read the first piece (AnswerClock.readSince; on loopback, it answered a request written after it, a 429 too): a server busy elsewhere (a loaded
 * machine, a process shared with the suite) reads the first piece late, and would then find the
 * second beside it in one read. An event loop that answered a request written after the first piece
 * has polled its connections since, this one's too; one that answered a request written before may
 * not have (under load, the first piece was read 20 to 170 ms after it went, other answers coming
 * meanwhile: checks one at a time missed the fault 3 runs in 6, lib/http/answer-clock.ts). The least wait is short: the answers of the
 * run's other POSTs, in flight beside it, are that sign (100 ms made the create that goes in pieces
 * the last POST a local run waited for, 85 ms past the others; 20 ms, about as late as they).
 */
export const PIECE_PAUSE_MS = 20
export const PIECE_WAIT_MAX_MS = 400
const PIECE_POLL_MS = 10

/** The byte offset just after the lead byte of the first character of `text` that takes more than one byte in UTF-8; undefined when none does. */
export function insideFirstWideCharacter(text: string): number | undefined {
  let bytes = 0
  for (const character of text) {
    const width = Buffer.byteLength(character)
    if (width > 1) return bytes + 1
    bytes += width
  }
  return undefined
}

/**
 * The body's bytes as a stream of two pieces: `at` bytes, then the rest once PIECE_PAUSE_MS have
 * passed since the first was taken (written to the connection) and the server has answered a
 * request written since (`answeredSince`), or PIECE_WAIT_MAX_MS have. Taken, not made: a stream that read
 * ahead would have both waiting by the time a busy client starts the body, which then go out together.
 */
export function inPieces(bytes: Uint8Array, at: number, answeredSince: (at: number) => boolean = () => true): Readable {
  let taken = 0
  let timer: NodeJS.Timeout | undefined
  let immediate: NodeJS.Immediate | undefined
  let written: NodeJS.Immediate | undefined
  return new Readable({
    highWaterMark: 0,
    read() {
      if (taken++ === 0) return void this.push(bytes.subarray(0, at))
      if (taken !== 2) return
      const firstWent = performance.now()
      // an answer counts once the loop has polled its connections after the first piece went: one
      // the client read in the same pass (a run in the server's process) says nothing of its read,
      // and a pass busy past the pause then wrote both before the server read either
      let polled: number | undefined
      immediate = setImmediate(() => (polled = performance.now()))
      const rest = () => {
        const waited = performance.now() - firstWent
        if (waited < PIECE_WAIT_MAX_MS && (polled === undefined || !answeredSince(polled))) return void (timer = setTimeout(rest, PIECE_POLL_MS))
        // after the loop's next poll of its connections: an answer that came meanwhile is read before the rest goes, so
        // one given on the first piece is seen as given before the body was written whole (timers run before the poll; early13)
        written = setImmediate(() => (this.push(bytes.subarray(at)), this.push(null)))
      }
      timer = setTimeout(rest, PIECE_PAUSE_MS)
    },
    destroy(error, callback) {
      clearTimeout(timer)
      clearImmediate(immediate)
      clearImmediate(written)
      callback(error)
    },
  })
}

/**
 * What undici is handed for a request's body: as given; in pieces (`splitAt`) with its
 * Content-Length, since undici sends a body it iterates with chunked coding otherwise, which some
 * servers do not read (Python's http.server); or in two chunks (`chunked`), cut in its middle,
 * which undici sends with Transfer-Encoding: chunked, each piece a chunk (a client that streams its body).
 */
export function piecesOf(options: { body?: string | Uint8Array; splitAt?: number; chunked?: boolean }, headers: Record<string, string>, answeredSince?: (at: number) => boolean): { headers: Record<string, string>; body?: string | Uint8Array | Readable } {
  if (options.body === undefined) return { headers }
  const bytes = () => (typeof options.body === 'string' ? Buffer.from(options.body) : Buffer.from(options.body as Uint8Array))
  // made anew for each attempt: a stream is read once
  if (options.chunked) return { headers, body: Readable.from(halves(bytes()), { objectMode: false }) }
  if (options.splitAt === undefined) return { headers, body: options.body }
  const whole = bytes()
  return { headers: { ...headers, 'content-length': String(whole.byteLength) }, body: inPieces(whole, options.splitAt, answeredSince) }
}

function* halves(bytes: Buffer): Generator<Buffer> {
  const middle = Math.floor(bytes.length / 2)
  yield bytes.subarray(0, middle)
  yield bytes.subarray(middle)
}

/** The longest a body to go in chunks waits for the server's first answer (chunksOnlyToHttp11). */
const FIRST_ANSWER_WAIT_MS = 1_000

/**
 * A body to go in chunks goes so only to a server known to handle HTTP/1.1 (RFC 9112 §6.1: "by
 * remembering the version of a prior received response"): it waits for the server's first answer
 * (at most `waitMs`, or 1 s: a server that refuses every connection answers none, and the run
 * need not wait a --timeout for it), and goes whole, with its Content-Length, to one that answers in HTTP/1.0.
 * wsgiref answers in HTTP/1.0 and does not decode chunks: a WSGI app's wsgi.input.read() read the
 * chunked create until the connection closed, and it failed four rules as "no answer".
 */
export async function chunksOnlyToHttp11<T extends { chunked?: boolean; body?: unknown }>(
  options: T,
  server: { readonly answeredAny: boolean; readonly answeredInHttp10: boolean; readonly firstAnswer: Promise<void> },
  waitMs: number,
  runEnd?: AbortSignal,
): Promise<T> {
  if (!options.chunked || options.body === undefined) return options
  // the run's end (its deadline, a signal) ends the wait too
  if (!server.answeredAny) await Promise.race([server.firstAnswer, sleep(Math.min(waitMs, FIRST_ANSWER_WAIT_MS), undefined, { ref: false, signal: runEnd }).catch(() => undefined)])
  return server.answeredInHttp10 ? { ...options, chunked: false } : options
}
