/**
 * How a check says no. A check is a small function that returns quietly when the server conforms
 * and throws a ConformanceFailure (expected, actual, evidence) when it does not; NotApplicable
 * means the exchange gives the check nothing to judge (another rule reports what went wrong).
 */
import type { Exchange, TransportErrorCode } from '../http/exchange.ts'
import type { FailureCode } from '../spec/failure-codes.ts'
import type { SkipCause } from './skip-causes.ts'

export interface FailureDetail {
  /** Stable: what kind of failure (lib/spec/failure-codes.ts); match on it, not on the message. */
  code: FailureCode
  /** One line: what is wrong. */
  message: string
  expected: string
  actual: string
  /**
   * What the wrong answer was, in words that stay the same from run to run (a status, a media
   * type, where a body breaks its schema, which field changed): never an id, a name, the run's
   * prefix or a value drawn from the seed. A baseline entry records it (--update-baseline), and
   * excuses the failure only while it stays the same (lib/result/baseline.ts). Absent for a
   * failure that has one way to be wrong, or whose detail is generated.
   */
  observed?: string
  /**
   * Of a body of another shape (SCHEMA_MISMATCH): its other problems, as `observed` is worded,
   * sorted ([] when it has none). A baseline entry that records them excuses the body only while
   * it shows no problem beyond them: a known missing "status" no longer hides a "code" that became
   * a number. Absent for other codes, and in results.json of runs before it was recorded.
   */
  alsoObserved?: string[]
  /**
   * A NO_RESPONSE failure: the client's stable code of why no complete response came (a timeout,
   * the size cap, a reset …), and the status when a status line came first. What the run decides on
   * (response-cap.ts, no-answer-in-time.ts), never `actual`'s words; a baseline does not compare it
   * (NO_RESPONSE entries match on the code, as ever).
   */
  transport?: { code: TransportErrorCode; status?: number }
}

export class ConformanceFailure extends Error {
  readonly code: FailureCode
  readonly expected: string
  readonly actual: string
  readonly observed?: string
  readonly alsoObserved?: string[]
  readonly transport?: FailureDetail['transport']
  readonly exchanges: Exchange[]

  constructor(detail: FailureDetail, exchanges: Exchange[] = []) {
    super(detail.message)
    this.name = 'ConformanceFailure'
    this.code = detail.code
    this.expected = detail.expected
    this.actual = detail.actual
    if (detail.observed !== undefined) this.observed = detail.observed
    if (detail.alsoObserved !== undefined) this.alsoObserved = detail.alsoObserved
    if (detail.transport !== undefined) this.transport = detail.transport
    this.exchanges = exchanges
  }

  detail(): FailureDetail {
    return { code: this.code, message: this.message, expected: this.expected, actual: this.actual, ...(this.observed !== undefined ? { observed: this.observed } : {}), ...(this.alsoObserved !== undefined ? { alsoObserved: this.alsoObserved } : {}), ...(this.transport !== undefined ? { transport: this.transport } : {}) }
  }
}

/** The exchange gives the check nothing to judge: `skipCause` says why in the closed set of skip-causes.ts, `reason` in words. */
export class NotApplicable extends Error {
  constructor(
    readonly reason: string,
    readonly skipCause: SkipCause = 'not-applicable',
  ) {
    super(reason)
    this.name = 'NotApplicable'
  }
}

export function fail(detail: FailureDetail, ...exchanges: Exchange[]): never {
  throw new ConformanceFailure(detail, exchanges)
}
