/**
 * Answers the suite did not read whole because of its own cap (--max-response-bytes per body, and
 * 4 × that for the bodies a run keeps together: lib/http/capped-read.ts). §8 shows no maximum size:
 * a list of 70 MB is conforming, and the interface has no delete, so a staging store that a deploy
 * gate checks on every deploy grows by every run's records (about 70 KB a run against the reference
 * server, its 65 KB description among them) until its list passes the cap. A check that met the
 * cap judged nothing: it is not verified, the run reaches no verdict on it (exit 2, unless a
 * must-rule failed on its own), and the first line says which option to raise. Before, such a run
 * failed 10 rules, and its confirmation sent 156 POSTs more (46 records) into the store whose size
 * was the cause. An endless body, or a compression bomb, is not judged either: the cap tells a
 * body too large to read from one that never ends only by reading on.
 */
import { serverFaultStatus } from '../http/exchange.ts'
import { HEAD_TOO_LARGE, TRAILERS_TOO_LARGE } from '../http/transport-errors.ts'
import type { JudgedCheck } from './judged-check.ts'
import type { RunProblem } from './run-problems.ts'

/** The code the client gives an answer it stopped reading at the cap (lib/http/transport-errors.ts). */
const CAPPED = 'RESPONSE_TOO_LARGE'

/** A check as this module reads it, with the errors of its exchanges. */
interface Judged extends JudgedCheck {
  exchanges?: readonly { error?: { code: string; status?: number } }[]
}

/**
 * A server fault (a 5xx but a 503, which a limiter answers) is one whatever its body: a check whose
 * capped answer came with one judged it (§7 shows no 5xx), and it stays failed. A debug page of
 * 40 KB past --max-response-bytes 30000 hid a 500 to an empty name as "not verified" (exit 2).
 */
const cappedFault = (check: Judged): boolean => (check.exchanges ?? []).some((e) => e.error?.code === CAPPED && e.error.status !== undefined && serverFaultStatus(e.error.status) && e.error.status !== 503)

/** A check that failed only because an answer passed the cap: its failure is the capped read itself (the client's code, not its words), of no server fault. */
export const failedOnTheCap = (check: Judged): boolean => check.status === 'fail' && check.failure?.code === 'NO_RESPONSE' && check.failure.transport?.code === CAPPED && !cappedFault(check)

/** An answer whose head, or whose trailer section, passed the most the client reads (lib/http/transport-errors.ts MAX_HEAD_BYTES): no option raises it. */
const onTheHead = (check: Judged): boolean => check.failure?.actual?.includes(HEAD_TOO_LARGE) === true || onTheTrailers(check)
const onTheTrailers = (check: Judged): boolean => check.failure?.actual?.includes(TRAILERS_TOO_LARGE) === true

const SKIP_REASON = 'not verified: an answer passed --max-response-bytes, and was not read whole'
const HEAD_SKIP_REASON = `not verified: an answer came with a ${HEAD_TOO_LARGE}, the most this client reads, and was not read`
const TRAILERS_SKIP_REASON = `not verified: an answer came with a ${TRAILERS_TOO_LARGE}, the most this client reads, and was not read`

/** The checks that failed on the cap, not verified instead. */
export function withoutFailuresOfTheCap<C extends Judged>(checks: C[]): C[] {
  return checks.map((c) => (failedOnTheCap(c) ? { ...c, status: 'skip', cause: 'response-cap', skipReason: onTheTrailers(c) ? TRAILERS_SKIP_REASON : onTheHead(c) ? HEAD_SKIP_REASON : SKIP_REASON, failure: undefined, reproduce: [] } : c))
}

/** The problem when some checks failed on the cap, or undefined. */
export function responseCapProblem(checks: readonly Judged[]): RunProblem | undefined {
  const all = checks.filter(failedOnTheCap)
  const heads = all.filter(onTheHead).length
  const capped = all.length - heads
  if (all.length === 0) return undefined
  const trailers = all.filter(onTheTrailers).length
  const met = (n: number, what: string) => `${n} ${n === 1 ? 'check' : 'checks'} met answers with a ${what}, the most this client reads, not read`
  const headWords = `${[...(heads > trailers ? [met(heads - trailers, HEAD_TOO_LARGE)] : []), ...(trailers > 0 ? [met(trailers, TRAILERS_TOO_LARGE)] : [])].join('; ')}, so not verified: sizes are not shown (§8)`
  if (capped === 0) return { kind: 'response-cap', message: headWords }
  return {
    kind: 'response-cap',
    message: `${heads > 0 ? `${headWords}; ` : ''}${capped} ${capped === 1 ? 'check' : 'checks'} met answers larger than --max-response-bytes allows (per answer, and 4 × it for the run's answers together), not read whole, so not verified; raise --max-response-bytes: sizes are not shown (§8), and a list grows with every run against the same store (the interface has no delete)`,
  }
}
