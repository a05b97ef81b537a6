/**
 * The client's connections: a pool of keep-alive connections as large as --concurrency, a pool
 * apart for resends after the connection race (each of its connections closed after its answer,
 * lib/http/lost-answer.ts), and the slots that bound the requests in flight
 * (lib/http/request-slots.ts). A server that refuses connections past a number of its own (Node's
 * server.maxConnections, a proxy's limit per client) gets fewer: `narrow` halves the slots and
 * replaces the pool with one of as many connections; the old one closes its idle connections at
 * once and the others as their requests end, so that the connections the server counts fall under
 * its limit. A server that serves one connection at a time (lib/http/one-connection-at-a-time.ts)
 * gets one: `oneConnection` replaces the pool with a single connection the same way, and the
 * server, once the idle connection it was reading is closed, answers the others in turn as each
 * closes after its answer. The pools' handshakes are timed, so that no wave of slots opens while
 * the server takes no new connection (lib/http/handshakes.ts). Every pool is watched for the
 * moment a request is written (lib/http/write-watch.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Dispatcher } from 'undici'
import { createAgent } from './agent.ts'
import { localPortOf } from './certificate-alert.ts'
import type { Exchange } from './exchange.ts'
import { hasClientCertificate } from './origin-tls.ts'
import { Handshakes } from './handshakes.ts'
import { ConnectionTurns, type Written } from './one-connection-at-a-time.ts'
import { NamedSlots } from './named-slots.ts'
import { RequestSlots, WAVE_MS, type Release, type RequestPriority } from './request-slots.ts'
import type { FewerConnections } from './request-stages.ts'
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
  private readonly handshakes = new Handshakes(WAVE_MS)
  private readonly turns = new ConnectionTurns()
  private lookTimer: NodeJS.Timeout | undefined
  /** The server was seen to serve one connection at a time: one connection from then on. */
  private one = false
  /** The connections of their own that requests name (SendOptions.connection). */
  private readonly ownConnections = new Map<string, Dispatcher>()
  private readonly namedSlots: NamedSlots

  constructor(private readonly options: PoolOptions) {
    this.slots = new RequestSlots(options.concurrency, undefined, undefined, undefined, () => this.handshakes.stalled())
    this.namedSlots = new NamedSlots(this.slots)
    this.pool = createAgent({ ...options, handshakes: this.handshakes })
    this.watched = watchingWrites(this.pool)
  }

  /** A request's error, or, where the server ended its connection for the client certificate it asked for during the request, that TLS refusal: no answer lost (lib/http/certificate-alert.ts). */
  withCertificateAlert(error: unknown, described: NonNullable<Exchange['error']>): NonNullable<Exchange['error']> {
    const localPort = localPortOf(error)
    const alert = localPort === undefined ? undefined : this.handshakes.certificateAlerts.get(localPort)
    if (alert === undefined || (described.code !== 'CONNECTION_RESET' && described.code !== 'NETWORK_ERROR')) return described
    return { code: 'TLS_FAILURE', message: `the server asked for the client certificate during the request, and ended the connection (${alert})`, tlsAlert: alert }
  }

  /**
   * Whether a connection closed under a request is a refusal for the client certificate: the server asked for one, the run has none,
   * and nothing was served yet (`servedAny`), so no keep-alive race, which needs an answer before it (nginx's `return 444`): not sent again.
   */
  refusedForItsCertificate(servedAny: boolean): boolean {
    return !servedAny && this.handshakes.certificateAsked && !hasClientCertificate(this.options.tls)
  }

  /** Whether the server asked a handshake of the run for a client certificate (lib/result/certificate-refused.ts). */
  get certificateAsked(): boolean {
    return this.handshakes.certificateAsked
  }

  /** Whether requests go on one connection because the server serves one at a time. */
  get oneConnection(): boolean {
    return this.one
  }

  /** A request's head was written: its turn is watched until it ends (one-connection-at-a-time.ts). */
  wrote(operation: string): Written {
    const written = this.turns.wrote(performance.now(), operation)
    if (this.lookTimer === undefined && !this.one) this.lookLater()
    return written
  }

  /** The request ended; `answered`, a status line came. */
  ended(written: Written, answered: boolean): void {
    this.turns.ended(written, answered)
    if (this.one) return
    if (answered && this.turns.oneAtATime()) this.toOneConnection()
    else if (this.lookTimer === undefined) this.lookLater()
  }

  private lookLater(): void {
    const wait = this.turns.nextLookIn()
    if (wait === undefined) return
    this.lookTimer = setTimeout(() => {
      this.lookTimer = undefined
      if (this.one) return
      if (this.turns.oneAtATime()) this.toOneConnection()
      else this.lookLater()
    }, wait)
    this.lookTimer.unref()
  }

  /**
   * One connection from now on: the pool is replaced by one of a single connection, and the old one
   * closes its idle connections at once (the one the server was reading) and the others after their answers.
   */
  private toOneConnection(): void {
    clearTimeout(this.lookTimer)
    // the slots may be down to one already (narrowed after refused connections): the pool's connections are not
    if (this.options.concurrency <= 1) return
    this.one = true
    this.slots.toOne()
    this.retire(1)
  }

  private retire(concurrency: number): void {
    this.retired.push({ pool: this.pool, closed: this.pool.close().catch(() => undefined) })
    this.pool = createAgent({ ...this.options, concurrency, handshakes: this.handshakes })
    this.watched = watchingWrites(this.pool)
  }

  /** The pool a request goes on: the run's, or (`fresh`) the one whose connections serve one request each. */
  dispatcher(fresh: boolean): Dispatcher {
    return fresh ? (this.fresh ??= watchingWrites(createAgent(this.options))) : this.watched
  }

  /**
   * The slot a request waits for: the one the requests naming its connection share (named-slots.ts),
   * while the run has more than one; otherwise one of its own.
   */
  slot(connection: string | undefined, priority: RequestPriority, signal: AbortSignal): Promise<Release> {
    return connection !== undefined && this.slots.limit > 1 ? this.namedSlots.acquire(connection, priority, signal) : this.slots.acquire(priority, signal)
  }

  /**
   * The connection of its own that the requests naming `name` share (SendOptions.connection). A run
   * of one connection (--concurrency 1, or narrowed to one) has no other: they go on that one, in
   * turn as every request, where a connection more would be one a server that takes one closes.
   */
  named(name: string): Dispatcher {
    if (this.slots.limit <= 1) return this.watched
    let pool = this.ownConnections.get(name)
    if (pool === undefined) this.ownConnections.set(name, (pool = watchingWrites(createAgent({ ...this.options, concurrency: 1 }))))
    return pool
  }

  /**
   * Half as many requests at once, on a pool of half as many connections; the number in flight at
   * most from then on. Requests lost under a larger number than the current one do not halve it
   * again (`limitAtSend`: the number their attempt went under).
   */
  private narrow(limitAtSend: number): number {
    if (this.slots.limit < limitAtSend) return this.slots.limit
    const to = this.slots.narrow()
    this.retire(to)
    return to
  }

  /**
   * A request was refused a connection again (`refusals` times): a fresh one reset before any answer
   * too, or none taken within --timeout. Fewer at once (narrow), then a pause, longer each time, as
   * a server may free a connection's place a moment after closing it. The number in flight at most
   * from then on, or undefined when the pause would pass `msLeft`.
   */
  async afterRefusal(after: FewerConnections['after'], limitAtSend: number, refusals: number, msLeft: number): Promise<FewerConnections | undefined> {
    const atMost = this.narrow(limitAtSend)
    const pause = Math.min(REFUSED_PAUSE_MAX_MS, REFUSED_PAUSE_MS * 2 ** (refusals - 1))
    if (pause >= msLeft) return undefined
    await sleep(pause)
    return { after, atMost }
  }

  /**
   * Every connection the pools hold closed before a request goes alone (lib/http/unanswered-alone.ts):
   * the pools are replaced by new ones, as many at once as now, and the old ones close their idle
   * connections at once and the others as their requests end; resolves once they have, or after `waitMs`.
   */
  async closeEveryConnection(waitMs: number): Promise<void> {
    const old = [this.pool, this.fresh, ...this.ownConnections.values()].filter((pool) => pool !== undefined)
    const closing = old.map((pool) => ({ pool, closed: pool.close().catch(() => undefined) }))
    this.pool = createAgent({ ...this.options, concurrency: this.slots.limit, handshakes: this.handshakes })
    this.watched = watchingWrites(this.pool)
    this.fresh = undefined
    this.ownConnections.clear()
    this.retired.push(...closing)
    await Promise.race([Promise.all(this.retired.map((r) => r.closed)), sleep(waitMs)])
  }

  /** Closes every pool once its requests have ended. */
  async close(): Promise<void> {
    clearTimeout(this.lookTimer)
    await Promise.all([this.pool.close(), this.fresh?.close(), ...[...this.ownConnections.values()].map((pool) => pool.close()), ...this.retired.map((r) => r.closed)])
  }

  /** Cuts every connection, requests in flight included. */
  destroy(): void {
    clearTimeout(this.lookTimer)
    for (const pool of [this.pool, this.fresh, ...this.ownConnections.values(), ...this.retired.map((r) => r.pool)]) pool?.destroy().catch(() => undefined)
  }
}
