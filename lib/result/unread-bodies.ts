/**
 * Answers that a server read out of the body of an earlier request on their kept-alive connection:
 * Python's http.server names what it read as a request line in its 400 or 501 page, and that text
 * starts with the body of a request the service answered without reading it (an early 401 or 404).
 * The failures fall on whichever request came next on the connection, a different one from run to
 * run; the request at fault is the one whose body the page quotes, found in the run's journal.
 */
import type { JournalEntry } from '../http/journal.ts'
import { KEY_AUTHORIZATION } from '../http/redact.ts'

/** A check as this module reads it: its exchanges' answers (run-result.ts's CheckResult, which imports this module's importers). */
interface CheckResult {
  exchanges: readonly { response?: { body: string; status?: number }; afterOnItsConnection?: string }[]
}

/** The request line Python's send_error page quotes, as repr() writes it (the message is HTML-escaped, quotes kept). */
const QUOTED_REQUEST_LINE = /(?:Unsupported method|Bad request syntax|Bad request version) \((['"])(.*?)\1\)\.?<\/p>/s

/** The text repr() and html.escape() wrote, read back: enough of it to find the body it starts with. */
const unquoted = (text: string) =>
  text
    .replace(/\\(['"\\])/g, '$1')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')

/** The request whose body a page quotes: the POST of the journal with the longest body the quoted text starts with. */
function requestQuoted(line: string, posts: readonly JournalEntry[]): JournalEntry | undefined {
  const text = unquoted(line)
  let found: JournalEntry | undefined
  for (const post of posts) if (post.body && text.startsWith(post.body) && post.body.length > (found?.body?.length ?? 0)) found = post
  return found
}

/** The POST whose body an answer's page quotes as the request line it read (an answer to the body the service left unread), if any. */
export function unreadBodyQuoted(page: string, journal: readonly JournalEntry[]): JournalEntry | undefined {
  const line = QUOTED_REQUEST_LINE.exec(page)?.[2]
  return line === undefined ? undefined : requestQuoted(line, journal.filter((e) => e.method === 'POST' && e.onWire && e.body))
}

/** How the journal names a POST: its path and its credential, and its answer. */
function postWords(post: JournalEntry): string {
  const credential = post.headers?.authorization === KEY_AUTHORIZATION ? '' : post.headers?.authorization === undefined ? ' without a key' : ' with a wrong key'
  return `POST ${new URL(post.url).pathname}${credential} answered ${post.status ?? 'nothing'}`
}

/** "a; b (2 times)": the requests at fault, each once with its count. */
function counted(atFault: ReadonlyMap<string, number>): string {
  return [...atFault].map(([words, n]) => (n === 1 ? words : `${words} (${n} times)`)).join('; ')
}

/**
 * Answers a service gives on a request's head alone, before its body (the key refused, no such route or method,
 * no length or one too large, a media type or an expectation refused, a head too large). Not a 400: most are
 * given to a body read and refused, and a conforming service answers most of the run's POSTs so, so a fault
 * of another cause would be put down to them.
 */
const ON_THE_HEAD: ReadonlySet<number> = new Set([401, 403, 404, 405, 411, 413, 415, 417, 431])

/**
 * What a request gets whose line starts with a body left unread before it ('{"name":"x"}GET /v1/…'):
 * 400, 501 (an unknown method), 505 (an unknown version), or no answer (the connection closed). Not
 * a 500 nor a wrong record: one replica of four gives those at random, and at --concurrency 1 a run's
 * eight POSTs answered 401 on the head are each followed by a request on their one connection (review42).
 */
const GARBLED: ReadonlySet<number> = new Set([400, 501, 505])

/**
 * A server that answers a request before reading its body (an early 401, its key checked first, a
 * 404 or a 413) and keeps the connection reads that body as the start of the next request there,
 * and answers that one with whatever the mixture makes of it (a 400, a 501, the connection closed):
 * its failures fall on whichever request came next, another on each probe, and read as one replica
 * behind a balancer (early13). Told from the run's own record when the page quotes nothing: each
 * failed answer came next on its connection (first-requests.ts) after a POST answered without
 * storing, on its head alone (ON_THE_HEAD). Words to follow a group's rate ('' when not every failed check
 * came so).
 */
export function afterUnreadBodyWords(checks: readonly CheckResult[], journal: readonly JournalEntry[]): string {
  const posts = new Map<string, JournalEntry>()
  for (const e of journal) {
    const traceparent = e.headers?.traceparent
    if (e.method === 'POST' && e.onWire && e.body && traceparent !== undefined && e.status !== undefined && ON_THE_HEAD.has(e.status)) posts.set(traceparent, e)
  }
  if (posts.size === 0) return ''
  const atFault = new Map<string, number>()
  for (const check of checks) {
    const failed = check.exchanges.filter((e) => e.response?.status === undefined || GARBLED.has(e.response.status))
    const post = failed.map((e) => (e.afterOnItsConnection === undefined ? undefined : posts.get(e.afterOnItsConnection))).find((p) => p !== undefined)
    if (!post) return ''
    atFault.set(postWords(post), (atFault.get(postWords(post)) ?? 0) + 1)
  }
  return (
    `: each failed answer was to the next request on its connection after a POST answered on its head alone (${counted(atFault)}), whose body the service may have left unread: ` +
    'a service that answers a request before reading its body (the key checked first, a 404 or a 413 on the head alone) and keeps the connection open reads that body as the start of the next request, ' +
    'which then gets whatever the mixture makes of it; read the body whole, or discard it, before the next request, or close the connection after such an answer (RFC 9112 §9.3: a server must read the whole body or close the connection)'
  )
}

/** What a fault group's rate is followed by when its failures were answers to an unread body ('' when none was): the requests that left theirs. */
export function unreadBodyWords(checks: readonly CheckResult[], journal: readonly JournalEntry[]): string {
  const posts = journal.filter((e) => e.method === 'POST' && e.onWire && e.body)
  const atFault = new Map<string, number>()
  for (const check of checks) {
    for (const exchange of check.exchanges) {
      const line = QUOTED_REQUEST_LINE.exec(exchange.response?.body ?? '')?.[2]
      const post = line === undefined ? undefined : requestQuoted(line, posts)
      if (!post) continue
      atFault.set(postWords(post), (atFault.get(postWords(post)) ?? 0) + 1)
    }
  }
  if (atFault.size === 0) return ''
  return `, to the body of the request before it on its connection, which its answer left unread (${counted(atFault)})`
}
