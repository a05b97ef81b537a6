/**
 * The client's connections: a pool of keep-alive connections as large as --concurrency, a pool
 * apart for resends after the connection race (each of its connections closed after its answer,
 * lib/http/lost-answer.ts), and the slots that bound the requests in flight
 * (lib/http/request-slots.ts). A server that refuses connections past a number of its own (Node's
 * server.maxConnections, a proxy's limit per client) gets fewer: `narrow` halves the slots and
 * replaces the pool with one of as many connections; the old one closes its idle connections at
 * once and the others as their requests end, so that the connections the server counts fall under
 * its limit. Every pool is watched for the moment a request is written (lib/http/write-watch.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Dispatcher } from 'undici'
import { createAgent } from './agent.ts'
import { RequestSlots } from './request-slots.ts'
import { watchingWrites } from './write-watch.ts'

type PoolOptions = Parameters<typeof createAgent>[0]

/** The pause before each resend after a refusal: 10 ms, doubled each time, at most half a second. */
const REFUSED_PAUSE_MS = 10
const REFUSED_PAUSE_MAX_MS = 500

export class ConnectionPools {
  readonly slots: RequestSlots
  private pool: Dispatcher
  private watched: Dispatcher
  private fresh: Dispatcher | undefined
  /** Pools given up for smaller ones, and their closing, under way as their requests end. */
  private readonly retired: { pool: Dispatcher; closed: Promise<void> }[] = []

  constructor(private readonly options: PoolOptions) {
    this.slots = new RequestSlots(options.concurrency)
    this.pool = createAgent(options)
    this.watched = watchingWrites(this.pool)
  }

  /** The pool a request goes on: the run's, or (`fresh`) the one whose connections serve one request each. */
  dispatcher(fresh: boolean): Dispatcher {
    return fresh ? (this.fresh ??= watchingWrites(createAgent(this.options))) : this.watched
  }

  /**
   * Half as many requests at once, on a pool of half as many connections; the number in flight at
   * most from then on. Requests lost under a larger number than the current one do not halve it
   * again (`limitAtSend`: the number their attempt went under).
   */
  private narrow(limitAtSend: number): number {
    if (this.slots.limit < limitAtSend) return this.slots.limit
    const to = this.slots.narrow()
    this.retired.push({ pool: this.pool, closed: this.pool.close().catch(() => undefined) })
    this.pool = createAgent({ ...this.options, concurrency: to })
    this.watched = watchingWrites(this.pool)
    return to
  }

  /**
   * A request was refused a connection again (`refusals` times): fewer at once (narrow), then a
   * pause, longer each time, as a server may free a connection's place a moment after closing it.
   * The number in flight at most from then on, or undefined when the pause would pass `msLeft`.
   */
  async afterRefusal(limitAtSend: number, refusals: number, msLeft: number): Promise<number | undefined> {
    const fewer = this.narrow(limitAtSend)
    const pause = Math.min(REFUSED_PAUSE_MAX_MS, REFUSED_PAUSE_MS * 2 ** (refusals - 1))
    if (pause >= msLeft) return undefined
    await sleep(pause)
    return fewer
  }

  /** Closes every pool once its requests have ended. */
  async close(): Promise<void> {
    await Promise.all([this.pool.close(), this.fresh?.close(), ...this.retired.map((r) => r.closed)])
  }

  /** Cuts every connection, requests in flight included. */
  destroy(): void {
    for (const pool of [this.pool, this.fresh, ...this.retired.map((r) => r.pool)]) pool?.destroy().catch(() => undefined)
  }
}
