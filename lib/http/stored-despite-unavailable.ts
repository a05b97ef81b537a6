/**
 * A POST answered 503 is sent again after its wait (RFC 9110 §15.6.4: the server could not handle
 * it), and so it is by a limiter (nginx's limit_req). But a proxy answers 503 of a request its
 * service did handle when the service's answer is lost on the way back (Envoy, as Istio runs it:
 * "upstream connect error or disconnect/reset before headers"), and a service may commit and then
 * answer 503 itself. Each resend of such a POST stored one more record: under --max-writes 6, 23
 * POSTs and 19 records, and the reports said none was created; without it, a POST went again up to
 * 40 times, each a record in the service's store. So before a POST answered 503 goes again, the
 * list is read once: a record it shows is the POST's (every POST names itself with the run's
 * prefix), counted as created, and the POST is not sent again; the 503 stays its answer, judged as
 * any. A list that does not show it (a limiter's 503), or cannot be read, lets it go again as
 * before. Without --max-writes the lists stop after three, unless one showed a POST answered 503
 * stored: a limiter stores nothing, and a list read for each POST it turned away made a run behind
 * one 40 % longer (5.4 s became 8 s, 150 requests more, against variant rate-limited-503-like-nginx).
 * Under --max-writes every such POST is looked for, and one the list does not show is not sent
 * again, as a POST whose answer was lost is not (lost-answer.ts): a list may show a record late (a
 * read replica), and a service that stored each create and answered 503 behind one that showed
 * records a while later got 68 POSTs and stored 20 records under --max-writes 6, the reports
 * saying none was created. Its checks are not verified; it counts as a POST that may have created
 * a record (the journal's UNAVAILABLE_NOT_SENT_AGAIN). A limiter's 503 under --max-writes costs
 * those checks: --rate-limit under its limit spares them.
 * A POST answered 429 is looked for alike: RFC 6585 §4 says the client sent too many, not that this
 * one was not processed, and a quota counted after the handler stores the create and answers 429
 * (under --max-writes 6, 40 POSTs and 36 records in 15 s, when a 429's resends took no place of the
 * budget). Found, it counts as created and its 429 is judged as any answer: a limit (§8) is a request
 * refused, and this one was processed (mutation create-stored-answered-429, which passed unjudged).
 */
import type { HttpResult, SendOptions, UnavailableReads } from './client-options.ts'
import { LIMITED_NOT_SENT_AGAIN, LIMITED_RECORD_FOUND, UNAVAILABLE_NOT_SENT_AGAIN, type JournalLine } from './journal.ts'
import { answerLostLine } from './lost-answer.ts'

/** The journal's words for a POST answered 503 whose record the list showed (the ledger's status cell too). */
export const UNAVAILABLE_RECORD_FOUND = 'answered 503, record found: not sent again'

/** Lists read for POSTs answered 503, none of which showed one stored, after which a run without --max-writes reads no more of them. */
const LOOKS_WITHOUT_ONE_STORED = 3

/**
 * Whether a POST answered 503 is worth a list read before it goes again: always under --max-writes,
 * else while the service may store such POSTs. Counted as the reads begin: a limiter turns a burst
 * of POSTs away at once, and their reads would all begin before the first ended.
 */
export function worthLooking(reads: UnavailableReads, boundedWrites: boolean): boolean {
  if (!boundedWrites && !reads.stored && reads.begun >= LOOKS_WITHOUT_ONE_STORED) return false
  reads.begun++
  return true
}

/**
 * What is done with a POST answered 503 once the list was read for it: undefined, it goes again;
 * else the result the send returns. The list shows it stored: its record is journalled as created,
 * and the 503 stays its answer, judged as any. Under --max-writes (`bounded`) the list does not
 * show it, or cannot tell: it is journalled as one that may have created a record, and its answer
 * is taken off the result, so that its checks are not verified (the exchange keeps it as evidence).
 * `reads`: the run's tally, updated.
 */
export async function storedDespiteUnavailable(options: Pick<SendOptions, 'method' | 'whetherApplied'>, result: HttpResult, journal: (line: JournalLine) => void, redact: (text: string) => string, reads: UnavailableReads, bounded: boolean): Promise<HttpResult | undefined> {
  const reading = options.whetherApplied?.()
  const inFlight = (reads.reading ??= new Set())
  if (reading) inFlight.add(reading)
  const found = await reading?.finally(() => inFlight.delete(reading))
  const limited = result.exchange.response?.status === 429
  if (found?.record) {
    reads.stored = true
    journal(answerLostLine(result.exchange, limited ? LIMITED_RECORD_FOUND : UNAVAILABLE_RECORD_FOUND, found.record, redact))
    // judged as any answer: a limit (§8) refuses a request, and this one was processed, its record
    // stored; left unjudged, a service that stored every create and answered each 429 passed
    return { ...result, storedDespite: true }
  }
  if (!bounded) return undefined
  journal(answerLostLine(result.exchange, limited ? LIMITED_NOT_SENT_AGAIN : UNAVAILABLE_NOT_SENT_AGAIN, undefined, redact))
  const list = found && !found.untold ? 'does not show its record, but a list may show one late' : 'could not be read to tell'
  const message = limited
    ? `answered 429, and under --max-writes not sent again: the list ${list}, and a 429 says the client sent too many, not that this one was not processed (RFC 6585 §4; a quota counted after the handler), so it may have created a record. --rate-limit under the server's limit spares these`
    : `answered 503, and under --max-writes not sent again: the list ${list}, and a 503 may come after the store (a proxy that lost its service's answer), so it may have created a record. A gateway's limit answers 503 too: --rate-limit under it spares these`
  return { exchange: { ...result.exchange, response: undefined, error: { code: 'DEADLINE', message } }, answerLost: { list: found?.list ?? result, notSentAgain: 'unavailable' } }
}

/**
 * Whether one of the lists read for POSTs answered 503 showed such a POST stored, once those begun
 * have ended. A POST past the first reads goes again after its wait; had it gone while they were
 * still being read (a loaded machine, a slow list), a POST the service had stored went twice, and
 * so two records for one POST: which did depended on how fast the list came (85 POSTs, 83 bodies).
 */
export async function oneShowedStored(reads: UnavailableReads): Promise<boolean> {
  while (!reads.stored && reads.reading && reads.reading.size > 0) await Promise.allSettled([...reads.reading])
  return reads.stored
}
