/**
 * A 429 holds the client back: after one, no request is sent before the wait the answer asked for
 * (or the client's own, lib/http/retry-after.ts) has passed, at most RATE_HOLD_MAX_MS, the requests
 * that were not refused included. A 429 says the client sent too many in a given time (RFC 6585
 * §4), and most limiters count a client's requests together (per key or per address: an API
 * gateway's usage plan, nginx's limit_req zone, HAProxy's stick table). A client whose refused
 * requests each came back on their own clock, while the others kept going, kept a limiter that
 * counts the requests it refuses full for ever: 11,601 requests in 120 s and no verdict against
 * HAProxy's stick table at 30 a second (408 requests and 6 s, held back). At most 5 s for the
 * others: a limit of one operation's own with a long Retry-After holds the rest no longer. A 503
 * holds nothing: a replica busy for one request says nothing of the others.
 */
export const RATE_HOLD_MAX_MS = 5_000

export class RateHold {
  /** When the client may send again (epoch ms). */
  private until = 0

  /** `stop`: the run's end, after which no request waits. */
  constructor(private readonly stop: AbortSignal) {}

  /** A 429 asked for `ms`: no request goes for the next `ms` (at most RATE_HOLD_MAX_MS). */
  hold(ms: number): void {
    this.until = Math.max(this.until, Date.now() + Math.min(ms, RATE_HOLD_MAX_MS))
  }

  /** Resolves when a request may be sent: at once unless the client is held, or once the run has ended. */
  async wait(): Promise<void> {
    // a loop: another 429 may move the hold on while this one waits
    for (;;) {
      const left = this.until - Date.now()
      if (left <= 0 || this.stop.aborted) return
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer)
          this.stop.removeEventListener('abort', done)
          resolve()
        }
        const timer = setTimeout(done, left)
        this.stop.addEventListener('abort', done, { once: true })
      })
    }
  }
}
