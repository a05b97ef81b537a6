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
 * the wave before). One request slower than the rest by seconds (a create that waits for a lock
 * while lists are answered) is taken for the same, and costs the run its concurrency, never a verdict.
 */

/** How long the oldest unanswered request has waited, at least, and at least this many times as long as answers take. */
export const WAIT_MS = 1_000
export const WAIT_TIMES_TYPICAL = 4
/** How many requests written after it got their answers first, at least. */
export const OVERTAKEN = 16

/** One request written to a connection, until it ends. */
export interface Written {
  readonly at: number
  ended: boolean
  answered: boolean
}

export class ConnectionTurns {
  /** Written requests in the order they were written; the ended ones at the head are dropped as they are passed. */
  private written: Written[] = []
  private head = 0
  /** Of the requests written after the oldest unanswered one (written[head]), how many were answered. */
  private overtaking = 0
  /** How long answers take, in ms (a moving average): a server that answers each in a second is slow, not serial. */
  private typicalMs = 0

  /** A request's head was written to a connection now. */
  wrote(now = performance.now()): Written {
    const written: Written = { at: now, ended: false, answered: false }
    this.written.push(written)
    return written
  }

  /** The request ended: `answered`, its status line came (else it failed). */
  ended(written: Written, answered: boolean, now = performance.now()): void {
    if (written.ended) return
    written.ended = true
    written.answered = answered
    if (!answered) return
    this.typicalMs = this.typicalMs === 0 ? now - written.at : 0.8 * this.typicalMs + 0.2 * (now - written.at)
    const oldest = this.written[this.head]
    // one written after the oldest still unanswered overtook it
    if (oldest !== undefined && oldest !== written && !oldest.ended && written.at >= oldest.at) this.overtaking++
  }

  /** Whether the server looks like it serves one connection at a time (above). */
  oneAtATime(now = performance.now()): boolean {
    const oldest = this.oldestUnanswered()
    return oldest !== undefined && now - oldest.at >= this.waitMs() && this.overtaking >= OVERTAKEN
  }

  /**
   * When to look again, in ms from now: when the oldest request still unanswered will have waited
   * long enough. Undefined while none is in flight, or once it has waited that long: then only a
   * further answer can change what oneAtATime says.
   */
  nextLookIn(now = performance.now()): number | undefined {
    const oldest = this.oldestUnanswered()
    const wait = oldest === undefined ? undefined : oldest.at + this.waitMs() - now
    return wait !== undefined && wait > 0 ? Math.ceil(wait) : undefined
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
      for (let i = this.head + 1; i < this.written.length; i++) if ((this.written[i] as Written).answered) this.overtaking++
    }
    if (this.head > 64 && this.head * 2 > this.written.length) {
      this.written = this.written.slice(this.head)
      this.head = 0
    }
    return this.written[this.head]
  }
}
