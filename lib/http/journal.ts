/**
 * The run's journal: every request the HTTP client sent, or refused to send, as the client tells
 * it (lib/http/client.ts sees every request). The client hands it a line at each stage of a
 * request: when it is handed to undici (`dispatched`), when its head is written to the socket
 * (`on-wire`, lib/http/write-watch.ts) and when it ends (`ended`), so that a request cut short
 * before it left (a deadline, a refused connection) is not counted as sent, and one in flight when
 * the run stops still is. The run owns the journal and keeps it in memory (RunJournal); it also
 * passes each line on as it comes (the runner appends it to `<report-dir>/journal.ndjson`, so
 * that the ledger of a run that crashed or was killed is kept). Counts, the write count and the
 * ledger of every report are read from here, never rebuilt from the evidence checks chose to keep.
 * This module writes no file.
 */
import { exactIntegerTextAt, numberText } from '../json/exact-json.ts'
import { parsedOnce } from '../json/parsed-once.ts'
import { serverFaultStatus, withoutStatusLine, type Exchange, type TransportErrorCode } from './exchange.ts'
import { LIMITED_NOT_SENT_AGAIN, UNANSWERED_ALONE, UNAVAILABLE_NOT_SENT_AGAIN } from './not-sent-again-words.ts'

export { LIMITED_NOT_SENT_AGAIN, LIMITED_RECORD_FOUND, UNANSWERED_ALONE, UNAVAILABLE_NOT_SENT_AGAIN } from './not-sent-again-words.ts'

/**
 * Why a request was not sent: --read-only, --max-writes, --rule, --deadline, a header no HTTP
 * request can carry, an operation that already let a request go unanswered past --timeout, or a
 * port whose first answers showed it speaks no HTTP/1.1 (`misdirected`, lib/runner/tls-port.ts).
 */
export type RefusalReason = 'read-only' | 'write-budget' | 'not-needed' | 'deadline' | 'unsendable' | 'stalled' | 'misdirected'

/** What a POST that got a 2xx answer says it created, for the ledger. */
export interface CreatedRecord { id: string; name: string }

export interface JournalLine {
  /** The exchange id; both lines of one request share it. */
  id: string
  /** answer-lost: what the list showed of a POST whose answer the connection race lost (lib/http/lost-answer.ts), or that was answered 503 under --max-writes (stored-despite-unavailable.ts); stray-answer: bytes after its answer's end (stray-answers.ts), in `detail`. */
  phase: 'dispatched' | 'on-wire' | 'ended' | 'refused' | 'answer-lost' | 'stray-answer'
  at: string
  method: string
  /** Redacted, as in the evidence. */
  url: string
  /** The declared POST probe (suites/cases/write-order.ts), when the request is one. */
  probe?: string
  /** Request body, redacted, whole (POST only): what the write sent; bytes not UTF-8 text as \xNN escapes (bodyBase64 has them). */
  body?: string
  /** A request body of bytes (lib/http/exchange.ts bytesEvidence): exactly what was sent, in base64. */
  bodyBase64?: string
  /** dispatched, POST only: the request's headers as recorded (the key as $CONFORM_API_KEY, secret --header values redacted). */
  headers?: Record<string, string>
  /** 1 for the first attempt; a resend after a 429 or a 503 is 2, 3 … (one refused its connection goes again as the same attempt: it never left) */
  attempt?: number
  /** Sent on a connection of its own: a resend after the connection race lost the first attempt's answer. */
  freshConnection?: boolean
  /**
   * Sent again after a fresh connection was reset before any answer too (a server that refuses
   * connections past a number of its own): with at most this many requests in flight, the run's from then on.
   */
  fewerConnections?: number
  /**
   * Sent again after no connection was taken within --timeout (a server that takes connections one
   * at a time, past its listen backlog): the first attempt never left; at most this many in flight from then on.
   */
  connectionNotTaken?: number
  /** Sent on one connection, as the server was seen to serve one connection at a time (lib/http/one-connection-at-a-time.ts). */
  oneConnection?: boolean
  /** ended: the status of the answer, or the transport error. */
  status?: number
  error?: TransportErrorCode
  noStatusLine?: true // ended: the answer's first bytes were no status line (Redis's `-ERR`, SSH's banner, a TLS record), not an HTTP answer framed wrong
  /** ended: the Content-Encoding the body came in, when it was not identity. */
  contentEncoding?: string
  /** ended: how long the server's Retry-After made the client wait before the next attempt. */
  waitedMs?: number
  /** ended, a 429 or 503: its Retry-After, as sent (observed behaviour). */
  retryAfter?: string
  /** ended, POST with a 2xx: what the answer says was created. */
  created?: CreatedRecord
  /** refused: why, in the words a report shows. */
  reason?: RefusalReason
  detail?: string
}

