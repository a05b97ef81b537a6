/**
 * The connection race (RFC 9112 §9.3.1): a server may close a keep-alive connection at any time,
 * without saying so, and a request written to it as it closes gets no byte of an answer. That is
 * the transport's doing, never a verdict on the service. A GET is sent again on a fresh
 * connection; a POST only when the run can show the first was not applied (the list does not show
 * what it sent): if the list shows it, the record counts as created ("answer lost, record found").
 */
import type { Exchange } from './exchange.ts'
import { answeredBeforeOnItsConnection, firstOnItsConnection } from './first-requests.ts'
import { closesItsConnection } from './interim-answers.ts'
import { notTheServers } from './transport-errors.ts'
import { ANSWER_LOST_LIST_UNREADABLE, ANSWER_LOST_NOT_SENT_AGAIN, ANSWER_LOST_RESENDS_SPENT, UNANSWERED_ALONE, LEDGER_ID_CHARACTERS, LEDGER_TEXT_CHARACTERS, ledgerText, type JournalLine } from './journal.ts'

/** What the client's HttpResult holds that these need (lib/http/client.ts imports this file, so not that type). */
interface HttpResult {
  exchange: Exchange
  text?: string
  answerLost?: AppliedOrNot
}

/** What the list says of a POST whose answer was lost. */
export interface AppliedOrNot {
  /** The list read to find out, as evidence. */
  list: HttpResult
  /** The record this POST stored, as the list shows it; undefined: the list shows none, so it was not applied. */
  record?: { id: string; name: string; value: unknown }
  /**
   * The request was the first written on its connection (lib/http/first-requests.ts): a record
   * stored with no answer there is the server's fault, not the race, which needs a connection
   * that carried an earlier request.
   */
  firstOnItsConnection?: boolean
  /**
   * The list does not show it, and it was not sent again: a budget the user gave (--max-writes)
   * bounds every POST that may have stored a record, and a list may show one late (--list-lag);
   * without one, the run sends at most as many POSTs again after lost answers as its plan has
   * POSTs ('resends-spent'). Its checks are not verified: it may or may not have been stored.
   */
  notSentAgain?: NotSentAgain
  /** The times it went unanswered alone (lib/http/unanswered-alone.ts), and the list does not show it: not sent again, its checks fail. */
  unansweredAlone?: number
  /** The list was read but could not tell (not answered 200 with an array): `list` is that read (afterTheRace: whether it said anything of the server). */
  untold?: true
}

/**
 * Why a lost POST the list does not show was not sent again: --max-writes, or the run's bound of
 * such resends was reached; 'unavailable': a POST answered 503 under --max-writes
 * (stored-despite-unavailable.ts); 'list-unreadable': the list could not tell (not answered 200
 * with an array), so sending it again could store it twice, and the request before it on its
 * connection was answered with a 5xx (closedAfterAFault: the server closed it after a fault), or
 * the server closed it with a 408 as it was written (closedWith408: its idle close, said so).
 */
export type NotSentAgain = 'max-writes' | 'resends-spent' | 'unavailable' | 'list-unreadable'

/** Reads whether a POST was applied; undefined or `untold`: the run cannot tell (the list could not be read), so it is not sent again. */
export type WhetherApplied = () => Promise<AppliedOrNot | undefined>

/** Resends of a request the connection race lost: on a fresh connection, then with half as many at once (64 to 1: six), and a few at one. */
export const LOST_ANSWER_RESENDS = 10

/**
 * What the race took of a run's requests written on a connection that carried an earlier one:
 * those the server had not stored (a GET, a POST the list does not show). The race loses what is
 * written as the connection closes, whatever it is, read or not; a server that stores a create and
 * then closes instead of answering loses only what it stored (suites/categories/kept-alive-creates.ts).
 */
export interface RaceMarks {
  lostUnstored: number
}

/** The journal's words for a POST whose answer was lost but whose record the list shows. */
export const ANSWER_LOST_RECORD_FOUND = 'answer lost, record found'
/** The journal's words for a POST the server stored and left unanswered on a connection that carried no request before it. */
export const STORED_UNANSWERED = 'no answer, record found, on a connection that carried no request before: the server\'s fault, not the keep-alive race'
/** The journal's words for a POST whose answer was lost and that the list shows was not applied. */
export const ANSWER_LOST_SENT_AGAIN = 'answer lost, not stored: sent again on a fresh connection'

