/**
 * A server that serves one connection at a time: a single-threaded process that reads a kept-alive
 * connection until the client closes it (Python's http.server HTTPServer with HTTP/1.1, the
 * default of many hand-written services). Requests written on the client's other connections wait
 * unread meanwhile, and once the connection it reads is idle the server answers nothing at all.
 * That is a conforming server (the document shows no concurrency), and a client with 48
 * connections failed it on timeouts: it now goes on with one connection
 * (lib/http/connection-pools.ts), as --concurrency 1 would from the start.
 *
 * Told by the requests' order: the oldest request still unanswered was written WAIT_MS ago or
 * more (and four times as long ago as answers typically take), and at least OVERTAKEN requests
 * written after it got their answers first. A server that serves connections side by side answers
 * in about the order it is asked: one that takes 1.1 s for each, answering the suite's requests in
 * waves of 48, is not taken for one at a time (it was, by answers counted since the write, from
 * the wave before). A request counts as answered when its status line comes: a list whose body
 * takes seconds to arrive (a gateway's bandwidth limit) is being answered, not left unread.
 *
 * And a request of its own operation written after it was answered in a quarter of the time it
 * has waited, or less: a server whose lists alone are slow (1.5 s each, the creates at once)
 * answers its later lists no faster than the oldest, and was taken for one at a time on the
 * overtaking creates alone (its note said so, wrongly). On a server that serves one connection at
 * a time, the lists and creates written on the connection it reads are answered at once.
 *
 * And another request besides the oldest left unanswered half as long: such a server leaves every
 * connection but the one it reads unread, and the run's bursts have requests on several. One slow
 * request alone (a first create of 2 s while the service answered 84 others at once, side by side)
 * was taken for one at a time: the run went on with one connection, its note saying so wrongly.
 */

/** How long the oldest unanswered request has waited, at least, and at least this many times as long as answers take. */
export const WAIT_MS = 1_000
export const WAIT_TIMES_TYPICAL = 4
/** How many requests written after it got their answers first, at least. */
export const OVERTAKEN = 16

/** One request written to a connection, until it ends. */
export interface Written {
  readonly at: number
  /** Its operation (`GET /categories`, `POST /categories without the key` …): the slowness of an operation is not a connection's. */
  readonly operation: string
  ended: boolean
  answered: boolean
  /** How long its answer took, once answered. */
  tookMs?: number
}

export class ConnectionTurns {
  /** Written requests in the order they were written; the ended ones at the head are dropped as they are passed. */
  private written: Written[] = []
  private head = 0
  /** Of the requests written after the oldest unanswered one (written[head]), how many were answered. */
  private overtaking = 0
  /** Of those, the quickest answer of one of its own operation, in ms (Infinity: none). */
  private sameOperationMs = Infinity
  /** How long answers take, in ms (a moving average): a server that answers each in a second is slow, not serial. */
  private typicalMs = 0

  /** A request's head was written to a connection now. */
  wrote(now = performance.now(), operation = ''): Written {
    const written: Written = { at: now, operation, ended: false, answered: false }
    this.written.push(written)
    return written
  }

  /** The request ended: `answered`, its status line came (else it failed). */
  ended(written: Written, answered: boolean, now = performance.now()): void {
    if (written.ended) return
    written.ended = true
    written.answered = answered
    if (!answered) return
    written.tookMs = now - written.at
    this.typicalMs = this.typicalMs === 0 ? written.tookMs : 0.8 * this.typicalMs + 0.2 * written.tookMs
    const oldest = this.written[this.head]
    // one written after the oldest still unanswered overtook it
    if (oldest !== undefined && oldest !== written && !oldest.ended && written.at >= oldest.at) this.overtake(oldest, written)
  }

  private overtake(oldest: Written, written: Written): void {
    this.overtaking++
    if (written.operation === oldest.operation) this.sameOperationMs = Math.min(this.sameOperationMs, written.tookMs as number)
  }

  /** Whether the server looks like it serves one connection at a time (above). */
  oneAtATime(now = performance.now()): boolean {
    const oldest = this.oldestUnanswered()
    if (oldest === undefined) return false
    const waited = now - oldest.at
    return waited >= this.waitMs() && this.overtaking >= OVERTAKEN && this.sameOperationMs * WAIT_TIMES_TYPICAL <= waited && this.anotherUnread(now)
  }

  /** Whether a request besides the oldest unanswered one has waited half as long as the oldest must, unanswered. */
  private anotherUnread(now: number): boolean {
    for (let i = this.head + 1; i < this.written.length; i++) {
      const written = this.written[i] as Written
      if (now - written.at < this.waitMs() / 2) return false
      if (!written.ended) return true
    }
    return false
  }

  /**
   * When to look again, in ms from now: when the oldest request still unanswered will have waited
   * long enough. Undefined while none is in flight, or once it has waited that long: then only a
   * further answer can change what oneAtATime says.
   */
  nextLookIn(now = performance.now()): number | undefined {
    const oldest = this.oldestUnanswered()
    if (oldest === undefined) return undefined
    // a quick answer of its operation tells once the oldest has waited four times as long
    const wait = oldest.at + Math.max(this.waitMs(), Number.isFinite(this.sameOperationMs) ? WAIT_TIMES_TYPICAL * this.sameOperationMs : 0) - now
    return wait > 0 ? Math.ceil(wait) : undefined
  }

  private waitMs(): number {
    return Math.max(WAIT_MS, WAIT_TIMES_TYPICAL * this.typicalMs)
  }

  private oldestUnanswered(): Written | undefined {
    const from = this.head
    while (this.head < this.written.length && (this.written[this.head] as Written).ended) this.head++
    if (this.head !== from) {
      // a new oldest: count again which of those written after it were answered
      this.overtaking = 0
      this.sameOperationMs = Infinity
      const oldest = this.written[this.head]
      for (let i = this.head + 1; oldest !== undefined && i < this.written.length; i++) if ((this.written[i] as Written).answered) this.overtake(oldest, this.written[i] as Written)
    }
    if (this.head > 64 && this.head * 2 > this.written.length) {
      this.written = this.written.slice(this.head)
      this.head = 0
    }
    return this.written[this.head]
  }
}
