/**
 * Before any POST, the run learns whether its base URL serves the list. The first GET of the list
 * with the key (the first list, 'gates' among the slots) goes alone; every other request waits for
 * its answer, and then goes in the order it came, so the run's requests keep their order (the list
 * asked with no Accept still goes beside the creates: the mutation bare-list-without-descriptions
 * is caught by it; a wait of the POSTs alone sent it before them, and was reverted). A conforming
 * server's list answers 200, and the run is one round trip slower. A 404 to it (a wrong path
 * before /v1: `/api/v1` where the service serves `/v1`, or `/v1` without its prefix) lets the GETs
 * go and keeps the rest. Once another GET is answered so too, and none otherwise but refusals (a
 * front's 401 to a request without the key), or no other GET within HOLD_MS, the first POST waiting
 * goes alone: answered 404 or 405 too, nothing more is sent (one POST gone, which stored nothing);
 * answered otherwise, everything goes: a service that routes the create but not its list, or 404s
 * its list while it is empty (a Rails or Django habit), fails the list's rules, exit 1, and is no
 * "nothing served", exit 2 (review58). A GET answered otherwise (2xx, 3xx, 5xx, none at all), the
 * list with the key answered otherwise, or any other answer to the first list lets everything go (a
 * server fault is a fault to judge, not "nothing served"). The whole write plan went before (about
 * 90 POSTs, a --max-writes budget spent) on a path a 404 today and another application's route
 * tomorrow. A list (or the POST alone) slower than HOLD_MS, or a quarter of --timeout, lets everything go
 * (the end of the run still tells a path that serves nothing: lib/result/misdirected.ts).
 */
import type { SendOptions } from '../http/client-options.ts'
import type { Exchange } from '../http/exchange.ts'
import type { JournalLine, JournalListener } from '../http/journal.ts'
import { KEY_AUTHORIZATION } from '../http/redact.ts'
import { PortSpeaksNoHttp } from '../http/transport-errors.ts'
import { NOTHING_SERVED } from '../result/misdirected.ts'

/** The answers to the first list that say nothing is served for it at the base URL (a 421, a host not served, has its own words: misdirected.ts). */
const NOTHING_HERE = new Map([[404, '404 Not Found']])
/** The answers to the POST sent alone (the probe) that say its path is not routed either: 404, or 405 of a path that takes GETs only (a static site); a 429 is a limit, a 400 or 422 the service's own. */
const NOT_ROUTED_POST = new Set([404, 405])
/** The answers so, the first list's among them, that stop the run's sending. */
export const NOTHING_ENOUGH = 2
/** The wait at most: for the first list's answer (then everything goes; at most a quarter of --timeout), and after it for another GET's (then the first POST goes alone), and for that POST's (then everything goes). */
export const HOLD_MS = 2_000
/** A run whose first requests hold no GET of the list with the key (a --rule run of other checks) waits no longer for one. */
const NO_LIST_MS = 50

const isList = (path: string) => /\/categories$/.test(path)
const keyedList = (method: string, path: string, authorization: string | undefined) => method === 'GET' && isList(path) && authorization === KEY_AUTHORIZATION

type Phase = 'waiting' | 'asked' | 'reads' | 'probe' | 'open' | 'stopped'

/** A promise and its resolve (Promise.withResolvers is Node 22's). */
function gate(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined
  const promise = new Promise<void>((done) => (resolve = done))
  return { promise, resolve }
}

export class ListFirst {
  private phase: Phase = 'waiting'
  private readonly stop = new AbortController()
  private readonly reads = gate()
  /** The requests held but the GETs while the list is awaited, in the order they came: the first POST among them may go alone (the probe), every other waits for its answer. */
  private readonly queued: { method: string; keyed: boolean; go: () => void }[] = []
  private status: number | undefined
  private nothing = 0
  private timer: NodeJS.Timeout | undefined

  /** `timeoutMs`: the run's --timeout. A list unanswered for a quarter of it lets everything go, as the requests beside it went before: a slow service's first list expired alone, and the operation stalled with it; at half, the requests held were answered, behind the list that expired, at the end of the second more they wait (answer-clock.ts BEHIND_MS), expired (test/hostile/slower-than-timeout.test.ts, review58). */
  constructor(private readonly timeoutMs = Infinity) {}

