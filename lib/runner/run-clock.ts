/**
 * A run's clock and end (lib/http/run-clock.ts says what the HTTP client reads of them), made by
 * the run that owns them: its deadline is known here and nowhere below.
 */
import type { RunClock } from '../http/run-clock.ts'
import { RunDeadlineReached } from '../http/transport-errors.ts'

/** The clock of a run that owns its end: `end(why)` aborts its signal (once); `interruptedBy`: the signal that ended it, if one did. */
export interface OwnedRunClock extends RunClock {
  end(why?: string, interruptedBy?: string): void
}

/** A run clock whose deadline falls at `deadlineAt` (epoch ms; undefined: none). Nothing ends it but `end()`: the owner keeps the timer. */
export function runClock(deadlineAt: number | undefined, now: () => number = Date.now): OwnedRunClock {
  const ended = new AbortController()
  return {
    signal: ended.signal,
    msLeft: () => (deadlineAt === undefined ? Infinity : deadlineAt - now()),
    end: (why, interruptedBy) => {
      if (!ended.signal.aborted) ended.abort(new RunDeadlineReached(why, interruptedBy))
    },
  }
}
