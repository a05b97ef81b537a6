/**
 * A run over plain HTTP whose first requests got no answer at all: does the port speak TLS? A TLS
 * handshake only, no request, so no key and no write (as the preflight's for https://). Asked once,
 * as soon as the first requests that reached the port ended without a byte of answer and none was
 * answered. If it speaks TLS, no request is sent again after a lost answer from then on (before,
 * asked at the run's end, 1,395 were, with fewer in flight: 10 s), and the run is incomplete
 * (lib/result/speaks-tls.ts). A server of plain HTTP sees a ClientHello only
 * when it answered none of the first requests; one that takes TLS and plain HTTP both (Jetty's
 * detect mode) answers a plain GET with no key after the handshake, and is no TLS port. A port that
 * answers neither (it closes every connection with no byte) fails the handshake, and once the
 * requests in flight have ended, a GET alone is cut too: it answers nothing, and the run stops
 * there, incomplete (`answers-nothing`).
 * Beside the handshake, the HTTP/2 connection preface (no request either): a port that speaks
 * HTTP/2 only without TLS (h2c) answers it with its SETTINGS frame, and the run is incomplete
 * for that (`speaks-h2c`), as it answered every HTTP/1.1 request with frames no client can read.
 * While the handshake is under way, nothing is sent (at most 2 s), and once it succeeded (the
 * preface: where an answer was frames, not a connection cut with none, as a port that speaks HTTP/1.1
 * too cuts them in a restart), or three answers came with no status line (another service's port),
 * nothing more is sent at all: the whole plan went before (185 requests to a TLS port, 179 to a
 * Redis port, 85 POSTs each).
 */
import { connect as netConnect, isIP } from 'node:net'
import { connect } from 'node:tls'
import type { JournalLine, JournalSink } from '../http/journal.ts'
import type { RunProblem } from '../result/run-problems.ts'
import { ANSWERS_NOTHING, answersNothingProblem, speaksH2cProblem, speaksTlsProblem } from '../result/speaks-tls.ts'
import { NOT_HTTP } from '../result/misdirected.ts'
import { PortSpeaksNoHttp } from '../http/transport-errors.ts'
import { REFUSED_WINDOW_MS } from '../http/refused-connections.ts'

/** Fewer unanswered requests than this say too little (a --rule run of one check). */
const ENOUGH = 3
/** The handshake's wait at most: a port that speaks TLS answers a ClientHello at once. */
const HANDSHAKE_MS = 2_000
/** The pause between GETs alone to a port that cut them (cutAlone), for REFUSED_WINDOW_MS at most. */
const ALONE_AGAIN_MS = 500

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

/** RFC 9113 §3.4: the client's connection preface, then its (empty) SETTINGS frame. */
const H2_PREFACE = Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0])])

/** Whether the port answers the HTTP/2 preface over plain TCP with a SETTINGS frame on stream 0 (§3.4: the server's preface), within `waitMs`. */
function answersH2Preface(url: URL, waitMs: number): Promise<boolean> {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  return new Promise<boolean>((resolve) => {
    const socket = netConnect({ host, port: Number(url.port || 80) }, () => socket.write(H2_PREFACE))
    let head = Buffer.alloc(0)
    const done = (answer: boolean) => (clearTimeout(timer), socket.destroy(), resolve(answer))
    const timer = setTimeout(() => done(false), Math.max(1, Math.min(HANDSHAKE_MS, waitMs)))
    socket.on('data', (chunk: Buffer) => {
      head = Buffer.concat([head, chunk])
      // a frame header: 24-bit length, type 0x4 (SETTINGS), flags, stream 0; an ack of none, or settings in 6-byte pairs
      if (head.length >= 9) done(head[3] === 4 && (head[4]! & 1) === 0 && head.readUInt32BE(5) === 0 && head.readUIntBE(0, 3) % 6 === 0)
    })
    socket.once('error', () => done(false))
    socket.once('close', () => done(false))
  })
}

