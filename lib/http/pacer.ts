/**
 * --rate-limit: the starts of requests spaced evenly, at most N a second, so that a run stays
 * inside a gateway's plan instead of meeting its 429s (rate limits are not shown, §8, but a
 * production deployment has one). Every attempt takes a turn, resends after a 429 included.
 */
export class Pacer {
  private previous: Promise<void> = Promise.resolve()
  private lastStartAt = Number.NEGATIVE_INFINITY

  /** `perSecond` undefined: no pacing. */
  constructor(private readonly perSecond: number | undefined) {}

  /**
   * Resolves when the next request may start, in the order turns are asked for. Each turn is
   * measured from when the one before it was given, not from a schedule: after a pause of the
   * event loop the turns do not catch up in a burst.
   */
  turn(): Promise<void> {
    if (this.perSecond === undefined) return Promise.resolve()
    const interval = 1000 / this.perSecond
    const mine = this.previous.then(async () => {
      const wait = this.lastStartAt + interval - Date.now()
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      this.lastStartAt = Date.now()
    })
    this.previous = mine
    return mine
  }
}