/**
 * No byte of an answer came and the connection was closed under the request: the race, as far as a
 * client can tell it (a body cut short after its status line is INCOMPLETE_BODY, not this).
 */
export function lostInTransit(exchange: Exchange): boolean {
  return exchange.response === undefined && exchange.error?.code === 'CONNECTION_RESET'
}

/**
 * A 408 Request Timeout that closes a connection which carried an earlier request: the server's
 * notice that it closed the idle connection, written as this request went out on it (some servers
 * and proxies write one before closing an idle keep-alive connection; browsers then send the
 * request again on a fresh connection). RFC 9110 §15.5.9: "If the client has an outstanding
 * request in transit, it MAY repeat that request." The keep-alive race with words: the request
 * counts as lost in transit (lostInTransit), and goes again as afterTheRace allows. On a fresh
 * connection a 408 is the server's answer, and judged.
 */
export function idleTimeoutNotice(exchange: Exchange, firstOnItsConnection: boolean): boolean {
  const response = exchange.response
  return response?.status === 408 && !firstOnItsConnection && closesItsConnection(response.headers.connection, response.httpVersion === '1.0')
}

/** The result as the client keeps it: a 408 that is an idle connection's notice (idleTimeoutNotice) is no answer, the connection closed under the request. */
export function idleNoticeAsLost<R extends HttpResult>(result: R): R | HttpResult {
  const { exchange } = result
  if (!idleTimeoutNotice(exchange, firstOnItsConnection(exchange.request.headers.traceparent))) return result
  delete exchange.response
  exchange.error = { code: 'CONNECTION_RESET', message: `connection closed before a complete response (${IDLE_TIMEOUT_NOTICE})`, status: 408 }
  return { exchange }
}

/** Whether a request's connection closed under it with a 408 (idleNoticeAsLost), not silently. */
export const closedWith408 = (exchange: Exchange): boolean => exchange.response === undefined && exchange.error?.code === 'CONNECTION_RESET' && exchange.error.status === 408

/** The words of a request whose connection the server closed with a 408 as it was written (idleTimeoutNotice). */
export const IDLE_TIMEOUT_NOTICE = 'the server answered 408 Request Timeout and closed the connection as the request was written on it, after an earlier answer there: its notice that it closed the idle connection (the keep-alive race)'

/**
 * Whether a list read that could not tell said nothing of the server: a limit's 429 or a pause's
 * 503 with Retry-After (never a verdict, retry-after.ts), or a read the run cut or kept back (its
 * deadline: transport-errors.ts notTheServers). Any other answer, or none in time, is the server's.
 */
export const listSaidNothing = ({ exchange }: HttpResult): boolean =>
  exchange.response ? exchange.response.status === 429 || (exchange.response.status === 503 && exchange.response.headers['retry-after'] !== undefined) : exchange.error !== undefined && notTheServers(exchange.error.code) !== undefined

/** Whether the request written before this one on its connection was answered with a 5xx (first-requests.ts; false: not, or not known). */
export function closedAfterAFault(exchange: Exchange): boolean {
  const status = answeredBeforeOnItsConnection(exchange.request.headers.traceparent)
  return status !== undefined && status >= 500 && status <= 599
}

/** Why a POST lost behind a list that could not tell is not the server's fault ('list-unreadable'), in words: what closed its connection, or what the list said. */
export function untoldWords(result: HttpResult): string {
  const { exchange } = result
  if (closedWith408(exchange)) return 'the server closed the connection with a 408 as it was written, its notice of an idle close (the keep-alive race)'
  if (closedAfterAFault(exchange)) return "the connection's earlier request had been answered with a 5xx (a server that closes its connection after a fault's answer without Connection: close, as uvicorn does)"
  const list = result.answerLost?.list.exchange
  const said = list?.response ? `answered ${list.response.status}` : `not answered (${list?.error?.message ?? 'cut'})`
  return `the list read to tell was ${said}, which says nothing of the server (a limit, a pause, or the run's deadline), so the keep-alive race is not ruled out`
}

/** Why the checks that judge the answer itself are not verified when the answer was lost and the record found (none when it was no race). */
export function answerLostReason(result: HttpResult): string | undefined {
  if (!result.answerLost?.record || result.answerLost.firstOnItsConnection) return undefined
  return `not verified: the answer was lost in transit (the connection closed under the request before any byte of it came, ${result.exchange.error?.message ?? ''}); the list shows the record was created (${ANSWER_LOST_RECORD_FOUND})`
}

