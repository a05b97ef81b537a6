/**
 * When a request on the wire has waited past --timeout. The clock runs from when the request is
 * written or from the server's latest answer to any request, whichever is later: a server that
 * answers one request at a time (a gunicorn sync worker, a single-threaded PHP or Node process
 * behind a queue) holds the suite's requests at its door, and while it keeps answering them it is
 * working, not hanging. With 32 requests in flight and 100 ms each, the last one waits 3.2 s
 * before the server reads it; a clock that ran from the write alone failed such a server on a
 * loaded machine (CI, stop 25). A request times out once the server has served nothing, to it
 * or to any other, for --timeout. A 429 or 503 is no sign of work (a limiter answers it at once,
 * whatever the server behind it does), so it does not hold the clock back.
 *
 * A body still arriving is the server at work too: a list of 30,000 categories (2 MB) through a
 * gateway that sends answers at 100 KiB/s (Apache's mod_ratelimit), or over a slow link, takes 20 s
 * to come, and slow answers are a freedom. Every BODY_PROGRESS_BYTES of body that come, of any
 * answer but a 429 or 503 (a limiter's page is no more a sign of work than its status line), hold
 * the clock back as an answer does; a body that brings less than that within --timeout (a drip of
 * a byte at a time) still times out, and the run's --deadline bounds the rest.
 *
 * A request written while an earlier one waited, with nothing served since, waits behind it: a
 * server that answers one request at a time and hangs on one (wsgiref, which reads a chunked body
 * until the connection closes) answers the others once the client gives that one up. They wait
 * BEHIND_MS more after it expires, for the server to answer again, instead of expiring with it
 * and each failing its own checks as "no answer" (measured: a 65 KB create failed four rules
 * behind wsgiref's hung chunked one). Only a request that expired on its own clock holds the
 * others: on a server that hangs on everything, the rest expire BEHIND_MS after the first, not one
 * after another.
 */
import { isLoopbackHost } from '../config/url-hints.ts'

/**
 * A clock run out is looked at once more after Node's poll for input (setImmediate), before the
 * request expires. Timers run before that poll in each turn of the event loop: on a loaded machine
 * (CI on shared cores, runs side by side in one process) a turn comes late, and the answers and
 * body bytes that came meanwhile wait in the sockets, unread, when the timer fires. Read first,
 * they hold the clock back as they would have on time; a server that sent nothing still expires,
 * one turn later. In the kill matrix under load (three runs and their servers in one process),
 * answers-at-a-bandwidth-limit, a conforming list that takes 2.5 s, failed 10 rules on "the 200
 * response's body did not end within 800 ms" while its bytes were there to read.
 */
export type AfterPoll = (look: () => void) => () => void
/** setImmediate: `look` runs after this turn's poll for input; returns what cancels it. */
export const afterPoll: AfterPoll = (look) => {
  const immediate = setImmediate(look)
  return () => clearImmediate(immediate)
}

/** How long a request written behind one that expired waits more, for the server to answer again. */
export const BEHIND_MS = 1_000
/** Body bytes that show the server at work: 16 KiB per --timeout, 1.6 KB/s at the default 10 s. */
export const BODY_PROGRESS_BYTES = 16 * 1024

/** Whether an answer `status` shows the server at work: a 429 or 503 does not (lib/http/retry-after.ts). */
export const served = (status: number) => status !== 429 && status !== 503

export class AnswerClock {
  private lastAnswerAt = Number.NEGATIVE_INFINITY
  /** When the latest-written request the server has answered was written. */
  private lastAnsweredWrite = Number.NEGATIVE_INFINITY
  /** When the server last served a request: an answer other than 429 or 503 (lib/http/retry-after.ts). */
  private lastServedAt = Number.NEGATIVE_INFINITY
  /** Body bytes read so far, of every answer served, and how many of them had come at the latest mark of progress, and when. */
  private bodyBytes = 0
  private progressBytes = 0
  private lastProgressAt = Number.NEGATIVE_INFINITY

  /** When each request on the wire that is not yet answered nor expired was written. */
  private readonly waiting = new Set<{ writtenAt: number }>()
  /** The latest request that expired on its own clock (not behind another): when it was written and when it expired. */
  private lastExpiry = { writtenAt: Number.POSITIVE_INFINITY, at: Number.NEGATIVE_INFINITY }

  /** Whether the server has answered a request in HTTP/1.0. */
  answeredInHttp10 = false
  private heardFirst: () => void = () => undefined
  /** Resolves at the server's first answer, whatever its status. */
  readonly firstAnswer = new Promise<void>((resolve) => (this.heardFirst = resolve))

  constructor(
    private readonly timeoutMs: number,
    private readonly lookAfterPoll: AfterPoll = afterPoll,
  ) {}

