/**
 * What the command does on SIGINT (Ctrl-C) and SIGTERM (a cancelled CI job): the first stops the
 * run, whose reports then say what ran; a second, or reports not written within 3 s, exits at once.
 * Either exit says that the reports were not written and where what was sent is: the first line
 * had promised them, and a fleet's folders then held only their journals, with nothing said. A
 * signal once the reports are written (the process held open by a socket) exits without a word.
 */
import type { InterruptExit } from '../result/run-result.ts'

export interface SignalExit {
  write(line: string): void
  exit(code: number): void
  /** A timer the process need not wait for (setTimeout(…).unref() in the process). */
  later(ms: number, then: () => void): void
}

/** How long the run has to write its reports after the first signal. */
export const REPORTS_WITHIN_MS = 3_000

/**
 * The handler of both signals; `caught()` for a signal the entry point held while the program
 * loaded (it said so then: the run has not started, and its reports are written in milliseconds,
 * given the 3 s from here); and `finished()` to call once the reports are written (the run's exit
 * code then stands).
 */
export function signalHandler(
  interrupt: AbortController,
  exits: Readonly<Partial<Record<string, InterruptExit>>>,
  io: SignalExit,
): { onSignal(signal: NodeJS.Signals): void; caught(signal: NodeJS.Signals): void; finished(): void } {
  let done = false
  const without = (why: string, code: number) => {
    io.write(`conform: ${why}: exiting now, without the reports; journal.ndjson in the report folder (in a fleet, in each deployment's) lists every request sent\n`)
    io.exit(code)
  }
  const stop = (signal: NodeJS.Signals) => {
    const code = exits[signal] ?? 2
    interrupt.abort(signal)
    io.later(REPORTS_WITHIN_MS, () => (done ? io.exit(code) : without(`the reports were not written within ${REPORTS_WITHIN_MS / 1000} s of ${signal}`, code)))
  }
  return {
    onSignal(signal) {
      const code = exits[signal] ?? 2
      // the reports are written and the verdict printed (the process lingers on an open socket): "without the reports" would be untrue
      if (done) return io.exit(code)
      // Ctrl-C, then a kill's SIGTERM: "SIGTERM again" named a signal that had not come before
      if (interrupt.signal.aborted) return without(interrupt.signal.reason === signal ? `${signal} again` : `${signal} after ${String(interrupt.signal.reason)}`, code)
      io.write(`conform: ${signal}: stopping; the reports will say what ran (${signal} again: exit at once, without them)\n`)
      stop(signal)
    },
    caught: (signal) => stop(signal),
    finished: () => void (done = true),
  }
}
