/**
 * Before any POST, the run learns whether its base URL serves the list. The first GET of the list
 * with the key (the first list, 'gates' among the slots) goes alone; every other request waits for
 * its answer, and then goes in the order it came, so the run's requests keep their order (the list
 * asked with no Accept still goes beside the creates: the mutation bare-list-without-descriptions
 * is caught by it; a wait of the POSTs alone sent it before them, and was reverted). A conforming
 * server's list answers 200, and the run is one round trip slower. A 404 to it (a wrong path
 * before /v1: `/api/v1` where the service serves `/v1`, or `/v1` without its prefix) lets the GETs
 * go and keeps the rest: once another GET is answered so too, and none
 * otherwise but refusals (a front's 401 to a request without the key), nothing more is sent, and no
 * POST has gone; a GET answered otherwise (2xx, 3xx, 5xx, none at all) or the list with the key
 * answered otherwise lets everything go, as does any other answer to the first list (a server
 * fault is a fault to judge, not "nothing served"). The whole write plan went before (about 90 POSTs,
 * a --max-writes budget spent) on a path a 404 today and another application's route tomorrow.
 * A list slower than HOLD_MS, or half of --timeout, lets everything go (the end of the run still tells a path that serves
 * nothing: lib/result/misdirected.ts).
 */
import type { SendOptions } from '../http/client-options.ts'
import type { Exchange } from '../http/exchange.ts'
import type { JournalLine, JournalListener } from '../http/journal.ts'
import { KEY_AUTHORIZATION } from '../http/redact.ts'
import { PortSpeaksNoHttp } from '../http/transport-errors.ts'
import { NOTHING_SERVED } from '../result/misdirected.ts'

/** The answers to the first list that say nothing is served for it at the base URL (a 421, a host not served, has its own words: misdirected.ts). */
const NOTHING_HERE = new Map([[404, '404 Not Found']])
/** The answers so, the first list's among them, that stop the run's sending. */
export const NOTHING_ENOUGH = 2
/** The wait at most: for the first list's answer (then everything goes; at most half of --timeout), and after it for another GET's (then nothing more goes). */
export const HOLD_MS = 2_000
/** A run whose first requests hold no GET of the list with the key (a --rule run of other checks) waits no longer for one. */
const NO_LIST_MS = 50

const isList = (path: string) => /\/categories$/.test(path)
const keyedList = (method: string, path: string, authorization: string | undefined) => method === 'GET' && isList(path) && authorization === KEY_AUTHORIZATION

type Phase = 'waiting' | 'asked' | 'reads' | 'open' | 'stopped'

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
  private readonly all = gate()
  private status: number | undefined
  private nothing = 0
  private timer: NodeJS.Timeout | undefined

  /** `timeoutMs`: the run's --timeout. A list unanswered for half of it lets everything go, as the requests beside it went before: a slow service's first list expired alone, and the operation stalled with it (test/hostile/slower-than-timeout.test.ts). */
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
      this.wait(Math.min(HOLD_MS, this.timeoutMs / 2), () => this.open())
      return undefined
    }
    if (this.phase === 'waiting') this.timer ??= setTimeout(() => this.phase === 'waiting' && this.open(), NO_LIST_MS).unref()
    if (request.method === 'GET') return this.phase === 'reads' ? undefined : this.reads.promise
    return this.all.promise
  }

  private ended(exchange: Exchange): void {
    const { method, url, headers } = exchange.request
    if (method !== 'GET' || exchange.sent !== true || (this.phase !== 'asked' && this.phase !== 'reads')) return
    const status = exchange.response?.status
    const list = keyedList(method, new URL(url).pathname, headers.authorization)
    if (this.phase === 'asked') {
      // the first GET of the list with the key to end is the first list: the others waited for it
      if (!list) return
      if (status === undefined || !NOTHING_HERE.has(status)) return this.open()
      this.status = status
      this.nothing = 1
      this.phase = 'reads'
      this.wait(HOLD_MS, () => this.stopSending())
      return this.reads.resolve()
    }
    // a GET served, redirected, failed by the server or unanswered, or the list with the key answered otherwise: something is here
    if (status === undefined || status < 400 || status >= 500 || (list && status !== this.status)) return this.open()
    if (status === this.status && ++this.nothing >= NOTHING_ENOUGH) this.stopSending()
  }

  private wait(ms: number, then: () => void): void {
    clearTimeout(this.timer)
    this.timer = setTimeout(then, ms).unref()
  }

  private open(): void {
    clearTimeout(this.timer)
    this.phase = 'open'
    this.reads.resolve()
    this.all.resolve()
  }

  private stopSending(): void {
    clearTimeout(this.timer)
    this.phase = 'stopped'
    const answer = NOTHING_HERE.get(this.status!)
    this.stop.abort(new PortSpeaksNoHttp(`${NOTHING_SERVED}: the list, asked first with the key, was answered ${answer}, and every GET after it too or refused; no POST was sent`))
    this.reads.resolve()
    this.all.resolve()
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