/** The journal's line for what the list showed of a POST whose answer was lost, or not to be trusted (a 503, stored-despite-unavailable.ts). */
export function answerLostLine(exchange: Exchange, detail: string, record: { id: string; name: string } | undefined, redact: (text: string) => string): JournalLine {
  return {
    id: exchange.id,
    phase: 'answer-lost',
    at: new Date().toISOString(),
    method: exchange.request.method,
    url: redact(exchange.request.url),
    detail,
    ...(record ? { created: { id: ledgerText(redact(record.id), LEDGER_ID_CHARACTERS), name: ledgerText(redact(record.name), LEDGER_TEXT_CHARACTERS) } } : {}),
  }
}

/**
 * What the client does with a request the race lost (lostInTransit): true, send it again. A GET
 * is; a POST when the list shows it was not applied, unless the user bounded the writes
 * (`boundedWrites`, --max-writes): the list may show late what the POST stored (a read replica,
 * --list-lag), and a server that stored it and dropped the connection would store it again, past
 * the budget (every create eleven times: 22 records for --max-writes 2). Without a budget, once the
 * run has sent as many POSTs again as its plan has (`noResend`: 'resends-spent'), none is: a default
 * run against such a server sent 1642 POSTs and stored 660 records. When the list shows its
 * record, the result counts as created (answerLost: "answer lost, record found"); when the list
 * cannot tell, it stands as it is. What the list showed is journalled.
 */
export async function afterTheRace(
  options: { method: string; whetherApplied?: WhetherApplied; noResend?: NotSentAgain; alone?: { confirmed(list: HttpResult): number | undefined } },
  result: HttpResult,
  journal: (line: JournalLine) => void,
  redact: (text: string) => string,
  firstOnItsConnection = false,
  marks?: RaceMarks,
): Promise<boolean> {
  // the race's mark on a reused connection: a request it took that the server had not stored
  const unstored = () => {
    if (marks && !firstOnItsConnection) marks.lostUnstored++
  }
  if (options.method === 'GET') {
    unstored()
    return true
  }
  const found = await options.whetherApplied?.()
  if (!found || found.untold) {
    // the list could not tell (a store that took a value it cannot give back answers every list 500): on a connection whose
    // earlier request was answered with a 5xx (uvicorn closes one after a 500, without Connection: close), the close's, not the
    // server's answer, and the run cannot say whether it was stored: not sent again, not judged. After any other answer, no
    // server closed it for a fault: the lost answer stands, a failure (review48: a server that stores a POST and drops its
    // answer, behind a list that answers 500, passed). A 408 that closed it is the server's notice of its idle close, the race
    // in its words (idleNoticeAsLost), and so is a list that said nothing of the server (a limit's 429, a read the run's deadline
    // cut: listSaidNothing): neither a fault of the service (review51)
    const why = closedAfterAFault(result.exchange) || closedWith408(result.exchange) || (found !== undefined && listSaidNothing(found.list))
    if (options.whetherApplied && !firstOnItsConnection && options.alone === undefined && why) {
      journal(answerLostLine(result.exchange, ANSWER_LOST_LIST_UNREADABLE, undefined, redact))
      result.answerLost = { list: found?.list ?? result, notSentAgain: 'list-unreadable' }
    }
    return false
  }
  if (!found.record) unstored()
  // unanswered alone, confirmed (the list read after it answered at once, unanswered-alone.ts): the server's, and not sent again; stored, as a request first on its connection
  const alone = found.record ? undefined : options.alone?.confirmed(found.list)
  const notSentAgain = found.record || alone ? undefined : options.noResend
  const first = firstOnItsConnection || options.alone !== undefined
  const applied: AppliedOrNot = found.record && first ? { ...found, firstOnItsConnection: true } : alone ? { ...found, unansweredAlone: alone } : notSentAgain ? { ...found, notSentAgain } : found
  const detail = applied.record ? (applied.firstOnItsConnection ? STORED_UNANSWERED : ANSWER_LOST_RECORD_FOUND) : alone ? UNANSWERED_ALONE : notSentAgain === 'max-writes' ? ANSWER_LOST_NOT_SENT_AGAIN : notSentAgain ? ANSWER_LOST_RESENDS_SPENT : ANSWER_LOST_SENT_AGAIN
  journal(answerLostLine(result.exchange, detail, applied.record, redact))
  if (applied.record || notSentAgain || alone) result.answerLost = applied
  return !applied.record && !notSentAgain && !alone
}
