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
 * Under --max-writes every such POST is looked for, as promised.
 */
import type { HttpResult, SendOptions, UnavailableReads } from './client-options.ts'
import type { JournalLine } from './journal.ts'
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

/** Whether the POST answered 503 was stored all the same; when it was, its record is journalled as created. `reads`: the run's tally, updated. */
export async function storedDespiteUnavailable(options: Pick<SendOptions, 'method' | 'whetherApplied'>, result: HttpResult, journal: (line: JournalLine) => void, redact: (text: string) => string, reads: UnavailableReads): Promise<boolean> {
  const reading = options.whetherApplied?.()
  const inFlight = (reads.reading ??= new Set())
  if (reading) inFlight.add(reading)
  const found = await reading?.finally(() => inFlight.delete(reading))
  if (!found?.record) return false
  reads.stored = true
  journal(answerLostLine(result.exchange, UNAVAILABLE_RECORD_FOUND, found.record, redact))
  return true
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
