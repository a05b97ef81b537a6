/**
 * The connection race (RFC 9112 §9.3.1): a server may close a keep-alive connection at any time,
 * without saying so, and a request written to it as it closes gets no byte of an answer. That is
 * the transport's doing, never a verdict on the service. A GET is sent again on a fresh
 * connection; a POST only when the run can show the first was not applied (the list does not show
 * what it sent): if the list shows it, the record counts as created ("answer lost, record found").
 */
import type { HttpResult } from './client.ts'
import type { Exchange } from './exchange.ts'

/** What the list says of a POST whose answer was lost. */
export interface AppliedOrNot {
  /** The list read to find out, as evidence. */
  list: HttpResult
  /** The record this POST stored, as the list shows it; undefined: the list shows none, so it was not applied. */
  record?: { id: string; name: string; value: unknown }
}

/** Reads whether a POST was applied; undefined: the run cannot tell (the list could not be read), so it is not sent again. */
export type WhetherApplied = () => Promise<AppliedOrNot | undefined>

/** The journal's words for a POST whose answer was lost but whose record the list shows. */
export const ANSWER_LOST_RECORD_FOUND = 'answer lost, record found'
/** The journal's words for a POST whose answer was lost and that the list shows was not applied. */
export const ANSWER_LOST_SENT_AGAIN = 'answer lost, not stored: sent again on a fresh connection'

/**
 * No byte of an answer came and the connection was closed under the request: the race, as far as a
 * client can tell it (a body cut short after its status line is INCOMPLETE_BODY, not this).
 */
export function lostInTransit(exchange: Exchange): boolean {
  return exchange.response === undefined && exchange.error?.code === 'CONNECTION_RESET'
}

/** Why the checks that judge the answer itself are not verified when the answer was lost and the record found. */
export function answerLostReason(result: HttpResult): string | undefined {
  if (!result.answerLost?.record) return undefined
  return `not verified: the answer was lost in transit (the connection closed under the request before any byte of it came, ${result.exchange.error?.message ?? ''}); the list shows the record was created (${ANSWER_LOST_RECORD_FOUND})`
}