/** One request as the journal tells it, both lines merged. */
export interface JournalEntry extends Omit<JournalLine, 'phase'> {
  /** The request's head was written to the connection: the server may have it. */
  onWire: boolean
  /** When it was (a request queued for a connection went later than it was dispatched). */
  onWireAt?: string
  /** When it ended (its answer came, or it failed): the order of the answers is the order the server handled them in. */
  endedAt?: string
  outcome: 'answered' | 'failed' | 'no-end-recorded' | 'refused'
  /**
   * POST only: whether this attempt may have created a record. A 2xx did; an attempt that got no
   * complete answer may have; so may one answered with a server fault (500, a gateway's 502 or 504),
   * which says that the request failed, not that nothing was stored: a service that commits and then
   * fails to write its answer, or a gateway that gave up waiting on a service that went on, stored
   * it. A 429 or 503 whose record a list showed did too (stored-despite-unavailable.ts); any other status
   * created nothing on a server that tells the truth (a 4xx that was stored anyway shows up in a
   * later list, which the checks compare, and the ledger lists: lib/result/ledger-from-list.ts).
   */
  mayHaveCreated?: boolean
  /** POST whose answer the connection race lost: what the list showed (lib/http/lost-answer.ts), in the journal's words. */
  answerLost?: string
  /** Stray answers (lib/http/stray-answers.ts): `after`, the bytes written after this request's answer had ended, before the next request, as text; `inDoubt`, its answer was read on a connection that carried an earlier request in a run that met one, and may have been one. */
  stray?: { after?: string; inDoubt?: true }
}

/** What the client hands each line of the journal to (the run's RunJournal). */
export interface JournalListener {
  record(line: JournalLine): void
  /** Called just before a request is handed to undici: the lines recorded so far must be kept by then. */
  beforeSend?(): void
  exchangeEnded?(exchange: Exchange): void // each attempt's end, its Exchange whole (the key as a placeholder): lib/runner/list-first.ts
}

/** Where a journal's lines go as they come (the run's journal.ndjson, lib/runner/journal-file.ts). */
export interface JournalSink {
  append(line: JournalLine): void
  /** A request is about to be handed to undici: what it was told so far is kept now. */
  beforeSend(): void
}

/** A run's journal, in memory: its lines as they come, passed on to `sink` too. */
export class RunJournal implements JournalListener {
  private readonly lines: JournalLine[] = []
  constructor(private readonly sink?: JournalSink) {}

  record(line: JournalLine): void {
    this.lines.push(line)
    this.sink?.append(line)
  }

  beforeSend(): void {
    this.sink?.beforeSend()
  }

  /** Every request of the run so far, in the order they went out (or were refused). */
  entries(): JournalEntry[] {
    return journalEntries(this.lines)
  }
}

/** The lines of a journal.ndjson, as RunJournal passed them on; a line cut by a process killed mid-write is skipped. */
export function parseJournalLines(ndjson: string): JournalLine[] {
  const lines: JournalLine[] = []
  for (const text of ndjson.split('\n')) {
    if (text.trim() === '') continue
    try {
      lines.push(JSON.parse(text) as JournalLine)
    } catch {
      // a line cut by a process that was stopped mid-write: the request's other lines still count
    }
  }
  return lines
}

