/**
 * Which requests were the first written on their connection. The keep-alive race (RFC 9112
 * §9.3.1) loses only a request written on a connection the server is closing, one that carried an
 * earlier request (a fresh connection is not idle, nor past an answer); so a request that was the
 * first on its connection, whose record the list then shows although no byte of an answer came,
 * was stored and left unanswered by the server: a fault, not the race (lib/http/lost-answer.ts).
 *
 * Told by undici's diagnostics channel `undici:client:sendHeaders`, which names the socket each
 * request's head is written to; a request is known by its traceparent (a span id of its own,
 * lib/http/trace-context.ts). An undici that does not publish it tells nothing, and every lost
 * answer is taken for the race, as before.
 */
import { subscribe } from 'node:diagnostics_channel'
import { watchConnections } from './open-connections.ts'

/** Requests written on each connection so far. */
const writtenOn = new WeakMap<object, number>()
/** The traceparent of the latest request written on each connection. */
const latestOn = new WeakMap<object, string>()
/** The traceparent of the request written before each on its connection (lib/result/unread-bodies.ts: a body left unread there). */
const before = new Map<string, string>()
/** The traceparent of each request undici wrote (its status, when answered, is kept by traceparent). */
const traceparentOf = new WeakMap<object, string>()
/** The status each request was answered with, by traceparent (lost-answer.ts: a POST lost after a 5xx there). */
const statusOf = new Map<string, number>()
/** The traceparents of requests written first on their connection, the latest last (a long-lived process keeps only so many). */
const firsts = new Set<string>()
const KEPT = 20_000

const TRACEPARENT = /\r\ntraceparent: ([^\r\n]+)\r\n/i

function onHeadersSent(message: unknown): void {
  const { request, headers, socket } = message as { request?: object; headers?: unknown; socket?: object }
  if (typeof headers !== 'string' || typeof socket !== 'object' || socket === null) return
  const written = writtenOn.get(socket) ?? 0
  writtenOn.set(socket, written + 1)
  const traceparent = TRACEPARENT.exec(headers)?.[1]
  if (traceparent !== undefined && typeof request === 'object' && request !== null) traceparentOf.set(request, traceparent)
  const latest = latestOn.get(socket)
  if (traceparent !== undefined) latestOn.set(socket, traceparent)
  if (traceparent !== undefined && latest !== undefined) {
    before.set(traceparent, latest)
    if (before.size > KEPT) before.delete(before.keys().next().value as string)
  }
  if (written > 0 || traceparent === undefined) return
  firsts.add(traceparent)
  if (firsts.size > KEPT) firsts.delete(firsts.values().next().value as string)
}

/** A final answer's status line, as undici read it (`undici:request:headers`). */
function onAnswerHeaders(message: unknown): void {
  const { request, response } = message as { request?: object; response?: { statusCode?: unknown } }
  const traceparent = typeof request === 'object' && request !== null ? traceparentOf.get(request) : undefined
  if (traceparent === undefined || typeof response?.statusCode !== 'number') return
  statusOf.set(traceparent, response.statusCode)
  if (statusOf.size > KEPT) statusOf.delete(statusOf.keys().next().value as string)
}

let watching = false

/** Starts telling first requests apart (once per process: every run's client calls it), and counting connections (open-connections.ts). */
export function watchFirstRequests(): void {
  watchConnections()
  if (watching) return
  watching = true
  subscribe('undici:client:sendHeaders', onHeadersSent)
  subscribe('undici:request:headers', onAnswerHeaders)
}

/** Whether the request with this traceparent was the first written on its connection (false: not, or not known). */
export function firstOnItsConnection(traceparent: string | undefined): boolean {
  return traceparent !== undefined && firsts.has(traceparent)
}

/** The traceparent of the request written before this one on its connection (undefined: the first there, or not known). */
export function writtenAfterOnItsConnection(traceparent: string | undefined): string | undefined {
  return traceparent === undefined ? undefined : before.get(traceparent)
}

/** The status of the answer to the request written before this one on its connection (undefined: none there, not answered, or not known). */
export function answeredBeforeOnItsConnection(traceparent: string | undefined): number | undefined {
  const earlier = writtenAfterOnItsConnection(traceparent)
  return earlier === undefined ? undefined : statusOf.get(earlier)
}
