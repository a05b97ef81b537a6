/**
 * The stages of one request, as the HTTP client (lib/http/client.ts) passes them: admitted or
 * refused, dispatched (handed to undici), on the wire (its head written to a connection), ended.
 * Each stage carries the request's one Exchange, built once when it is admitted. The run's journal
 * listens (journalStages): its lines are made here from the exchange, not by the client.
 */
import type { Exchange } from './exchange.ts'
import { endedLine, type JournalLine, type JournalListener, type RefusalReason } from './journal.ts'

/** Why a request is sent again with fewer at once (lib/http/connection-pools.ts afterRefusal), and how many at most from then on. */
export interface FewerConnections {
  after: 'reset' | 'not-taken'
  atMost: number
}

/** What a stage tells beside the exchange: the declared POST probe the request is, if one, and which attempt (a request the suite refused has none). */
export interface RequestTag {
  probe?: string
  attempt?: number
  /** A resend after the connection race, on a fresh connection (lib/http/lost-answer.ts). */
  freshConnection?: boolean
  /** A resend after a fresh connection was reset too: the requests in flight at most, from then on. */
  fewerConnections?: number
  /** A resend after no connection was taken within --timeout (it never left): the requests in flight at most, from then on. */
  connectionNotTaken?: number
  /** Sent on one connection: the server was seen to serve one at a time (lib/http/one-connection-at-a-time.ts). */
  oneConnection?: boolean
}

export interface RequestStages {
  /** Not sent: `reason` (read-only, the write budget, a stall, the deadline …), `detail` in words. */
  refused(exchange: Exchange, tag: RequestTag, reason: RefusalReason, detail: string): void
  /** Handed to undici: it waits for one of the bounded connections. */
  dispatched(exchange: Exchange, tag: RequestTag): void
  /** Its head was written to a connection: the server may have it. */
  onWire(exchange: Exchange, tag: RequestTag): void
  /** It ended: answered (`answer`: the decoded body) or failed. */
  ended(exchange: Exchange, tag: RequestTag, answer: string | undefined): void
}

/** No one listens (unit tests of the client). */
export const UNHEARD: RequestStages = { refused: () => undefined, dispatched: () => undefined, onWire: () => undefined, ended: () => undefined }

/**
 * The journal's lines of each stage. `shown`: the request's URL as the evidence shows it
 * (redacted). A request's body is the exchange's, redacted when it was recorded and whole: the
 * journal is the record of what each write sent, and cut to the evidence limit it showed 4,096 of
 * the 9,049 characters a long create sent, marked nowhere (the suite's own bodies are at most a
 * few kilobytes). The dispatched line of a POST also carries its headers as recorded (the key as
 * $CONFORM_API_KEY, secret --header values redacted): which credential, Content-Type and Accept
 * each write went with, also in a journal.ndjson a killed run left. A body of bytes (not all UTF-8)
 * carries them exactly too, as the exchange does: its `body` shows them as \xNN escapes, which a body
 * of text holding those characters would show alike. `everyHeader`: a GET's dispatched line carries
 * its headers too (a dry run lists every request whole).
 */
export function journalStages(journal: JournalListener, shown: { url: (url: string) => string; redact: (text: string) => string; everyHeader?: boolean }): RequestStages {
  // made once per request (each attempt has an exchange of its own), not at each of its stages:
  // its URL redacted once
  const made = new WeakMap<Exchange, Omit<JournalLine, 'phase' | 'at'>>()
  const opened = (exchange: Exchange, tag: RequestTag): Omit<JournalLine, 'phase' | 'at'> => {
    let line = made.get(exchange)
    if (line === undefined) made.set(exchange, (line = openedLine(exchange, tag)))
    return line
  }
  const openedLine = (exchange: Exchange, tag: RequestTag): Omit<JournalLine, 'phase' | 'at'> => ({
    id: exchange.id,
    method: exchange.request.method,
    url: shown.url(exchange.request.url),
    ...(tag.probe ? { probe: tag.probe } : {}),
    ...(exchange.request.body !== undefined ? { body: exchange.request.body } : {}),
    ...(exchange.request.bodyBase64 !== undefined ? { bodyBase64: exchange.request.bodyBase64 } : {}),
    ...(tag.attempt !== undefined ? { attempt: tag.attempt } : {}),
    ...(tag.freshConnection ? { freshConnection: true } : {}),
    ...(tag.fewerConnections !== undefined ? { fewerConnections: tag.fewerConnections } : {}),
    ...(tag.connectionNotTaken !== undefined ? { connectionNotTaken: tag.connectionNotTaken } : {}),
    ...(tag.oneConnection ? { oneConnection: true } : {}),
    ...(exchange.waitedMs !== undefined ? { waitedMs: exchange.waitedMs } : {}),
  })
  return {
    refused: (exchange, tag, reason, detail) => journal.record({ ...opened(exchange, tag), phase: 'refused', at: exchange.startedAt, reason, detail }),
    dispatched: (exchange, tag) => journal.record({ ...opened(exchange, tag), ...(exchange.request.method === 'POST' || shown.everyHeader === true ? { headers: exchange.request.headers } : {}), phase: 'dispatched', at: exchange.startedAt }),
    onWire: (exchange, tag) => journal.record({ ...opened(exchange, tag), phase: 'on-wire', at: new Date().toISOString() }),
    ended: (exchange, tag, answer) => (journal.record(endedLine(opened(exchange, tag), exchange, answer, shown.redact)), journal.exchangeEnded?.(exchange)),
  }
}