/** The requests the lines tell of, each request's lines merged, in the order they went out (or were refused). */
export function journalEntries(lines: readonly JournalLine[]): JournalEntry[] {
  const byId = new Map<string, JournalEntry>()
  // fields copied one by one, not by spreads: a fleet merges ~4,000 lines, each run at least twice
  const copy = (into: Record<string, unknown>, line: JournalLine, except: string) => {
    for (const field in line) if (field !== 'phase' && field !== except) into[field] = line[field as keyof JournalLine]
  }
  for (const line of lines) {
    const phase = line.phase
    let entry = byId.get(line.id)
    if (!entry) {
      entry = {} as JournalEntry
      copy(entry as unknown as Record<string, unknown>, line, 'phase')
      entry.onWire = false
      entry.outcome = phase === 'refused' ? 'refused' : 'no-end-recorded'
      byId.set(line.id, entry)
    }
    if (phase === 'on-wire') (entry.onWire = true), (entry.onWireAt = line.at)
    if (phase === 'stray-answer' && (entry.stray = { ...entry.stray, ...(line.detail ? { after: line.detail } : { inDoubt: true }) })) continue
    if (phase === 'answer-lost') {
      entry.answerLost = line.detail
      if (line.created) entry.created = line.created
      continue
    }
    if (phase === 'ended') {
      // the start keeps its time; the end adds the answer
      copy(entry as unknown as Record<string, unknown>, line, 'at')
      entry.endedAt = line.at
      entry.outcome = line.status !== undefined ? 'answered' : 'failed'
    }
  }
  // a request's first line comes when it is admitted or refused: the lines' order is the order they went out
  const entries = [...byId.values()]
  for (const entry of entries) {
    if (entry.method !== 'POST' || !entry.onWire) continue
    const status = entry.status
    // a record the list showed is the POST's, whatever its answer (stored-despite-unavailable.ts: a 503 after the store); a status past 599 says nothing
    entry.mayHaveCreated = status === undefined || (status >= 200 && status < 300) || status > 599 || faultAnsweredWrite(entry) || entry.created !== undefined
  }
  return entries
}

/** When an entry's request was answered, or given up on (ms since the epoch); when it went out, for one that never ended. */
export const endedAt = (entry: Pick<JournalEntry, 'at' | 'endedAt'>): number => Date.parse(entry.endedAt ?? entry.at)
/** A server fault that does not say the request was not processed (503 does, RFC 9110 §15.6.4): the POST may have been stored. */
export const answeredFault = (status: number | undefined): boolean => status !== undefined && serverFaultStatus(status) && status !== 503

/**
 * The journal's words for a POST whose answer was lost, that the list does not show, and that an
 * explicit --max-writes keeps from going again (lib/http/lost-answer.ts): a POST that may have
 * created a record, counted as one without an answer.
 */
export const ANSWER_LOST_NOT_SENT_AGAIN = 'no answer, not in the list (which may show it late): not sent again under --max-writes, so it may have created a record'
/**
 * The same for a POST that went unsent again because the run had already sent its bound of POSTs
 * again after lost answers (as many as its plan has POSTs): a server that stores a POST and drops
 * its connection, behind a list that shows records late, would otherwise get each of them eleven times.
 */
export const ANSWER_LOST_RESENDS_SPENT = "no answer, not in the list (which may show it late): not sent again, as the run had sent its bound of POSTs again after lost answers (as many as its plan's POSTs), so it may have created a record"
/** The same for a POST lost on a reused connection whose list could not tell (a store that took a value it cannot give back lists 500). */
export const ANSWER_LOST_LIST_UNREADABLE = 'no answer, and the list could not tell whether it was stored (not answered 200 with an array): not sent again, so it may have created a record'

