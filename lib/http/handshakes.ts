/**
 * The handshakes of a pool's connections, timed: whether the server has stopped taking new ones.
 * A server whose listen backlog is full (Python's http.server listens with a backlog of 5, and a
 * single-threaded one takes the next connection only once it is done with the one it serves)
 * does not refuse a connection: Linux drops the handshake, and the client's kernel sends it again
 * 1, 3 and 7 s later. More connections then only queue behind it, and a request that waits for one
 * past --timeout fails. A handshake that has taken far longer than the fastest one did (4 times,
 * and at least the 10 ms of a wave of slots) is such a drop, not the distance to the server: a
 * server 120 ms away takes 120 ms for each, and the slots' waves (lib/http/request-slots.ts) go on.
 */
import type { buildConnector } from 'undici'
import type { TLSSocket } from 'node:tls'
import { askedForCertificate, watchCertificateAlert } from './certificate-alert.ts'

/** A handshake pending this many times as long as the fastest one took is taken for one the server dropped. */
const DROPPED_FACTOR = 4

export class Handshakes {
  /**
   * The alerts of the TLS handshakes a server asked for again during a request, for a client
   * certificate, that failed (lib/http/certificate-alert.ts), by the local port of their connection.
   */
  readonly certificateAlerts = new Map<number, string>()
  /** Whether the server asked a connection's handshake for a client certificate (its CertificateRequest), given or not. */
  certificateAsked = false
  /** The fastest handshake so far, in ms; Infinity until one is done. */
  private fastestMs = Infinity
  /** When each handshake under way began (performance.now()). */
  private readonly pending = new Set<{ at: number }>()

  constructor(
    private readonly floorMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** `connect`, timed: each connection it makes is counted until its handshake is done or failed. */
  timing(connect: buildConnector.connector): buildConnector.connector {
    return (options, callback) => {
      const handshake = { at: this.now() }
      this.pending.add(handshake)
      connect(options, (...args: [null, import('node:net').Socket] | [Error, null]) => {
        this.pending.delete(handshake)
        if (args[1]) this.fastestMs = Math.min(this.fastestMs, this.now() - handshake.at)
        // before undici's own listener: the alert is known when the request's error reaches the client
        if (args[1]) watchCertificateAlert(args[1], (alert, port) => port !== undefined && this.certificateAlerts.set(port, alert))
        if (args[1] && askedForCertificate(args[1] as Partial<TLSSocket>)) this.certificateAsked = true
        callback(...args)
      })
    }
  }

  /** How many handshakes under way have taken far longer than the fastest one did: the server is not taking new connections now. */
  stalled(now = this.now()): number {
    if (this.fastestMs === Infinity) return 0
    const limit = Math.max(this.floorMs, DROPPED_FACTOR * this.fastestMs)
    let stalled = 0
    for (const handshake of this.pending) if (now - handshake.at > limit) stalled++
    return stalled
  }
}
