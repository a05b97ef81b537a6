/**
 * A request unanswered past --timeout whose operation answered no request of the run within
 * --timeout of its write: none at all, or only late ones (the answer clock gives a request more
 * time while the server answers others, lib/http/answer-clock.ts, so the first of a slow list's
 * reads times out where a later one is answered after 3 s). The document shows no latency
 * (§8), and such an operation may only be slower than the run waited (a cold start: a JVM on a
 * serverless platform takes more than 10 s for its first answers, and the run's first burst of 48
 * requests meets it whole; a list that a store grown by every deploy gate's run takes that long to
 * give) as well as hung: the run cannot tell them apart without waiting longer. So those timeouts
 * judge nothing: the checks that failed on them are not verified, the run reaches no verdict on
 * them (exit 2, unless a must-rule failed on its own; the stall kept the rest of the operation's
 * requests back, lib/http/stalled-operations.ts), and the first line says to give a longer
 * --timeout. Before, a server that answered nothing in time failed 13 rules. An operation that
 * answered other requests and let one go unanswered past --timeout still fails it: it was seen to
 * answer in time (an input that hangs it); so does a body that trickled past --timeout after its
 * status line, and a server that resets connections or answers garbage.
 */
import { served } from '../http/answer-clock.ts'
import { stallingOperation } from '../http/stalled-operations.ts'
import type { JudgedCheck } from './judged-check.ts'
import type { RunProblem } from './run-problems.ts'


/**
 * Answers that say nothing of the operation's pace: a limiter's 429 or 503 in front comes at once
 * whatever the service behind it does (answer-clock.ts), and so does a gateway's 401 (API Gateway's
 * authorizer, Kong's key-auth): a --read-only gate against a cold service behind one failed 8 rules
 * on the keyed reads that timed out beside refusals answered at once.
 */
const KEY_REFUSED = 401
const paced = (status: number) => served(status) && status !== KEY_REFUSED
/** A timeout before any byte of the answer (the client's code, lib/http/transport-errors.ts); one whose body did not end had a status line: the server answered. */
const nothingInTime = (error: { code: string; status?: number } | undefined): boolean => error?.code === 'TIMEOUT' && error.status === undefined

const failedOnTheTimeout = (check: JudgedCheck): boolean => check.status === 'fail' && check.failure?.code === 'NO_RESPONSE' && nothingInTime(check.failure.transport)

/** The request of an exchange, as this module reads it. */
interface Sent {
  id: string
  request: { method: string; url: string; headers: Record<string, string> }
  startedAt?: string
  durationMs: number
  /** When it was written (Date.now()): its wait for a slot and a connection before is the run's, not the server's. */
  writtenAtMs?: number
  response?: { status: number }
  error?: { code: string; message: string; status?: number }
}

/**
 * How long its answer took from its write. Its duration counts its wait for a slot too: an
 * invalid create held unanswered by the server (Express 4's uncaught rejection) held the slots, the
 * valid creates waited behind them past --timeout, and answered at once they read as the
 * operation's quickest answer after 3,016 ms: "slower than that … or hung", exit 2, where the held
 * creates are the fault (invalid-create-never-answered survived the kill matrix under load).
 */
const sinceWritten = (e: Sent): number => (e.writtenAtMs === undefined || e.startedAt === undefined ? e.durationMs : Math.max(0, Date.parse(e.startedAt) + e.durationMs - e.writtenAtMs))

/** Its operation as the client stalled it: the path below the base URL's (`basePath`, without its trailing slash). */
const operationOfExchange = (e: Sent, basePath: string) => {
  const path = new URL(e.request.url).pathname
  return stallingOperation(e.request.method, path.startsWith(basePath) ? path.slice(basePath.length) : path, e.request.headers.authorization)
}
const basePathOf = (baseUrl: string) => new URL(baseUrl).pathname.replace(/\/+$/, '')