/** A POST answered with a server fault that does not say nothing was stored: a 5xx but 503, or a 503 (or 429) not sent again under --max-writes. */
export const faultAnsweredWrite = (entry: Pick<JournalEntry, 'method' | 'status' | 'answerLost'>): boolean =>
  entry.method === 'POST' && (answeredFault(entry.status) || (entry.status === 503 && entry.answerLost === UNAVAILABLE_NOT_SENT_AGAIN) || (entry.status === 429 && entry.answerLost === LIMITED_NOT_SENT_AGAIN))

/** The words of a lost POST the list did not show and that was not sent again: one that may have created a record. */
const NOT_SENT_AGAIN: ReadonlySet<string> = new Set([ANSWER_LOST_NOT_SENT_AGAIN, ANSWER_LOST_RESENDS_SPENT, ANSWER_LOST_LIST_UNREADABLE, UNANSWERED_ALONE])

/** A POST that went out and whose answer no one knows: none came, and the list did not account for it (found, or not stored and sent again). */
export const unansweredWrite = (entry: JournalEntry): boolean =>
  entry.method === 'POST' && entry.onWire && entry.status === undefined && (entry.answerLost === undefined || NOT_SENT_AGAIN.has(entry.answerLost))

/** What every report counts, read from the journal. */
export interface JournalTotals {
  /** Requests whose head went out on a connection (every attempt), whatever came back. */
  requests: number
  /** POSTs that went out (every attempt). */
  writes: number
  /** Of them, resends of a POST answered 429 or 503 that the list did not show stored (none under --max-writes). */
  resentWrites: number
  /** Of them, resends of a POST whose connection closed before any answer, which the list showed was not stored (lib/http/lost-answer.ts). */
  resentLostWrites: number
  /** POSTs that went out and got no complete answer: each may have created a record nobody saw. */
  unansweredWrites: number
  /** POSTs answered with a server fault (a 5xx but 503, or a 503 not sent again: faultAnsweredWrite): each may have created a record its answer did not report. */
  faultAnsweredWrites: number
  /** Requests the client refused to send, by reason. */
  refused: Partial<Record<RefusalReason, number>>
  /**
   * How often and for how long a 429 or 503 made the run wait: each wait added up (`totalMs`, the
   * waits of requests side by side each counted), and the run's time during which some request
   * waited (`heldMs`, the waits' union).
   */
  waits: { count: number; totalMs: number; heldMs: number }
  /** Answers that came with a Content-Encoding other than identity, by coding. */
  encodedAnswers: Record<string, number>
}

export function journalTotals(entries: readonly JournalEntry[]): JournalTotals {
  const totals: JournalTotals = { requests: 0, writes: 0, resentWrites: 0, resentLostWrites: 0, unansweredWrites: 0, faultAnsweredWrites: 0, refused: {}, waits: { count: 0, totalMs: 0, heldMs: 0 }, encodedAnswers: {} }
  const waited: [number, number][] = []
  for (const entry of entries) {
    if (entry.outcome === 'refused') {
      const reason = entry.reason ?? 'deadline'
      totals.refused[reason] = (totals.refused[reason] ?? 0) + 1
      continue
    }
    if (!entry.onWire) continue
    totals.requests++
    if (entry.method === 'POST') totals.writes++
    const afterLostAnswer = entry.freshConnection === true || entry.fewerConnections !== undefined
    // after a connection not taken, the attempt before never left: this one is no resend
    if (entry.method === 'POST' && (entry.attempt ?? 1) > 1 && entry.connectionNotTaken === undefined) totals[afterLostAnswer ? 'resentLostWrites' : 'resentWrites']++
    // a lost answer the list accounted for (found, or not stored and sent again) is no longer unknown; one not sent again (--max-writes, the run's bound) is
    if (unansweredWrite(entry)) totals.unansweredWrites++
    if (faultAnsweredWrite(entry)) totals.faultAnsweredWrites++
    if (entry.waitedMs !== undefined) {
      totals.waits.count++
      totals.waits.totalMs += entry.waitedMs
      // the resend's dispatch ends its wait
      const end = Date.parse(entry.at)
      waited.push([end - entry.waitedMs, end])
    }
    if (entry.contentEncoding) totals.encodedAnswers[entry.contentEncoding] = (totals.encodedAnswers[entry.contentEncoding] ?? 0) + 1
  }
  totals.waits.heldMs = unionMs(waited)
  return totals
}