  /** The run's journal, as the HTTP client hears it, with each attempt's end heard here too. */
  listening(journal: Required<Omit<JournalListener, 'exchangeEnded'>>): JournalListener {
    return { record: (line: JournalLine) => journal.record(line), beforeSend: () => journal.beforeSend(), exchangeEnded: (exchange) => this.ended(exchange) }
  }

  /** What `request` awaits before it goes (ClientOptions.heldFirst), or undefined. */
  held(request: SendOptions): Promise<void> | undefined {
    if (this.phase === 'open' || this.phase === 'stopped') return undefined
    if (this.phase === 'waiting' && keyedList(request.method, request.path, request.headers?.authorization)) {
      this.phase = 'asked'
      this.wait(Math.min(HOLD_MS, this.timeoutMs / 4), () => this.open())
      return undefined
    }
    if (this.phase === 'waiting') this.timer ??= setTimeout(() => this.phase === 'waiting' && this.open(), NO_LIST_MS).unref()
    if (request.method === 'GET' && this.phase !== 'probe') return this.phase === 'reads' ? undefined : this.reads.promise
    const held = gate()
    this.queued.push({ method: request.method, keyed: request.headers?.authorization === KEY_AUTHORIZATION, go: held.resolve })
    return held.promise
  }

  private ended(exchange: Exchange): void {
    const { method, url, headers } = exchange.request
    if (exchange.sent !== true) return
    const status = exchange.response?.status
    if (this.phase === 'probe' && method === 'POST') return status !== undefined && NOT_ROUTED_POST.has(status) ? this.stopSending() : this.open()
    if (method !== 'GET' || (this.phase !== 'asked' && this.phase !== 'reads' && this.phase !== 'probe')) return
    const list = keyedList(method, new URL(url).pathname, headers.authorization)
    if (this.phase === 'asked') {
      // the first GET of the list with the key to end is the first list: the others waited for it
      if (!list) return
      if (status === undefined || !NOTHING_HERE.has(status)) return this.open()
      this.status = status
      this.nothing = 1
      this.phase = 'reads'
      this.wait(HOLD_MS, () => this.probe())
      return this.reads.resolve()
    }
    // a GET served, redirected, failed by the server or unanswered, or the list with the key answered otherwise: something is here
    if (status === undefined || status < 400 || status >= 500 || (list && status !== this.status)) return this.open()
    if (status === this.status && ++this.nothing >= NOTHING_ENOUGH) this.probe()
  }

  /** The first POST waiting goes alone, its answer awaited (HOLD_MS at most, then everything goes); none waiting, nothing more is sent. */
  private probe(): void {
    if (this.phase !== 'reads') return
    // one with the key (a front that refuses before routing answers one without it 401, which lets everything go), else any
    const keyed = this.queued.findIndex((request) => request.method === 'POST' && request.keyed)
    const first = keyed !== -1 ? keyed : this.queued.findIndex((request) => request.method === 'POST')
    if (first === -1) return this.stopSending()
    this.phase = 'probe'
    this.wait(Math.min(HOLD_MS, this.timeoutMs / 4), () => this.open())
    this.queued.splice(first, 1)[0]!.go()
  }

  private wait(ms: number, then: () => void): void {
    clearTimeout(this.timer)
    this.timer = setTimeout(then, ms).unref()
  }

  private open(): void {
    clearTimeout(this.timer)
    this.phase = 'open'
    this.release()
  }

  private release(): void {
    this.reads.resolve()
    for (const request of this.queued.splice(0)) request.go()
  }

  private stopSending(): void {
    clearTimeout(this.timer)
    const answer = NOTHING_HERE.get(this.status!)
    const posts = this.phase === 'probe' ? 'one POST, sent alone, was answered so too' : 'no POST was sent'
    this.phase = 'stopped'
    this.stop.abort(new PortSpeaksNoHttp(`${NOTHING_SERVED}: the list, asked first with the key, was answered ${answer}, and every GET after it too or refused; ${posts}`))
    this.release()
  }

  /** Aborted once the first answers show nothing is served at the base URL: nothing more is sent. */
  get stopped(): AbortSignal {
    return this.stop.signal
  }

  /** Whether the first answers stopped the run's sending. */
  get stoppedSending(): boolean {
    return this.phase === 'stopped'
  }
}
