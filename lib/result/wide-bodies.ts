/**
 * POSTs left unanswered for what their bodies hold: every one that got no answer carried bytes
 * beyond ASCII, and every one of ASCII alone was answered. Measured (stackhunt6) on a Java service
 * on a bare ServerSocket reading Content-Length characters through an InputStreamReader: a body of
 * characters wider than a byte has fewer characters than bytes, so the read waits for characters
 * that never come until the socket's timeout closes it. Its failures read "connection closed before
 * a complete response" with no cause. Said only when the run's own requests show it both ways.
 */
import type { JournalEntry } from '../http/journal.ts'

/** Fewer POSTs than this on either side say too little. */
const ENOUGH = 3

/** A request body that holds a byte past 0x7F: text with a character beyond ASCII, or bytes that are not UTF-8. */
const beyondAscii = (e: JournalEntry) => e.bodyBase64 !== undefined || /[^\x00-\x7f]/.test(e.body ?? '')

/** No answer from the server: on the wire, and ended without a status line for a reason the server gave (not the run's deadline). */
const unanswered = (e: JournalEntry) => e.outcome === 'failed' && e.status === undefined && e.error !== undefined && !['DEADLINE', 'STALLED', 'UNSENDABLE', 'WRONG_PORT'].includes(e.error)

/**
 * The words for unanswered POSTs that all held bytes beyond ASCII while every POST of ASCII alone
 * was answered, and nothing else went unanswered; undefined when the journal does not show that.
 */
export function unansweredWideBodies(journal: readonly JournalEntry[]): string | undefined {
  const sent = journal.filter((e) => e.onWire)
  const posts = sent.filter((e) => e.method === 'POST' && (e.body ?? '') !== '')
  const lost = sent.filter(unanswered)
  const wide = lost.filter((e) => e.method === 'POST' && beyondAscii(e))
  const narrow = posts.filter((e) => !beyondAscii(e))
  // such a server answers no body of wider characters, ever: one answered says the others went unanswered for another reason (a drop, a slow moment)
  const wideAnswered = posts.some((e) => e.bodyBase64 === undefined && beyondAscii(e) && e.status !== undefined)
  if (wide.length < ENOUGH || wide.length !== lost.length || narrow.length < ENOUGH || narrow.some(unanswered) || wideAnswered) return undefined
  return (
    `every request that got no answer was a POST whose body held bytes beyond ASCII (${wide.length}), and each of the ${narrow.length} POSTs of ASCII alone was answered, ` +
    "as a server that counts Content-Length in characters rather than bytes answers (a Reader over the socket: Java's InputStreamReader): it waits for more than a body of wider characters holds, " +
    'until its timeout closes the connection; read Content-Length bytes (readNBytes), then decode them'
  )
}
