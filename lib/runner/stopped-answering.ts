/**
 * A port that stops answering during the run, and keeps taking connections: a forwarder whose
 * service died behind it (docker-proxy when the container's process crashed, a load balancer whose
 * last backend went), which closes every connection with no byte of an answer. A server that
 * stops taking connections is refused them, and the run is incomplete (lib/result/server-gone.ts);
 * behind a forwarder the same crash was a FAIL of 16 rules after 4,499 requests (each GET sent
 * eleven times, every re-probe too: 4,439 connections cut). Once GONE_ENOUGH requests in a row,
 * over GONE_SPAN_MS at least (the keep-alive race loses a burst at once, within milliseconds),
 * were cut with no byte after the port had answered, the run sends nothing meanwhile, waits for the
 * requests in flight, and sends a GET alone with no key (tls-port.ts plainAnswer), again every
 * half second for 5 s (REFUSED_WINDOW_MS, the restart a refused connection is given). Answered,
 * the run goes on; cut every time, nothing more is sent, and the run is incomplete
 * (`answers-nothing`, its checks failed on no answer not verified). Before those, a GET alone of
 * another path the port answered a GET of in the run, one that begins as the categories' does (not the
 * pets: a gateway routing by prefix may send those to another service): answered, the
 * service is up and cuts the categories alone (a list that crashes its worker once a value is stored,
 * its keyless list too), and its cuts stay its faults. Over http:// only (the GET
 * alone is plain text); a connection refused is no cut (server-gone.ts tells that server).
 */
import type { JournalLine, JournalSink } from '../http/journal.ts'
import { PortSpeaksNoHttp } from '../http/transport-errors.ts'
import type { RunProblem } from '../result/run-problems.ts'
import { ANSWERS_NOTHING, answersNothingProblem, keptBackWords } from '../result/speaks-tls.ts'
import { categoriesPath, cutAlone, keptBack, plainAnswer } from './tls-port.ts'

const GONE_ENOUGH = 6
const GONE_SPAN_MS = 1_000
/** Times the port is asked in a run at most: a server that cuts and answers by turns is judged on what it answered. */
const MOST_ASKS = 3

export class StoppedAnswering implements JournalSink {
  private readonly url: URL
  private readonly onWire = new Set<string>()
  private answers = 0
  private cutInARow = 0
  private rowFrom = 0 // when the first of the row was cut (performance.now())
  private cutSince = 0 // the cuts since the last answer, the row included
  private firstCut: JournalLine | undefined // …the first of them: a request that crashed the service is among the first
  private probe: Promise<void> | undefined
  private asks = 0
  private gone: { cut: number; seconds: number; answers: number } | undefined
  private notSent = 0
  private readonly stop = new AbortController()
  private answeredUnder: string | undefined // a path the port answered a GET of that begins as the categories' does
  private get list(): string {
    return categoriesPath(this.url)
  }

  constructor(
    baseUrl: string,
    private readonly waitMs: () => number,
    private readonly next?: JournalSink,
  ) {
    this.url = new URL(baseUrl)
  }

  append(line: JournalLine): void {
    this.next?.append(line)
    if (keptBack(line)) this.notSent++
    if (line.phase === 'on-wire') this.onWire.add(line.id)
    if (line.phase !== 'ended' || !this.onWire.delete(line.id)) return
    if (line.status !== undefined) return void (this.noteAnswered(line), this.answers++, (this.cutInARow = 0), (this.cutSince = 0))
    if (line.error !== 'CONNECTION_RESET' || line.noStatusLine) return void (this.cutInARow = 0)
    if (this.cutSince++ === 0) this.firstCut = line
    if (this.cutInARow++ === 0) this.rowFrom = performance.now()
    // over https:// the GET alone would go in plain text to a TLS port: asked over http:// only
    if (this.url.protocol !== 'http:' || this.cutInARow < GONE_ENOUGH || performance.now() - this.rowFrom < GONE_SPAN_MS) return
    if (this.probe !== undefined || this.stop.signal.aborted || this.asks >= MOST_ASKS || this.settledElsewhere?.() === true) return
    this.asks++
    this.probe = this.ask().finally(() => (this.probe = undefined))
  }

  beforeSend(): void {
    this.next?.beforeSend()
  }

  /**
   * Whether the run's first requests already settled what the port is (tls-port.ts stopped the
   * run). Before any answer, that watch asks first; this one asks too when its requests in flight
   * did not end in time (a loaded machine), once cuts went on for a second.
   */
  settledElsewhere?: () => boolean

  /** The GETs alone under way: the run sends nothing meanwhile. */
  get asking(): Promise<void> | undefined {
    return this.probe
  }

  /** Aborted once the port answered nothing, a GET alone included, for 5 s: nothing more is sent. */
  get stopped(): AbortSignal {
    return this.stop.signal
  }

  private noteAnswered(line: JournalLine): void {
    const path = new URL(line.url).pathname
    // one that begins as the categories' (categories%20, categories.json), not the pets: a gateway that routes by
    // prefix sends it where they go, and may send the pets to a service of their own that still answers (review47)
    if (line.method === 'GET' && path !== this.list && path.startsWith(this.list)) this.answeredUnder = path
  }

  private async ask(): Promise<void> {
    // a service that cuts the list alone (a list that crashes its worker once a value is stored) and
    // answers another path of the categories is up: its cuts are its faults, not a service gone
    if (this.answeredUnder !== undefined && (await plainAnswer(this.url, this.waitMs(), this.answeredUnder)) === 'status-line') return
    const seconds = await cutAlone(this.url, this.waitMs, () => this.onWire.size > 0, () => this.cutInARow > 0)
    if (seconds === undefined) return
    this.gone = { cut: this.cutSince, seconds, answers: this.answers }
    const since = this.gone.answers > 0 ? ` stopped answering during the run: after ${this.gone.answers} ${this.gone.answers === 1 ? 'answer' : 'answers'},` : `:`
    this.stop.abort(new PortSpeaksNoHttp(`${this.url.host}${since} ${this.gone.cut} requests had their connection closed with no byte of an answer, and a GET alone too, for ${this.gone.seconds} s`))
  }

  /** The run's requests are over: the problem, when the port stopped answering (a question under way is awaited). */
  async ended(): Promise<RunProblem | undefined> {
    await this.probe
    if (this.gone === undefined) return undefined
    // no answer at all: the port that tls-port.ts would have told, had the run's requests in flight ended in time
    if (this.gone.answers === 0) return answersNothingProblem(this.url.href, this.gone.cut, this.gone.seconds, this.notSent)
    const why = (this.stop.signal.reason as Error).message
    return {
      kind: 'answers-nothing',
      message: `${this.url.host} ${ANSWERS_NOTHING}${why.slice(this.url.host.length).replace(/^ stopped answering/, ' any more')}${keptBackWords(this.notSent)}; its service stopped behind the port (crashed, or stopped: a forwarder such as docker-proxy keeps taking connections): checks of those requests are not verified; run again once it answers (a request that crashes it is a fault, which a run again shows${this.firstCut ? `; the first cut: ${this.firstCut.method} ${new URL(this.firstCut.url).pathname}, ${this.firstCut.id} in journal.ndjson` : ''})`,
    }
  }
}