/** How long the intervals cover together, overlaps counted once. */
function unionMs(intervals: [number, number][]): number {
  let total = 0
  let reached = Number.NEGATIVE_INFINITY
  for (const [from, to] of intervals.sort((a, b) => a[0] - b[0])) {
    if (to > reached) total += to - Math.max(from, reached)
    reached = Math.max(reached, to)
  }
  return total
}

/** The line that closes a request: how it ended, and for a POST answered 2xx the record it created. */
export function endedLine(opened: Omit<JournalLine, 'phase' | 'at'>, exchange: Exchange, answer: string | undefined, redact: (text: string) => string): JournalLine {
  const { response, error } = exchange
  // fields set one by one, not by a spread each: a fleet of ten ends ~1,300 requests
  const line: JournalLine = { ...opened, phase: 'ended', at: new Date().toISOString() }
  if (response) line.status = response.status
  if (error) line.error = error.code
  if (error && withoutStatusLine(error)) line.noStatusLine = true
  if (response?.contentEncoding) line.contentEncoding = response.contentEncoding
  if (response?.headers['retry-after'] !== undefined) line.retryAfter = response.headers['retry-after']
  if (exchange.request.method === 'POST' && response && response.status >= 200 && response.status < 300) line.created = createdRecord(answer, exchange.request.body ?? '', redact, exchange)
  return line
}

/**
 * The most characters of a record's id, and of its name or description, the ledger keeps of what a
 * server answered or listed: an int64 is 20 at most, and the suite's names 256. A server's
 * 1,000,000-digit id or 2 MB name was kept whole in each of its ledger rows (journal.ndjson,
 * results.json, report.html: 100 MB, the run 10 s past --deadline and 1.5 GB, measured).
 */
export const LEDGER_ID_CHARACTERS = 40
export const LEDGER_TEXT_CHARACTERS = 1_000

/** `text` as a ledger row keeps it: whole up to `max` characters, else its start and its length (never half a surrogate pair). */
export function ledgerText(text: string, max: number): string {
  if (text.length <= max) return text
  const end = max - 20 - (/[\ud800-\udbff]/.test(text.charAt(max - 21)) ? 1 : 0)
  return `${text.slice(0, end)}… (${text.length} characters)`
}

/** Id and name of what a 2xx to a POST created, as far as the answer (or else the request) tells: the answer parsed once, with the checks, when its `exchange` is given (lib/json/parsed-once.ts). */
export function createdRecord(answer: string | undefined, sent: string, redact: (text: string) => string, exchange: object = {}): CreatedRecord {
  let id = '(not returned)'
  let name: string | undefined
  // an unreadable answer still goes in the ledger: a record may exist
  const parsed = parsedOnce(exchange, answer ?? '')
  const record = 'value' in parsed ? (parsed.value as Record<string, unknown>) : undefined
  if (record && typeof record === 'object' && !Array.isArray(record)) {
    if ('id' in record) id = exactIntegerTextAt(record, 'id') ?? numberText(record, 'id')
    if (typeof record.name === 'string') name = record.name
  }
  // redacted whole, then cut: a cut first could leave part of the key in what is kept
  return { id: ledgerText(redact(id), LEDGER_ID_CHARACTERS), name: ledgerText(redact(name ?? nameSent(sent)), LEDGER_TEXT_CHARACTERS) }
}

/** The name a POST's body sent, or the body itself, cut, when it names none. */
export function nameSent(sent: string): string {
  try {
    const request = JSON.parse(sent) as { name?: unknown }
    if (typeof request.name === 'string') return request.name
  } catch {
    // not JSON: shown as sent
  }
  return `(sent: ${sent.slice(0, 80)})`
}