/** What a plain HTTP/1.1 GET with no key got: a status line, the connection closed with no byte, or anything else (bytes of another protocol, a TLS alert, nothing in time). */
/** The categories' path under the base URL (its trailing slashes dropped). */
export const categoriesPath = (url: URL): string => `${url.pathname.replace(/\/+$/, '')}/categories`

export type PlainAnswer = 'status-line' | 'cut' | 'other'

/**
 * A GET of the base URL's categories (or of `path`, another the run read) over plain HTTP/1.1, with no key (so nothing a keyless request
 * of the run does not send too) and `Connection: close`, on a connection of its own: whether the
 * port answers it with a status line. A port that takes TLS and plain HTTP both (Jetty's detect
 * mode, a front that sniffs the first byte) does; one of TLS only, or one that closes every
 * connection unanswered, does not. Not journalled, as the handshake is not: it carries no key.
 * Direct, never through a proxy of the environment: asked over http:// only, where the run's own
 * requests go direct too (preflight.ts proxyFor: a proxy would read the key in clear).
 */
export function plainAnswer(url: URL, waitMs: number, path = categoriesPath(url)): Promise<PlainAnswer> {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  return new Promise<PlainAnswer>((resolve) => {
    const socket = netConnect({ host, port: Number(url.port || 80) }, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`))
    let head = Buffer.alloc(0)
    let connected = false // a connection refused is no cut: nothing listens (lib/result/server-gone.ts)
    socket.once('connect', () => (connected = true))
    const done = (answer: PlainAnswer) => (clearTimeout(timer), socket.destroy(), resolve(answer))
    const timer = setTimeout(() => done('other'), Math.max(1, Math.min(HANDSHAKE_MS, waitMs)))
    socket.on('data', (chunk: Buffer) => {
      head = Buffer.concat([head, chunk])
      if (head.length >= 5) done(head.subarray(0, 5).toString('latin1') === 'HTTP/' ? 'status-line' : 'other')
    })
    socket.once('error', () => done(connected && head.length === 0 ? 'cut' : 'other'))
    socket.once('close', () => done(connected && head.length === 0 ? 'cut' : 'other'))
  })
}

/** A request the run kept back once the port was found to speak no HTTP/1.1, or to answer nothing. */
export const keptBack = (line: JournalLine): boolean => (line.phase === 'refused' && line.reason === 'misdirected') || (line.phase === 'ended' && line.error === 'WRONG_PORT')

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Once the run's requests in flight have ended (HANDSHAKE_MS at most), a plain GET alone
 * (plainAnswer), again every ALONE_AGAIN_MS for 5 s (REFUSED_WINDOW_MS, the restart a refused
 * connection is given: a forwarder cuts connections while the service behind it starts), or for
 * as long as the run has left (`waitMs`, read afresh: nothing once the run ended, its deadline or
 * Ctrl-C, whose reports wait for this). The seconds asked when every GET was cut while `stillCut`
 * held; undefined when one got anything else, the requests in flight did not end, or the run ended.
 */
export async function cutAlone(url: URL, waitMs: () => number, inFlight: () => boolean, stillCut: () => boolean): Promise<number | undefined> {
  const over = () => waitMs() <= 0
  const start = performance.now()
  const inFlightUntil = start + Math.min(HANDSHAKE_MS, waitMs())
  while (inFlight() && stillCut() && performance.now() < inFlightUntil && !over()) await sleep(20)
  if (inFlight() || !stillCut() || over()) return undefined
  const until = start + Math.min(REFUSED_WINDOW_MS, waitMs())
  for (;;) {
    if ((await plainAnswer(url, Math.min(until - performance.now(), waitMs()))) !== 'cut' || !stillCut() || over()) return undefined
    if (performance.now() + ALONE_AGAIN_MS >= until) return Math.round((until - start) / 1000)
    await sleep(ALONE_AGAIN_MS)
    if (over()) return undefined
  }
}

/**
 * The run's problems at its end: what cut it short (its deadline, an interrupt) and what its port
 * was found to be (TLS, h2c, answering nothing), both when both came. The GETs alone to a port that
 * cuts every connection go on for as long as the run has left: the deadline then came as they
 * found it answers nothing, was the one problem told, and the checks of the cut requests failed
 * (--deadline 5000 at a port that closed every connection: a FAIL of 7 rules, exit 1, in 2 of 3 runs).
 */
export function endProblems(cutBy: RunProblem | undefined, port: RunProblem | undefined): RunProblem[] {
  return [cutBy, port].filter((problem) => problem !== undefined)
}

/**
 * Watches the journal's lines as they come (passed on to `next`, the run's journal file). Once
 * ENOUGH requests that reached the port ended without an answer, and none got one, the handshake
 * is made. While it succeeded and no request was answered, `speaksTls` is true (the run's client
 * sends nothing again), and `ended` gives the problem at the run's end. Once it succeeded, or
 * ENOUGH answers came with no status line and none with one (another service's port: Redis's
 * `-ERR`, SSH's banner, a TLS record), `wrongPort` is aborted: the run's client sends nothing more
 * (the whole plan went before, 179 requests and 85 POSTs, to conclude the same).
 */
export class TlsPortWatch implements JournalSink {
  private readonly url: URL
  private readonly onWire = new Set<string>()
  private unanswered = 0
  private noStatusLine = 0
  private answered = false
  private secured = false
  private h2c = false
  private cut = 0 // unanswered requests whose connection was closed with no byte of an answer
  private closesAll = false // …and a GET alone was cut too: the port answers nothing (askAlone)
  private aloneSeconds = 0 // …for so long
  private probe: Promise<void> | undefined
  private settled = false
  private notSent = 0 // requests kept back once the port was found to speak no HTTP/1.1
  private answeredAfterStop = false // …and then a request in flight was answered with a status line after all
  private readonly stop = new AbortController()

  constructor(
    private readonly baseUrl: string,
    private readonly waitMs: () => number,
    private readonly next?: JournalSink,
  ) {
    this.url = new URL(baseUrl)
  }

  append(line: JournalLine): void {
    this.next?.append(line)
    if (keptBack(line)) this.notSent++
    if (this.answered) return
    if (line.phase === 'on-wire') this.onWire.add(line.id)
    if (line.phase !== 'ended' || !this.onWire.delete(line.id)) return
    if (line.status !== undefined) return void ((this.answered = true), (this.answeredAfterStop = this.stop.signal.aborted))
    // bytes of another protocol where an answer should be, and none yet with a status line: the port is another service's
    if (line.noStatusLine && ++this.noStatusLine >= ENOUGH) this.stopSending(`the port's first ${this.noStatusLine} answers were bytes with no status line (${NOT_HTTP}?)`)
    if (line.error === 'CONNECTION_RESET' && !line.noStatusLine) this.cut++
    if (this.url.protocol !== 'http:' || ++this.unanswered < ENOUGH || this.probe !== undefined) return
    this.probe = this.ask(this.waitMs())
  }

  /** The questions to the port, once its first requests went unanswered (the run sends nothing meanwhile). */
  private async ask(waitMs: number): Promise<void> {
    const [secured, h2c] = await Promise.all([handshakeSucceeds(this.url, waitMs), answersH2Preface(this.url, waitMs)])
    // a port that takes TLS and plain HTTP both (Jetty's detect mode) answers a plain GET: its first requests were cut for another cause, and its answers are judged
    const plain = secured && !this.answered ? await plainAnswer(this.url, this.waitMs()) : undefined
    this.secured = secured && plain !== 'status-line'
    this.h2c = h2c && !secured
    if (this.speaksTls) this.stopSending(`${this.url.host} speaks TLS: no request over plain HTTP got an answer, and a TLS handshake with it succeeded`)
    // a port that speaks HTTP/2 only answers HTTP/1.1 with frames (bytes with no status line); one that cut them with none may speak both (Go's h2c.NewHandler): its later answers are read
    else if (this.speaksH2c && this.noStatusLine > 0) this.stopSending(`${this.url.host} speaks HTTP/2 only (h2c): it answered HTTP/1.1 requests with HTTP/2 frames`)
    else if (!secured && !h2c && this.cut === this.unanswered) await this.askAlone()
    this.settled = true
  }

  /**
   * Every request so far was cut with no byte, and the port speaks neither TLS nor h2c: once the
   * run's requests in flight have ended (a server that takes one connection at a time cuts the
   * others while it answers its first: it is no such port), a plain GET alone, again every
   * ALONE_AGAIN_MS for 5 s (REFUSED_WINDOW_MS, the restart a refused connection is given: a
   * forwarder cuts connections while the container behind it starts). Cut every time, the port
   * closes every connection unanswered (a forwarder with nothing behind it: docker-proxy while the
   * container starts, a load balancer with no healthy backend): nothing more is sent (before, each
   * GET went eleven times: 2,054 requests, and a FAIL of 17 rules on no answer).
   */
  private async askAlone(): Promise<void> {
    const seconds = await cutAlone(this.url, this.waitMs, () => this.onWire.size > 0, () => !this.answered && this.cut === this.unanswered)
    if (seconds === undefined) return
    this.closesAll = true
    this.aloneSeconds = seconds
    this.stopSending(`${this.url.host} ${ANSWERS_NOTHING}: ${this.cut} requests had their connection closed with no byte of an answer, and a GET alone on a connection of its own too, for ${this.aloneSeconds} s`)
  }

  beforeSend(): void {
    this.next?.beforeSend()
  }

  /** The questions under way while no request was answered (the handshake, at most HANDSHAKE_MS; GETs alone to a port that cut every request, 5 s more at most): the run sends nothing meanwhile, so a port that speaks TLS, or answers nothing, gets no more than its first requests. */
  get asking(): Promise<void> | undefined {
    return this.answered || this.settled ? undefined : this.probe
  }

  /** Aborted once the port's answers show it speaks no HTTP/1.1, before any request was answered with a status line: nothing more is sent. */
  get wrongPort(): AbortSignal {
    return this.stop.signal
  }

  private stopSending(why: string): void {
    if (!this.answered && !this.stop.signal.aborted) this.stop.abort(new PortSpeaksNoHttp(why))
  }

  /** The port spoke TLS to the handshake, and no request over plain HTTP has been answered so far. */
  get speaksTls(): boolean {
    return this.secured && !this.answered
  }

  /** The port answered the HTTP/2 preface (h2c), and no request over HTTP/1.1 has been answered so far. */
  get speaksH2c(): boolean {
    return this.h2c && !this.answered
  }

  /** The port speaks TLS or h2c, not the plain HTTP/1.1 the run's client does: nothing is sent again. */
  get speaksOther(): boolean {
    return this.speaksTls || this.speaksH2c
  }

  /** The run's requests are over: the problem, when the port speaks TLS or h2c (a probe under way is awaited). */
  async ended(): Promise<RunProblem | undefined> {
    await this.probe
    // the port spoke HTTP after all: what it garbled fails its rules, and the requests kept back leave the run without a verdict on the rest
    if (this.answeredAfterStop && this.notSent > 0) {
      const why = (this.stop.signal.reason as Error).message
      return { kind: 'stalled', message: `requests were kept back: ${why}, so the run sent no more (${this.notSent} not sent), but a request already under way was then answered in HTTP: run again to judge the rest` }
    }
    if (this.closesAll && !this.answered) return answersNothingProblem(this.baseUrl, this.cut, this.aloneSeconds, this.notSent)
    return this.speaksTls ? speaksTlsProblem(this.baseUrl, this.notSent) : this.speaksH2c ? speaksH2cProblem(this.baseUrl, this.notSent) : undefined
  }
}
