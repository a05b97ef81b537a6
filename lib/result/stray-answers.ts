/**
 * Stray answers as the run's one problem (lib/http/stray-answers.ts journals them): the server wrote
 * bytes on a kept-alive connection after an answer had ended and before the next request went out
 * there. The document says nothing of HTTP's framing, so no rule of it failed; HTTP itself did,
 * which the service is delivered over (§1): each answer answers one request (RFC 9112 §9.3), and a
 * client "MUST NOT process, cache, or forward such extra data as a separate response" (§6.3). One
 * fault, one finding, the first bytes as evidence and the request whose answer they followed. A
 * stray written once the next request is out is read as that one's answer, which no client can
 * tell: the failures that answers read on a connection after its first gave are not verified, so
 * no rule is blamed for a stray answer (the answers to each connection's first request still judge).
 */
import type { JournalEntry } from '../http/journal.ts'
import type { JudgedCheck } from './judged-check.ts'
import type { RunProblem } from './run-problems.ts'
import { unreadBodyQuoted } from './unread-bodies.ts'

/** The evidence shows this many characters of the first stray answer's bytes. */
const SHOWN = 200

/** The bytes as stray-answers.ts wrote them (\r, \n, \xHH), as they came. */
const asWritten = (text: string) => text.replace(/\\(r|n|x([0-9a-f]{2}))/g, (_, c: string, hex?: string) => (hex ? String.fromCharCode(parseInt(hex, 16)) : c === 'r' ? '\r' : '\n'))

/** The request was sent with its body in chunks (Transfer-Encoding: chunked, the create of valid-create.ts's `chunked`). */
const sentInChunks = (e: JournalEntry) => /(^|,)\s*chunked\s*$/i.test(e.headers?.['transfer-encoding'] ?? '')

/**
 * What the stray answers were, where they tell: answers to the body of a POST the service answered
 * without reading it (Python's http.server reads it as the next request, and quotes it in its page:
 * unread-bodies.ts); or, after a request whose body went in chunks, answers to its chunks, which a
 * server that reads no chunked body (Python's http.server again: "Bad request syntax ('15')", a
 * chunk's size) takes for requests: the create sent so is the one at fault, its own check not
 * verified, so the problem names it.
 */
function whatTheyWere(after: readonly JournalEntry[], journal: readonly JournalEntry[]): { observed: string; words: string } {
  const posts = [...new Set(after.map((e) => unreadBodyQuoted(asWritten(e.stray?.after ?? ''), journal)).filter((post) => post !== undefined))]
  // answers to chunks come after requests sent in chunks alone: strays after others too are another fault
  const chunked = after.every(sentInChunks) ? after[0] : undefined
  if (posts.length === 0 && chunked)
    return { observed: 'answers to the chunks of a chunked body', words: `most likely answers to the chunks of a body sent with Transfer-Encoding: chunked, which the service did not read as the body and then read as requests of their own: after ${chunked.method} ${new URL(chunked.url).pathname}${chunked.probe ? ` (${chunked.probe})` : ''} answered ${chunked.status ?? 'nothing'}; an HTTP/1.1 recipient reads a chunked body (RFC 9112 §7.1), and one that will not answers 411 Length Required and closes the connection (RFC 9110 §15.5.12)` }
  if (posts.length === 0) return { observed: 'an extra answer', words: 'an extra answer, or a body longer than its Content-Length said' }
  const post = posts[0] as JournalEntry
  return { observed: 'answers to an unread body', words: `answers to the body of a request the service answered without reading it, and then read as a request of its own: first POST ${new URL(post.url).pathname} answered ${post.status ?? 'nothing'}` }
}

export function strayAnswersProblem(journal: readonly JournalEntry[]): RunProblem | undefined {
  const after = journal.filter((e) => e.stray?.after !== undefined)
  const first = after[0]
  if (!first) return undefined
  const bytes = first.stray?.after as string
  const shown = bytes.length > SHOWN ? `${bytes.slice(0, SHOWN)}…` : bytes
  const times = after.length === 1 ? 'once' : `${after.length} times`
  const what = whatTheyWere(after, journal)
  return {
    kind: 'stray-answer',
    observed: what.observed,
    message: `stray answers (${times}): bytes written after an answer's end on a kept-alive connection, before the next request went out there (${what.words}); no request asked for them, so they answer none (RFC 9112 §6.3, §9.3: one answer to each request), and each such connection was closed. First after the answer to ${first.method} ${first.url} (exchange ${first.id}): "${shown}"`,
  }
}

/** The exchanges whose answers may have been stray ones: read on a connection that carried an earlier request, in a run that met stray answers. */
export const answersInDoubt = (journal: readonly JournalEntry[]): ReadonlySet<string> => new Set(journal.filter((e) => e.stray?.inDoubt).map((e) => e.id))

const SKIP_REASON = "not verified: the answer was read on a connection that carried an earlier request, and the server wrote stray answers in this run (see the run's problems): it may have been one, written for an earlier request"

/** The checks that failed on an answer in doubt, not verified instead. */
export function withoutFailuresOfStrayAnswers<C extends JudgedCheck & { exchanges?: readonly { id: string }[] }>(checks: C[], inDoubt: ReadonlySet<string>): C[] {
  if (inDoubt.size === 0) return checks
  return checks.map((c) => (c.status === 'fail' && (c.exchanges ?? []).some((e) => inDoubt.has(e.id)) ? { ...c, status: 'skip', cause: 'stray-answer', skipReason: SKIP_REASON, failure: undefined, reproduce: [] } : c))
}
