/**
 * Stray answers, as the run's journal records them: bytes a server wrote on a kept-alive connection
 * after an answer had ended and before the next request went out there (lib/http/interim-answers.ts
 * tells of them). No request asked for them: RFC 9112 §6.3, "A client MUST NOT process, cache, or
 * forward such extra data as a separate response". Read by the next request on the connection, as
 * undici read them, they were taken for its answer, and the rule that request served failed
 * "intermittently" for a fault of the answer before it. The connection is closed instead, and the
 * journal gets a line on the request whose answer they followed ('stray-answer', the bytes as
 * evidence). A stray written once the next request is out is read as that one's answer, which no
 * client can tell (the next request then reads this one's, and so on until the connection idles or
 * closes): once a run has met a stray answer, every answer it read on a connection that carried an
 * earlier request is in doubt, and gets a line with no bytes. The run's result makes one problem of
 * the stray answers, and the failures answers in doubt gave are not verified (lib/result/stray-answers.ts).
 */
import { subscribe } from 'node:diagnostics_channel'
import type { Exchange } from './exchange.ts'
import { firstOnItsConnection } from './first-requests.ts'
import { STRAY_ANSWERS, type StrayAnswer } from './interim-answers.ts'
import type { JournalListener } from './journal.ts'

/** Requests remembered by traceparent, the latest last (a long-lived process keeps only so many). */
const KEPT = 20_000

/** What the journal's line names of a request: not its Exchange, which holds its answer's body for as long as it is kept here. */
interface Written {
  id: string
  method: string
  url: string
  journal: JournalListener
  redact: (text: string) => string
}
const written = new Map<string, Written>()
/** The journals of runs that met a stray answer. */
const strayed = new WeakSet<JournalListener>()
let listening = false

/** The bytes (read as Latin-1, a byte a character) as text: printable ASCII as it is, CR and LF as \r and \n, every other byte as \xHH. */
export function strayBytesText(text: string): string {
  return Array.from(text, (c) => {
    const b = c.charCodeAt(0)
    return b === 0x0d ? '\\r' : b === 0x0a ? '\\n' : b >= 0x20 && b < 0x7f && b !== 0x5c ? c : `\\x${b.toString(16).padStart(2, '0')}`
  }).join('')
}

/**
 * The journal's line on a request: the bytes after its answer, or none for an answer in doubt. The
 * key is hidden before the bytes are written out: a key with a backslash (visible ASCII, as
 * lib/config/api-key.ts takes it) written out as \x5c was no form the redactor knows.
 */
function journalled({ id, method, url, journal, redact }: Written, bytes: string): void {
  journal.record({ id, phase: 'stray-answer', at: new Date().toISOString(), method, url: redact(url), detail: strayBytesText(redact(bytes)) })
}

/** An answer in doubt: read on a connection that carried an earlier request, in a run that met a stray answer. */
function inDoubt(traceparent: string, request: Written): void {
  if (!firstOnItsConnection(traceparent)) journalled(request, '')
}

function heard(stray: StrayAnswer): void {
  const after = stray.traceparent === undefined ? undefined : written.get(stray.traceparent)
  if (!after) return
  journalled(after, stray.bytes.toString('latin1'))
  if (strayed.has(after.journal)) return
  strayed.add(after.journal)
  for (const [traceparent, request] of written) if (request.journal === after.journal) inDoubt(traceparent, request)
}

/** A request went out (its head about to be written): bytes that come after its answer's end, before the next request there, are journalled on it. */
export function strayAnswersAfter(exchange: Exchange, journal: JournalListener, redact: (text: string) => string): void {
  const traceparent = exchange.request.headers.traceparent
  if (traceparent === undefined) return
  if (!listening) {
    listening = true
    subscribe(STRAY_ANSWERS.name, (message) => heard(message as StrayAnswer))
  }
  const request = { id: exchange.id, method: exchange.request.method, url: exchange.request.url, journal, redact }
  written.set(traceparent, request)
  if (written.size > KEPT) written.delete(written.keys().next().value as string)
  // whether it was the first on its connection is known once its head is written, in the same turn
  if (strayed.has(journal)) queueMicrotask(() => inDoubt(traceparent, request))
}