/**
 * The operations whose timeouts judge nothing (stallingOperation's names), from the run's checks'
 * evidence: each had a request end on the timeout before any byte of its answer, and answered no
 * request within --timeout of its write (`timeoutMs`), or none at all (`quickest`: its quickest
 * answer, ms, answered only because the answer clock gives a request more time while the server
 * answers others). An operation that answered a request within --timeout keeps its timeouts as
 * failures: it was seen to answer in time (an input that hangs it, a one-worker server it blocks:
 * the requests queued behind that one are answered late, once it is given up, but not the ones before).
 */
export function slowOperations(checks: readonly (JudgedCheck & { exchanges: readonly Sent[] })[], baseUrl: string, timeoutMs: number): Map<string, { quickest?: number }> {
  // only an operation with a timeout is slow: a run with none (most) names no operation of its ~170 exchanges
  if (!checks.some((c) => c.exchanges.some((e) => nothingInTime(e.error)))) return new Map()
  const basePath = basePathOf(baseUrl)
  const quickest = new Map<string, number>()
  const timedOut = new Set<string>()
  const seen = new Set<string>()
  for (const exchange of checks.flatMap((c) => c.exchanges)) {
    if (seen.has(exchange.id)) continue
    seen.add(exchange.id)
    const operation = operationOfExchange(exchange, basePath)
    if (nothingInTime(exchange.error)) timedOut.add(operation)
    // an answer, or the head of one (a body that did not end, a reset after the status): at once, as far as the operation goes
    else if (exchange.response !== undefined) {
      if (paced(exchange.response.status)) quickest.set(operation, Math.min(quickest.get(operation) ?? Infinity, sinceWritten(exchange)))
    }
    else if (exchange.error !== undefined && exchange.error.code !== 'STALLED' && exchange.error.code !== 'DEADLINE') quickest.set(operation, 0)
  }
  const slow = new Map<string, { quickest?: number }>()
  for (const operation of timedOut) {
    const ms = quickest.get(operation)
    if (ms === undefined) slow.set(operation, {})
    else if (ms >= timeoutMs) slow.set(operation, { quickest: ms })
  }
  return slow
}

/** Why an operation's timeouts judge nothing, in words. */
const why = (operation: string, { quickest }: { quickest?: number }) =>
  quickest === undefined ? `${operation} answered no request of the run in time` : `${operation} answered no request within --timeout, its quickest after ${quickest} ms`

/** The checks that failed on the timeout of such an operation, not verified instead (cause `stalled`: the operation let a request go unanswered past --timeout). */
export function withoutFailuresOfTheTimeout<C extends JudgedCheck & { exchanges: readonly Sent[] }>(checks: C[], slow: ReadonlyMap<string, { quickest?: number }>, baseUrl: string): C[] {
  const basePath = basePathOf(baseUrl)
  return checks.map((c) => {
    if (!failedOnTheTimeout(c)) return c
    const operation = c.exchanges.filter((e) => e.error?.code === 'TIMEOUT').map((e) => operationOfExchange(e, basePath)).find((o) => slow.has(o))
    if (operation === undefined) return c
    // the words of the timeout (`no response within 10000 ms (…)`), for people: nothing is decided on them
    const waited = (c.failure?.actual ?? '').replace(/^TIMEOUT: /, '')
    const skipReason = `not verified: ${waited}, and ${why(operation, slow.get(operation)!)} (slower than --timeout, or hung)`
    return { ...c, status: 'skip', cause: 'stalled', skipReason, failure: undefined, reproduce: [] }
  })
}

/** The problem said first: `timeoutMs`, the run's --timeout. */
export function noAnswerInTimeProblem(slow: ReadonlyMap<string, { quickest?: number }>, timeoutMs: number): RunProblem {
  const operations = [...slow].sort(([a], [b]) => a.localeCompare(b)).map(([operation, seen]) => why(operation, seen)).join('; ')
  return {
    kind: 'no-answer-in-time',
    message: `requests went unanswered past --timeout (${timeoutMs} ms) where ${operations}: slower than that (latency is not shown, §8: a cold start, a slow store) or hung; a longer --timeout judges it`,
  }
}
