/**
 * How many requests are in flight at once (--concurrency), and which goes next. The suite starts
 * most of its requests at once; a few depend on answers (a name sent again after its first create,
 * the list after the creates), and each of those is a round trip on the run's critical path. Were
 * they queued behind the hundred independent probes, a far-away server would cost a round trip per
 * hundred-divided-by-concurrency requests before each; as critical requests, they go out as soon as
 * a slot frees, and the independent probes fill the slots around them.
 *
 * The slots open in waves: six at first, six more each 10 ms in which requests waited, every slot
 * was in use and the server answered none of them while the client had nothing else to do (its
 * timer came on time, and, while other runs share the process, its event loop was busy less than
 * half the wave: a fleet's other runs keep it busy, and answers it has not read yet are no silence
 * of the server). Each request in flight holds a connection, so this is how many connections
 * a run opens: a server that answers at once is served on few (more would not serve it faster:
 * the client is the bottleneck, and connections cost both ends CPU; ten deployments at once took
 * 15 % less client CPU at --concurrency 16 than at 48), a far or slow one gets all of
 * --concurrency within 70 ms, under one round trip, and no server gets a burst of handshakes
 * larger than six. A burst of 48
 * overflowed the listen backlog of Python's http.server (5): Linux drops what does not fit without
 * refusing it, and requests waited past --timeout for the server's SYN-ACK to be sent again, 1, 3,
 * 7 s later (6 runs of 17 failed against ThreadingHTTPServer over HTTP/1.1). No wave opens
 * either while a handshake has taken far longer than the fastest one did (lib/http/handshakes.ts):
 * the server's backlog is full, and more connections would only queue behind it. Nor past five
 * once answers close their connections (HTTP/1.0, Connection: close): each request is then a new
 * connection, and a single-threaded server holds all but the one it serves in its backlog; Linux
 * drops the handshake's last ACK when that is full, the client writes its request to a connection
 * the server never took, and a POST waited past --timeout for the kernel's resends (2.4 to 6.8 s,
 * the next 12.6 s: 4 POSTs of 8 runs against HTTPServer over HTTP/1.0 on a loaded machine).
 */
export type Release = () => void

/** Slots opened at once, and how long requests wait with all of them in use before more open. */
export const SLOTS_PER_WAVE = 6
export const WAVE_MS = 10
/** Slots at most while answers close their connections: a listen backlog of 5 (Python's) holds them. */
export const CLOSING_SLOTS = 5
/** Answers in a row that closed their connections before the slots are held to CLOSING_SLOTS; one kept alive lifts it. */
export const CLOSING_EVIDENCE = 2

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
  /** Slots opened so far, a wave at a time (at most `size` of them count). */
  private open: number
  /** Answers so far: a wave opens only after a wave's time without one. */
  private releases = 0
  private waveTimer: NodeJS.Timeout | undefined
  /** Answers in a row that closed their connections, and the slots at most meanwhile (Infinity: none). */
  private closedInARow = 0
  private ceiling = Infinity

  constructor(
    private size: number,
    private readonly perWave = SLOTS_PER_WAVE,
    private readonly waveMs = WAVE_MS,
    private readonly busySince: () => () => number = eventLoopBusySince,
    /** How many handshakes the server has not taken (lib/http/handshakes.ts): more connections would only queue behind them. */
    private readonly handshakesStalled: () => number = () => 0,
  ) {
    this.open = Math.min(size, perWave)
  }

  /** How many requests may be in flight at once now. */
  get limit(): number {
    return Math.min(this.open, this.size, this.ceiling)
  }

  /**
   * An answer came, and closed its connection (`closed`: HTTP/1.0, or Connection: close) or kept
   * it. After CLOSING_EVIDENCE in a row, CLOSING_SLOTS at most: those in flight finish, no new one
   * is granted until fewer are, and no wave opens. An answer that keeps its connection lifts it,
   * and the slots opened before are open again (a keep-alive server's error page closed its own).
   */
  answered(closed: boolean): void {
    if (!closed) {
      this.closedInARow = 0
      if (this.ceiling === Infinity) return
      this.ceiling = Infinity
      this.scheduleDrain()
      return
    }
    if (++this.closedInARow >= CLOSING_EVIDENCE) this.ceiling = CLOSING_SLOTS
  }

  /**
   * Halves how many requests go at once (at least one): the server reset connections past a number
   * of its own (lib/http/client.ts). Those in flight finish; no new one is granted until fewer are.
   */
  narrow(): number {
    this.size = Math.max(1, Math.floor(this.limit / 2))
    this.open = this.size
    return this.size
  }

  /** One request at a time from now on: the server serves one connection at a time (lib/http/one-connection-at-a-time.ts). */
  toOne(): void {
    this.size = 1
    this.open = 1
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
    while (this.inFlight < this.limit) {
      const next = this.gates.shift() ?? this.critical.shift() ?? this.other.shift()
      if (!next) return
      this.inFlight++
      this.countActive()
      next.signal.removeEventListener('abort', next.onAbort)
      next.grant(this.releaser())
    }
    this.watchForWave()
  }

  /** Whether this client has requests in flight, counted among the process's (activeSlots). */
  private active = false
  private countActive(): void {
    const active = this.inFlight > 0
    if (active === this.active) return
    this.active = active
    activeSlots += active ? 1 : -1
  }

  private waiting(): boolean {
    return this.gates.length + this.critical.length + this.other.length > 0
  }

  /** While requests wait with every open slot in use, a wave's time later: another wave, if the server answered none meanwhile. */
  private watchForWave(): void {
    if (this.waveTimer || this.open >= Math.min(this.size, this.ceiling) || !this.waiting()) return
    const armedAt = performance.now()
    const busy = this.busySince()
    const releases = this.releases
    this.waveTimer = setTimeout(() => {
      this.waveTimer = undefined
      if (!this.waiting() || this.inFlight < this.limit) return
      // late by half a wave, or other runs kept the event loop busy most of it: the client was
      // busy, and answers it had not read yet are not the server's silence. A fleet of ten local
      // deployments opened 33 to 49 connections each by the lateness alone, 12 with the busy share
      // too (ten at once 7 % faster, and the servers' CPU time halved)
      const idle = performance.now() - armedAt < this.waveMs * 1.5 && busy() < 0.5
      // a handshake the server dropped (its listen backlog full): more connections would queue behind it
      if (this.releases === releases && idle && this.handshakesStalled() === 0) {
        this.open = Math.min(this.size, this.ceiling, this.open + this.perWave)
        this.drain()
      } else this.watchForWave()
    }, this.waveMs)
    this.waveTimer.unref()
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
      this.releases++
      this.inFlight--
      this.countActive()
      this.scheduleDrain()
    }
  }

  private scheduleDrain(): void {
    if (this.drainScheduled) return
    this.drainScheduled = true
    setImmediate(() => this.drain())
  }
}

/** Clients of the process with requests in flight: more than one, and other runs (a fleet's) share the event loop. */
let activeSlots = 0

/**
 * The share of the time since the call (0 to 1) the event loop spent busy with other runs, when
 * the function it returns is called; 0 while this is the process's only client at work. A run
 * alone is busy too as its requests start (it builds them, and its code is being compiled): that
 * is no reason to hold back the connections a far server needs (waves held back so cost the
 * bench's run against a server 120 ms away 0.4 round trips).
 */
export function eventLoopBusySince(): () => number {
  if (activeSlots <= 1) return () => 0
  const since = performance.eventLoopUtilization()
  return () => performance.eventLoopUtilization(since).utilization
}
