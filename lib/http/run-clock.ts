/**
 * The run's end and its clock, as the run hands them to the HTTP client. The run owns both
 * (lib/runner/conform-run.ts: one timer for --deadline, and the user's interrupt): the client reads
 * no deadline of its own, so there is one instant at which a run ends, and one place that decides it.
 */
import { RunDeadlineReached } from './transport-errors.ts'

export interface RunClock {
  /** Aborted when the run ends (its --deadline, an interrupt, the run cut short); the reason is a RunDeadlineReached. */
  readonly signal: AbortSignal
  /** Milliseconds until the run's deadline; Infinity when it has none. */
  msLeft(): number
}

/** The clock of a run that owns its end: `end(why)` aborts its signal (once). */
export interface OwnedRunClock extends RunClock {
  end(why?: string): void
}

/** A run clock whose deadline falls at `deadlineAt` (epoch ms; undefined: none). Nothing ends it but `end()`: the owner keeps the timer. */
export function runClock(deadlineAt: number | undefined, now: () => number = Date.now): OwnedRunClock {
  const ended = new AbortController()
  return {
    signal: ended.signal,
    msLeft: () => (deadlineAt === undefined ? Infinity : deadlineAt - now()),
    end: (why) => {
      if (!ended.signal.aborted) ended.abort(new RunDeadlineReached(why))
    },
  }
}
