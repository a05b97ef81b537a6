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
 * more, and at least OVERTAKEN requests got their answers since. A server that serves connections
 * side by side answers in about the order it is asked; one request slower than the rest by a
 * second (a create that waits for a lock while lists are answered) is taken for the same and costs
 * the run its concurrency, never a verdict.
 */

/** How long the oldest unanswered request has waited, at least. */
export const WAIT_MS = 1_000
/** How many requests written after it got their answers first, at least. */
export const OVERTAKEN = 16

/** One request written to a connection, until it ends. */
export interface Written {
  readonly at: number
  readonly answersBefore: number
  ended: boolean
}

export class ConnectionTurns {
  private answers = 0
  /** Written requests in the order they were written; the ended ones at the head are dropped as they are passed. */
  private written: Written[] = []
  private head = 0

  /** A request's head was written to a connection now. */
  wrote(now = performance.now()): Written {
    const written: Written = { at: now, answersBefore: this.answers, ended: false }
    this.written.push(written)
    return written
  }

  /** The request ended: `answered`, its status line came (else it failed). */
  ended(written: Written, answered: boolean): void {
    if (written.ended) return
    written.ended = true
    if (answered) this.answers++
  }

  /** Whether the server looks like it serves one connection at a time (above). */
  oneAtATime(now = performance.now()): boolean {
    const oldest = this.oldestUnanswered()
    return oldest !== undefined && now - oldest.at >= WAIT_MS && this.answers - oldest.answersBefore >= OVERTAKEN
  }

  /**
   * When to look again, in ms from now: when the oldest request still unanswered will have waited
   * WAIT_MS. Undefined while none is in flight, or once it has waited that long: then only a
   * further answer can change what oneAtATime says.
   */
  nextLookIn(now = performance.now()): number | undefined {
    const oldest = this.oldestUnanswered()
    const wait = oldest === undefined ? undefined : oldest.at + WAIT_MS - now
    return wait !== undefined && wait > 0 ? Math.ceil(wait) : undefined
  }

  private oldestUnanswered(): Written | undefined {
    while (this.head < this.written.length && (this.written[this.head] as Written).ended) this.head++
    if (this.head > 64 && this.head * 2 > this.written.length) {
      this.written = this.written.slice(this.head)
      this.head = 0
    }
    return this.written[this.head]
  }
}
