/**
 * A server that answered no request of the run within --timeout: every request that reached it
 * ended without an answer, each on the timeout, or was answered later than that. The document shows no latency (§8), and such a
 * server may only be slower than the run waited (a cold start: a JVM on a serverless platform
 * takes more than 10 s for its first answers, and the run's first burst of 48 requests meets it
 * whole; a store that takes that long) as well as hung: the run cannot tell them apart without
 * waiting longer. So its timeouts judge nothing: the checks that failed on them are not verified,
 * the run reaches no verdict (exit 2; the stall kept the rest of its requests back, lib/http/stalled-operations.ts),
 * and the first line says to give a longer --timeout. Before, such a run failed 13 rules. A server
 * that answers some requests within --timeout and lets another go unanswered past it still fails
 * it: it was seen to answer in time (an input that hangs it), and a server that resets connections or
 * answers garbage fails as before.
 */
import { served } from '../http/answer-clock.ts'
import { endedAt, type JournalEntry } from '../http/journal.ts'
import type { RunProblem } from './run-problems.ts'

/** Fewer slow requests than this say too little (a --rule run of one check). */
const ENOUGH = 3

/** What of a check's result this module reads (run-result.ts's CheckResult, not imported: it imports this). */
interface Judged {
  status: string
  failure?: { code: string; actual?: string }
}

const TIMED_OUT = 'TIMEOUT:'
const KEY_REFUSED = 401
/** A timeout before any byte of the answer (lib/http/transport-errors.ts); one whose body did not end had a status line: the server answered. */
const NOTHING_IN_TIME = `${TIMED_OUT} no response within`

const timedOut = (check: Judged): boolean => check.status === 'fail' && check.failure?.code === 'NO_RESPONSE' && (check.failure.actual ?? '').startsWith(TIMED_OUT)
const failedOnTheTimeout = (check: Judged): boolean => timedOut(check) && (check.failure?.actual ?? '').startsWith(NOTHING_IN_TIME)

/**
 * Whether the server answered no request of the journal within `timeoutMs` of its going out, and
 * every one that reached it and ended without an answer ended on the timeout before any byte of its
 * answer (`checks`: the run's, whose failures say so; a body that trickled past --timeout had a
 * status), at least ENOUGH of them slow so (a timeout, or an answer later than --timeout). An
 * answer later than that is no sign of a server on time: the requests written behind one that
 * expired wait for it a while more (lib/http/answer-clock.ts BEHIND_MS), and a cold start of 10.5 s
 * answered the whole first burst but the request that expired first, which alone then failed 5
 * rules (--timeout 10000). The answer's time is its end, body included (the journal keeps no time
 * of its status line): a single answer on time is enough, but a 429 or 503, which a limiter in
 * front answers at once, is none, nor a 401, which a gateway answers for the service behind it: a
 * --read-only gate against a cold service behind one failed 8 rules on the keyed reads that timed
 * out beside the refusals answered at once.
 */
export function answeredNoneInTime(journal: readonly JournalEntry[], checks: readonly Judged[], timeoutMs: number): boolean {
  if (checks.some((c) => timedOut(c) && !failedOnTheTimeout(c))) return false
  let timeouts = 0
  let late = 0
  for (const entry of journal) {
    if (entry.status !== undefined) {
      // a limiter's 429 or 503 comes at once whatever the service behind it does (answer-clock.ts),
      // and so does a gateway's 401 to a request without the key (API Gateway's authorizer, Kong's key-auth)
      if (!served(entry.status) || entry.status === KEY_REFUSED) continue
      if (endedAt(entry) - Date.parse(entry.at) <= timeoutMs) return false
      late++
      continue
    }
    // one kept back or cut before it left (STALLED, the deadline) never reached the server
    if (entry.outcome !== 'failed' || !entry.onWire) continue
    if (entry.error !== 'TIMEOUT') return false
    timeouts++
  }
  return timeouts > 0 && timeouts + late >= ENOUGH
}

/** The checks that failed on the timeout, not verified instead (cause `stalled`: the operation let a request go unanswered past --timeout). */
export function withoutFailuresOfTheTimeout<C extends Judged>(checks: C[]): C[] {
  return checks.map((c) => {
    if (!failedOnTheTimeout(c)) return c
    const waited = (c.failure?.actual ?? '').slice(TIMED_OUT.length).trim()
    const skipReason = `not verified: ${waited}, and the server answered no request of the run in time (slower than --timeout, or hung)`
    return { ...c, status: 'skip', cause: 'stalled', skipReason, failure: undefined, reproduce: [] }
  })
}

/** The problem said first: `timeoutMs`, the run's --timeout. */
export function noAnswerInTimeProblem(timeoutMs: number): RunProblem {
  return {
    kind: 'no-answer-in-time',
    message: `the server answered no request of the run within --timeout (${timeoutMs} ms): slower than that (latency is not shown, §8: a cold start, a slow store) or hung; a longer --timeout judges it`,
  }
}
