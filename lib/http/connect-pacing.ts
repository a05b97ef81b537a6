/**
 * New connections opened in waves, not all at once. A run starts with --concurrency requests at
 * once, each on a connection of its own; a burst of 48 handshakes overflows a listen backlog of 5
 * (Python's socketserver, and so http.server, unless it sets request_queue_size), and Linux
 * drops what does not fit without refusing it: a SYN is sent again a second later, and a
 * handshake the client took for done waits for the server's SYN-ACK to be sent again, 1, 3, 7,
 * 15 s later, each time in a burst of its own. Requests on those connections went unanswered past
 * --timeout, a false alarm on a server that answers every request it reads (validation against
 * Python's ThreadingHTTPServer: 6 runs of 17 failed; with a backlog of 128, none).
 *
 * Six connections a wave: the backlog of the smallest default (5 holds 6), and as many as a
 * browser opens to one host. The next wave begins once the server has answered on each connection
 * of this one (it took them off its backlog), or after 10 ms, whichever comes first: a near server
 * sets the pace itself, and a far one gets its 48 connections within 70 ms, less than its round
 * trip. Once made, connections are kept (keep-alive), so only the start of a run, and of a smaller
 * pool after a server refused connections (lib/http/connection-pools.ts), is paced.
 */
import type { Socket } from 'node:net'
import type { buildConnector } from './undici-parts.ts'

/** Connections begun at once, and the longest wait for the next wave. */
export const CONNECTIONS_PER_WAVE = 6
export const WAVE_MS = 10

export class ConnectPacing {
  private begunInWave = 0
  /** Connections of this wave the server has not yet answered on (nor closed). */
  private unanswered = 0
  private wave = 0
  private readonly waiting: (() => void)[] = []
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly perWave = CONNECTIONS_PER_WAVE,
    private readonly waveMs = WAVE_MS,
  ) {}

  /**
   * Calls `begin` in this wave if it has room, else in the first wave that has (in the order
   * asked); `begin` gets the call that says the server answered on (or closed) its connection.
   */
  pace(begin: (answered: () => void) => void): void {
    if (this.waiting.length === 0 && this.begunInWave < this.perWave) return this.begin(begin)
    this.waiting.push(() => this.begin(begin))
    if (!this.timer) this.timer = setTimeout(() => this.nextWave(), this.waveMs)
  }

  private begin(begin: (answered: () => void) => void): void {
    if (this.begunInWave === 0) this.timer ??= setTimeout(() => this.nextWave(), this.waveMs)
    this.begunInWave++
    this.unanswered++
    const wave = this.wave
    let told = false
    begin(() => {
      if (told || wave !== this.wave) return
      told = true
      if (--this.unanswered === 0 && this.begunInWave >= this.perWave) this.nextWave()
    })
  }

  private nextWave(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    this.wave++
    this.begunInWave = 0
    this.unanswered = 0
    while (this.waiting.length > 0 && this.begunInWave < this.perWave) (this.waiting.shift() as () => void)()
  }
}

/** Calls `seen` at the first bytes the server sends on `socket`, or at its end, whichever comes first. */
function onFirstBytes(socket: Socket, seen: () => void): void {
  // the bytes as the socket hands them to its reader (undici), not a listener of its own, which
  // would change how the socket is read; put back as it was once they came
  const push = socket.push
  socket.push = function (this: Socket, ...args: Parameters<Socket['push']>): boolean {
    socket.push = push
    seen()
    return push.apply(this, args)
  }
  socket.once('close', seen)
}

/** undici's connector, each connection it makes begun in its wave. */
export function pacedConnector(connect: buildConnector.connector, pacing: ConnectPacing): buildConnector.connector {
  return (options, callback) =>
    pacing.pace((answered) =>
      connect(options, (...args: [null, Socket] | [Error, null]) => {
        if (args[1]) onFirstBytes(args[1], answered)
        else answered()
        callback(...args)
      }),
    )
}
