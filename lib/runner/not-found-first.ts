/**
 * A base URL with a wrong path before /v1 (`/api/v1` where the service serves `/v1`) is answered
 * 404 from its first request on, or 404 to every request with the key behind a front that refuses
 * the others before routing (lib/result/served-nothing.ts). The run's POSTs wait for the first
 * answers to its GETs (at most HOLD_MS): once the list, asked with the key, was answered 404, and
 * another GET too, with no GET answered but with a 4xx, nothing more is sent, and no POST has gone.
 * Before, the whole plan went first (169 requests, 87 POSTs: a write budget spent on a path that
 * serves nothing) and the run said so at its end. A GET answered otherwise (200, a redirect, a
 * server fault, the list's 401 to the key) or not at all lets the POSTs go at once: a conforming
 * server's first list answers 200, so its POSTs wait one round trip.
 */
import type { Exchange } from '../http/exchange.ts'
import type { JournalLine, JournalListener } from '../http/journal.ts'
import { KEY_AUTHORIZATION } from '../http/redact.ts'
import { PortSpeaksNoHttp } from '../http/transport-errors.ts'
import { NOTHING_SERVED } from '../result/misdirected.ts'

/** The 404s that say a path serves nothing, the list's to the key among them (lib/result/served-nothing.ts reads as many). */
export const NOT_FOUND_ENOUGH = 2
/** The POSTs' wait at most: a GET slower than this to answer lets them go (the end of the run still tells a path that serves nothing). */
const HOLD_MS = 2_000

const isList = (url: string) => /\/categories$/.test(new URL(url).pathname)

export class NotFoundFirst {
  private readonly stop = new AbortController()
  private notFound = 0
  private readonly getsUnderWay = new Set<string>()
  private listNotFound = false
  private open = false
  private letGo: () => void = () => undefined
  private readonly opened = new Promise<void>((resolve) => (this.letGo = resolve))
  private timer: NodeJS.Timeout | undefined

  /** The run's journal, as the HTTP client hears it, with each GET's end heard here too. */
  listening(journal: Required<Omit<JournalListener, 'exchangeEnded'>>): JournalListener {
    return { record: (line: JournalLine) => (this.count(line), journal.record(line)), beforeSend: () => journal.beforeSend(), exchangeEnded: (exchange) => this.ended(exchange) }
  }

  /** The GETs handed to the client and not ended yet. */
  private count(line: JournalLine): void {
    if (line.method !== 'GET') return
    if (line.phase === 'dispatched') this.getsUnderWay.add(line.id)
    else if (line.phase === 'ended' || line.phase === 'refused') this.getsUnderWay.delete(line.id)
  }

  private ended(exchange: Exchange): void {
    if (this.open || exchange.request.method !== 'GET' || exchange.sent !== true) return
    const status = exchange.response?.status
    const keyedList = isList(exchange.request.url) && exchange.request.headers.authorization === KEY_AUTHORIZATION
    // an answer that is no refusal (a 2xx, a redirect, a server fault), none at all, or the list refused to the key: other checks judge it, the POSTs go
    if (status === undefined || status < 400 || status >= 500 || (keyedList && status !== 404)) return this.writesGo()
    if (status !== 404) return
    this.notFound++
    if (keyedList) this.listNotFound = true
    if (this.notFound < NOT_FOUND_ENOUGH || !this.listNotFound) return
    this.stop.abort(new PortSpeaksNoHttp(`${NOTHING_SERVED}: the list, asked with the key, was answered 404 Not Found, and every GET answered so far with a 4xx (a wrong path before /v1?)`))
    this.writesGo()
  }

  private writesGo(): void {
    this.open = true
    clearTimeout(this.timer)
    this.letGo()
  }

  /** What a POST awaits before it goes: the answers of the first GETs under way (at most HOLD_MS from the first POST's wait), or undefined once they came. */
  writesHeld(): Promise<void> | undefined {
    // no GET under way whose answer would tell (a --rule run of creates, whose list comes after them): the POSTs go
    if (!this.open && this.getsUnderWay.size === 0) this.writesGo()
    if (this.open) return undefined
    this.timer ??= setTimeout(() => this.writesGo(), HOLD_MS).unref()
    return this.opened
  }

  /** Aborted once the first answers show nothing is served at the base URL: nothing more is sent. */
  get stopped(): AbortSignal {
    return this.stop.signal
  }
}
