/**
 * --rate-limit: the starts of requests spaced evenly, at most N a second, so that a run stays
 * inside a gateway's plan instead of meeting its 429s (rate limits are not shown, §8, but a
 * production deployment has one). Every attempt takes a turn, resends after a 429 included.
 */
export class Pacer {
  private previous: Promise<void> = Promise.resolve()
  private lastStartAt = Number.NEGATIVE_INFINITY
  /** Settles when `stop` aborts: one listener for every turn. */
  private readonly stopped: Promise<void> | undefined

  /** `perSecond` undefined: no pacing. `stop`: the run's deadline, after which no turn is waited for. */
  constructor(
    private readonly perSecond: number | undefined,
    private readonly stop?: AbortSignal,
  ) {
    if (perSecond !== undefined && stop) this.stopped = new Promise((resolve) => stop.addEventListener('abort', () => resolve(), { once: true }))
  }

  /**
   * Resolves when the next request may start, in the order turns are asked for. Each turn is
   * measured from when the one before it was given, not from a schedule: after a pause of the
   * event loop the turns do not catch up in a burst. Once `stop` (the run's deadline) is aborted,
   * every turn resolves at once: the requests still queued are refused then, not one per turn.
   */
  turn(): Promise<void> {
    const stop = this.stop
    if (this.perSecond === undefined || stop?.aborted) return Promise.resolve()
    const interval = 1000 / this.perSecond
    const mine = this.previous.then(async () => {
      const wait = this.lastStartAt + interval - Date.now()
      if (wait > 0 && !stop?.aborted) await new Promise((resolve) => setTimeout(resolve, wait).unref())
      this.lastStartAt = Date.now()
    })
    this.previous = mine
    return this.stopped ? Promise.race([mine, this.stopped]) : mine
  }
}
