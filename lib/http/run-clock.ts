/**
 * The run's end and its clock, as the run hands them to the HTTP client. The run owns both
 * (lib/runner/run-clock.ts makes them; lib/runner/conform-run.ts keeps the one timer for --deadline,
 * and the user's interrupt): the client reads no deadline of its own, so there is one instant at
 * which a run ends, and one place that decides it.
 */
export interface RunClock {
  /** Aborted when the run ends (its --deadline, an interrupt, the run cut short); the reason is a RunDeadlineReached. */
  readonly signal: AbortSignal
  /** Milliseconds until the run's deadline; Infinity when it has none. */
  msLeft(): number
}
