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
  exchanges: readonly { response?: { body: string } }[]
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

/** What a fault group's rate is followed by when its failures were answers to an unread body ('' when none was): the requests that left theirs. */
export function unreadBodyWords(checks: readonly CheckResult[], journal: readonly JournalEntry[]): string {
  const posts = journal.filter((e) => e.method === 'POST' && e.onWire && e.body)
  const atFault = new Map<string, number>()
  for (const check of checks) {
    for (const exchange of check.exchanges) {
      const line = QUOTED_REQUEST_LINE.exec(exchange.response?.body ?? '')?.[2]
      const post = line === undefined ? undefined : requestQuoted(line, posts)
      if (!post) continue
      const credential = post.headers?.authorization === KEY_AUTHORIZATION ? '' : post.headers?.authorization === undefined ? ' without a key' : ' with a wrong key'
      const words = `POST ${new URL(post.url).pathname}${credential} answered ${post.status ?? 'nothing'}`
      atFault.set(words, (atFault.get(words) ?? 0) + 1)
    }
  }
  if (atFault.size === 0) return ''
  const requests = [...atFault].map(([words, n]) => (n === 1 ? words : `${words} (${n} times)`)).join('; ')
  return `, to the body of the request before it on its connection, which its answer left unread (${requests})`
}
