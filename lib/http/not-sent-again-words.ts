/**
 * The journal's words for a POST answered 503 or 429 that the list was read for before it went
 * again (lib/http/stored-despite-unavailable.ts); lib/http/journal.ts counts by them.
 */

/**
 * The journal's words for a POST answered 503 that the list does not show and that an explicit
 * --max-writes keeps from going again (lib/http/stored-despite-unavailable.ts): a 503 may come after
 * the store, so it may have created a record, counted with the POSTs answered with a server fault.
 */
export const UNAVAILABLE_NOT_SENT_AGAIN = 'answered 503, not in the list (which may show it late): not sent again under --max-writes, so it may have created a record'

/**
 * The same of a POST answered 429: RFC 6585 §4 says the client sent too many requests, not that this
 * one was not processed (a quota counted after the handler stores it and answers 429).
 */
export const LIMITED_NOT_SENT_AGAIN = 'answered 429, not in the list (which may show it late): not sent again under --max-writes, so it may have created a record'

/** The journal's words for a POST answered 429 whose record the list showed (the ledger's status cell too). */
export const LIMITED_RECORD_FOUND = 'answered 429, record found: not sent again'

/**
 * The journal's words for a POST that went unanswered alone three times (lib/http/unanswered-alone.ts) and
 * that the list does not show: not sent again, its checks fail, and it may have created a record.
 */
export const UNANSWERED_ALONE = 'no answer, not in the list (which may show it late), sent alone three times: each time the first request on the only connection open to the server, its body written whole, and closed before any byte of an answer, the list read right after it answered at once: the server\'s fault, neither the keep-alive race nor a limit on connections; not sent again, so it may have created a record'