  /** Whether the server has answered any request yet, whatever its status. */
  get answeredAny(): boolean {
    return this.lastAnswerAt !== Number.NEGATIVE_INFINITY
  }

  /** The server answered a request `status` (in HTTP/1.0: `http10`; written at `writtenAt`): its status line, or the end of its body, came. */
  answered(status: number, http10 = false, writtenAt?: number): void {
    this.lastAnswerAt = performance.now()
    if (writtenAt !== undefined && writtenAt > this.lastAnsweredWrite) this.lastAnsweredWrite = writtenAt
    if (http10) this.answeredInHttp10 = true
    this.heardFirst()
    if (served(status)) this.lastServedAt = this.lastAnswerAt
  }

  /** What hears each piece of the body of an answer `status` as it comes (received): none for a 429 or 503. */
  bodyListener(status: number): ((bytes: number) => void) | undefined {
    return served(status) ? this.receive : undefined
  }

  /** received, bound once (not once per body). */
  private readonly receive = (bytes: number): void => this.received(bytes)

  /** `bytes` more of an answer's body came: each BODY_PROGRESS_BYTES of them hold the clock back as an answer does. */
  received(bytes: number): void {
    this.bodyBytes += bytes
    if (this.bodyBytes - this.progressBytes < BODY_PROGRESS_BYTES) return
    this.progressBytes = this.bodyBytes
    this.lastProgressAt = performance.now()
  }

  /** Whether the server has answered any request, whatever its status, since `at` (performance.now()). */
  answeredSince(at: number): boolean {
    return this.lastAnswerAt > at
  }

  /**
   * Whether the server has answered a request written to the wire after `at` (performance.now()): it has read
   * its connections since, and so the bytes of any request written before then. An answer that merely came
   * since may be to a request written earlier, while one written at `at` still waited to be read: under
   * load, a create's first piece was read 20 to 170 ms after it went, with its second (one read, the fault of
   * mutation body-pieces-decoded-apart missed 3 runs in 6 with checks one at a time).
   */
  answeredWrittenSince(at: number): boolean {
    return this.lastAnsweredWrite > at
  }

  /**
   * Whether the server has surely read what was written to it at `at`, as far as the answers tell
   * (a create's first piece, lib/http/body-pieces.ts). On loopback, an answer to a request written
   * since (answeredWrittenSince): the server shares the machine with the suite, and reads late
   * under its load; that answer costs no time there. Past loopback, an answer since: the server is
   * not loaded by the suite, and waiting for a request written later costs a round trip on the
   * run's longest path (120 ms more a run, 0.90 s to 1.03 s, against a server 120 ms away).
   */
  readSince(at: number, origin: string): boolean {
    return isLoopbackHost(new URL(origin).hostname) ? this.answeredWrittenSince(at) : this.answeredSince(at)
  }

  /** Whether the server has served a request (not answered it 429 or 503) since `at` (performance.now()). */
  servedSince(at: number): boolean {
    return this.lastServedAt > at
  }

  /**
   * Starts the clock of a request written now: `expire` is called once the server has served
   * nothing, and sent no BODY_PROGRESS_BYTES of a body, for --timeout since then. Returns the
   * function that stops it.
   */
  start(expire: () => void): () => void {
    const writtenAt = performance.now()
    const entry = { writtenAt }
    this.waiting.add(entry)
    let timer: NodeJS.Timeout | undefined
    let looked = false // once more after the poll for input, since the clock ran out (AfterPoll)
    let cancelLook: (() => void) | undefined
    const check = (): void => {
      const now = performance.now()
      // written before the latest request that expired on its own clock, and waiting when it did: behind it
      const behind = this.lastExpiry.writtenAt < writtenAt && this.lastExpiry.at >= writtenAt
      const due = Math.max(Math.max(writtenAt, this.lastServedAt, this.lastProgressAt) + this.timeoutMs, behind ? this.lastExpiry.at + Math.min(BEHIND_MS, this.timeoutMs) : Number.NEGATIVE_INFINITY)
      const left = due - now
      // one written before it, with nothing served since, expires first (a timer may fire a moment out of order)
      const ahead = [...this.waiting].some((other) => other.writtenAt < writtenAt)
      if (left > 0 || (ahead && !behind)) return void ((looked = false), (timer = setTimeout(check, Math.max(1, Math.ceil(left)))))
      if (!looked) return void ((looked = true), (cancelLook = this.lookAfterPoll(check)))
      this.waiting.delete(entry)
      if (!behind) this.lastExpiry = { writtenAt, at: now }
      expire()
    }
    timer = setTimeout(check, this.timeoutMs)
    return () => {
      this.waiting.delete(entry)
      clearTimeout(timer)
      cancelLook?.()
    }
  }
}
