/**
 * A run over plain HTTP whose first requests got no answer at all: does the port speak TLS? A TLS
 * handshake only, no request, so no key and no write (as the preflight's for https://). Asked once,
 * as soon as the first requests that reached the port ended without a byte of answer and none was
 * answered. If it speaks TLS, no request is sent again after a lost answer from then on (before,
 * asked at the run's end, 1,395 were, with fewer in flight: 10 s), and the run is incomplete
 * (lib/result/speaks-tls.ts). A server of plain HTTP sees a ClientHello only
 * when it answered none of the first requests, and a port that answers neither (a server that
 * resets every connection) fails the handshake: its failures stand.
 */
import { isIP } from 'node:net'
import { connect } from 'node:tls'
import type { JournalLine, JournalSink } from '../http/journal.ts'
import type { RunProblem } from '../result/run-problems.ts'
import { speaksTlsProblem } from '../result/speaks-tls.ts'

/** Fewer unanswered requests than this say too little (a --rule run of one check). */
const ENOUGH = 3
/** The handshake's wait at most: a port that speaks TLS answers a ClientHello at once. */
const HANDSHAKE_MS = 2_000

/** Whether a TLS handshake with the base URL's host and port succeeds within `waitMs` (at most HANDSHAKE_MS). */
function handshakeSucceeds(url: URL, waitMs: number): Promise<boolean> {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  return new Promise<boolean>((resolve) => {
    const socket = connect({ host, port: Number(url.port || 80), ...(isIP(host) === 0 ? { servername: host } : {}), rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] })
    const done = (answer: boolean) => (clearTimeout(timer), socket.destroy(), resolve(answer))
    const timer = setTimeout(() => done(false), Math.max(1, Math.min(HANDSHAKE_MS, waitMs)))
    socket.once('secureConnect', () => done(true))
    socket.once('error', () => done(false))
    socket.once('close', () => done(false))
  })
}

/**
 * Watches the journal's lines as they come (passed on to `next`, the run's journal file): once
 * ENOUGH requests that reached the port ended without an answer, and none got one, the handshake
 * is made. While it succeeded and no request was answered, `speaksTls` is true (the run's client
 * sends nothing again), and `ended` gives the problem at the run's end.
 */
export class TlsPortWatch implements JournalSink {
  private readonly url: URL
  private readonly onWire = new Set<string>()
  private unanswered = 0
  private answered = false
  private secured = false
  private probe: Promise<void> | undefined

  constructor(
    private readonly baseUrl: string,
    private readonly waitMs: () => number,
    private readonly next?: JournalSink,
  ) {
    this.url = new URL(baseUrl)
  }

  append(line: JournalLine): void {
    this.next?.append(line)
    if (this.answered || this.url.protocol !== 'http:') return
    if (line.phase === 'on-wire') this.onWire.add(line.id)
    if (line.phase !== 'ended' || !this.onWire.delete(line.id)) return
    if (line.status !== undefined) return void (this.answered = true)
    if (++this.unanswered < ENOUGH || this.probe !== undefined) return
    this.probe = handshakeSucceeds(this.url, this.waitMs()).then((secured) => void (this.secured = secured))
  }

  beforeSend(): void {
    this.next?.beforeSend()
  }

  /** The port spoke TLS to the handshake, and no request over plain HTTP has been answered so far. */
  get speaksTls(): boolean {
    return this.secured && !this.answered
  }

  /** The run's requests are over: the problem, when the port speaks TLS (a handshake under way is awaited). */
  async ended(): Promise<RunProblem | undefined> {
    await this.probe
    return this.speaksTls ? speaksTlsProblem(this.baseUrl) : undefined
  }
}
