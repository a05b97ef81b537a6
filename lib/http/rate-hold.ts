/**
 * A 429 with a Retry-After holds the client back: after one, no request is sent before its
 * Retry-After has passed (at most RATE_HOLD_MAX_MS), the requests that were not refused included;
 * the refused one waits its own wait as well (lib/http/retry-after.ts). A 429 says the client sent
 * too many in a given time (RFC 6585 §4), and most limiters count a client's requests together
 * (per key or per address: an API gateway's usage plan, nginx's limit_req zone, HAProxy's stick
 * table). A client whose refused requests each came back on their own clock, while the others kept
 * going, kept a limiter that counts the requests it refuses full for ever: 11,465 requests in 120 s
 * and no verdict against a helper's HAProxy (40 in any 2 s, Retry-After: 1); held back, and longer
 * when a hold let none through, 697 requests and a verdict in 22 s. At most 5 s for the others: a
 * limit of one operation's own with a long Retry-After holds the rest no longer. A 503 holds
 * nothing: a replica busy for one request says nothing of the others.
 */
import { retryAfterMs, serverNow } from './retry-after.ts'

export const RATE_HOLD_MAX_MS = 5_000

export class RateHold {
  /** When the client may send again (epoch ms). */
  private until = 0
  /** How long the last hold was. */
  private length = 0
  /** A request sent after the last hold ended was answered, not refused: the hold was long enough. */
  private servedSinceHold = false
  /** The run ended while requests were held: the 429s outlasted it. */
  heldAtTheEnd = false

  /** `stop`: the run's end, after which no request waits. */
  constructor(private readonly stop: AbortSignal) {}

  /**
   * An answer to a request sent at `releasedAt` (what wait() returned). A 429 that will be sent
   * again (`asked`: its own wait) holds every request back for the time its `retryAfter` asks (at
   * most RATE_HOLD_MAX_MS), and it returns how long the hold has left. When the 429s came back
   * within a hold's length of its end with none of the requests sent after it answered, the hold
   * was too short (a limiter whose window is longer than its Retry-After: HAProxy's
   * http_req_rate(2s) with Retry-After: 1), and this one is twice as long. Any other answer
   * returns 0.
   */
  answered(status: number, releasedAt: number, asked: number | undefined, retryAfter?: string, date?: string): number {
    const now = Date.now()
    if (status !== 429) {
      if (releasedAt >= this.until) this.servedSinceHold = true
      return 0
    }
    // without a Retry-After the resends keep their own waits, drawn apart (lib/http/retry-after.ts):
    // nginx's limit_req (no Retry-After, a leaky bucket) lets a few through at a time, and a run
    // whose requests a hold released together took 30 s where spread out they took 10 s
    const timed = asked === undefined ? undefined : retryAfterMs(retryAfter, serverNow(date, now))
    if (timed === undefined) return 0
    const wanted = Math.min(timed, RATE_HOLD_MAX_MS)
    if (now < this.until) {
      // held already: a request that was in flight when the hold began
      this.until = Math.max(this.until, now + wanted)
    } else {
      const tooShort = this.until > 0 && !this.servedSinceHold && now - this.until < this.length
      this.length = tooShort ? Math.min(Math.max(wanted, 2 * this.length), RATE_HOLD_MAX_MS) : wanted
      this.until = now + this.length
      this.servedSinceHold = false
    }
    return this.until - now
  }

  /** Resolves when a request may be sent (at once unless the client is held, or once the run has ended), with the time it was. */
  async wait(): Promise<number> {
    // a loop: another 429 may move the hold on while this one waits
    for (;;) {
      const now = Date.now()
      if (this.until <= now) return now
      if (this.stop.aborted) {
        this.heldAtTheEnd = true
        return now
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer)
          this.stop.removeEventListener('abort', done)
          resolve()
        }
        const timer = setTimeout(done, this.until - now)
        this.stop.addEventListener('abort', done, { once: true })
      })
    }
  }
}
