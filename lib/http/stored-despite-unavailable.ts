/**
 * A POST answered 503 is sent again after its wait (RFC 9110 §15.6.4: the server could not handle
 * it), and so it is by a limiter (nginx's limit_req). But a proxy answers 503 of a request its
 * service did handle when the service's answer is lost on the way back (Envoy, as Istio runs it:
 * "upstream connect error or disconnect/reset before headers"), and a service may commit and then
 * answer 503 itself. Under --max-writes, where the user promised a service a bound, each resend of
 * such a POST stored one more record: --max-writes 6 sent 23 POSTs and stored 19 records, and the
 * reports said none was created. So before a POST answered 503 goes again under --max-writes, the
 * list is read once: a record it shows is the POST's (every POST names itself with the run's
 * prefix), counted as created, and the POST is not sent again; the 503 stays its answer, judged as
 * any. A list that does not show it (a limiter's 503), or cannot be read, lets it go again as before.
 */
import type { HttpResult, SendOptions } from './client-options.ts'
import type { JournalLine } from './journal.ts'
import { answerLostLine } from './lost-answer.ts'

/** The journal's words for a POST answered 503 whose record the list showed (the ledger's status cell too). */
export const UNAVAILABLE_RECORD_FOUND = 'answered 503, record found: not sent again (--max-writes)'

/** Whether the POST answered 503 was stored all the same; when it was, its record is journalled as created. */
export async function storedDespiteUnavailable(options: Pick<SendOptions, 'method' | 'whetherApplied'>, result: HttpResult, journal: (line: JournalLine) => void, redact: (text: string) => string): Promise<boolean> {
  const found = await options.whetherApplied?.()
  if (!found?.record) return false
  journal(answerLostLine(result.exchange, UNAVAILABLE_RECORD_FOUND, found.record, redact))
  return true
}
