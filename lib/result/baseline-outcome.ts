/** What a baseline did to a run (lib/result/baseline.ts), as results.json and every report show it. */
import type { BaselineEntry } from '../config/baseline-file.ts'
import type { ProblemsOutcome } from './known-problems.ts'

/** With what it did to the run's problems (knownProblems, lib/result/known-problems.ts). */
export interface BaselineOutcome extends ProblemsOutcome {
  file: string
  /** Failures the baseline names: not counted against the run. */
  known: (BaselineEntry & { message: string })[]
  /** Entries past their expiry date: they excused nothing. */
  expired: BaselineEntry[]
  /** Entries whose failure did not happen in this run: remove them (--update-baseline does). */
  fixed: BaselineEntry[]
  /** Entries whose check failed otherwise (another code, or the code showing another `observed`): they excused nothing, and are not fixed. Absent when none. */
  changed?: BaselineEntry[]
  /**
   * Entries of a check the run does not have, in a rule it ran: renamed or removed in this version
   * of the suite (or mistyped). Neither fixed nor known; a failure that may be the renamed check
   * says so, and --update-baseline moves the entry to it. Absent when none.
   */
  noSuchCheck?: BaselineEntry[]
  /** Entries of a rule an earlier version had (lib/spec/retired-rules.ts): they excuse nothing, and --update-baseline drops them. Absent when none. */
  retired?: BaselineEntry[]
  /**
   * --update-baseline wrote the file from this run: its known failures are the run's own, just
   * written down, not ones an earlier decision expected, and the verdict says RECORDED, not PASS.
   * Absent otherwise.
   */
  recorded?: true
}
