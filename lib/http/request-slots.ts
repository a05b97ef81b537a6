/**
 * How many requests are in flight at once (--concurrency), and which goes next. The suite starts
 * most of its requests at once; a few depend on answers (a name sent again after its first create,
 * the list after the creates), and each of those is a round trip on the run's critical path. Were
 * they queued behind the hundred independent probes, a far-away server would cost a round trip per
 * hundred-divided-by-concurrency requests before each; as critical requests, they go out as soon as
 * a slot frees, and the independent probes fill the slots around them.
 */
export type Release = () => void

/**
 * Where a request stands in the run's chain of answers: 'gates', another request waits for its
 * answer before it is sent; 'critical', the list after every POST waits for it; 'other', nothing does.
 */
export type RequestPriority = 'gates' | 'critical' | 'other'

interface Waiter {
  grant: (release: Release) => void
  signal: AbortSignal
  onAbort: () => void
}

export class RequestSlots {
  private inFlight = 0
  private readonly gates: Waiter[] = []
  private readonly critical: Waiter[] = []
  private readonly other: Waiter[] = []

  private drainScheduled = false

  constructor(private size: number) {}

  /** How many requests may be in flight at once now. */
  get limit(): number {
    return this.size
  }

  /**
   * Halves how many requests go at once (at least one): the server reset connections past a number
   * of its own (lib/http/client.ts). Those in flight finish; no new one is granted until fewer are.
   */
  narrow(): number {
    this.size = Math.max(1, Math.floor(this.size / 2))
    return this.size
  }

  /**
   * Resolves with a release once a slot is free; rejects with the signal's reason if it aborts first.
   * Never at once: the requests the checks start in one turn of the event loop are queued first,
   * then granted by priority (the checks reach their requests through more or fewer awaits,
   * which would otherwise decide the order): first the requests whose answers other requests wait
   * for before they are sent ('gates': the first create of a name sent again), then the rest of
   * the critical path ('critical': every POST, which the list after them waits for), then the others.
   */
  acquire(priority: RequestPriority, signal: AbortSignal): Promise<Release> {
    if (signal.aborted) return Promise.reject(signal.reason)
    if (this.inFlight < this.size) this.scheduleDrain()
    return new Promise((resolve, reject) => {
      const queue = priority === 'gates' ? this.gates : priority === 'critical' ? this.critical : this.other
      const waiter: Waiter = {
        grant: resolve,
        signal,
        onAbort: () => {
          const at = queue.indexOf(waiter)
          if (at >= 0) queue.splice(at, 1)
          reject(signal.reason)
        },
      }
      signal.addEventListener('abort', waiter.onAbort, { once: true })
      queue.push(waiter)
    })
  }

  private drain(): void {
    this.drainScheduled = false
    while (this.inFlight < this.size) {
      const next = this.gates.shift() ?? this.critical.shift() ?? this.other.shift()
      if (!next) return
      this.inFlight++
      next.signal.removeEventListener('abort', next.onAbort)
      next.grant(this.releaser())
    }
  }

  /**
   * A freed slot is granted on the next turn of the event loop, not at once: the answer that freed
   * it is often the one a critical request was waiting for, which then queues first.
   */
  private releaser(): Release {
    let released = false
    return () => {
      if (released) return
      released = true
      this.inFlight--
      this.scheduleDrain()
    }
  }

  private scheduleDrain(): void {
    if (this.drainScheduled) return
    this.drainScheduled = true
    setImmediate(() => this.drain())
  }
}
