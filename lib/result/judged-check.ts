/**
 * What of a check's result the modules that turn failures of the suite's own limits into checks not
 * verified read (response-cap.ts, no-answer-in-time.ts): run-result.ts's CheckResult, which they
 * cannot import, as run-result.ts imports them.
 */
export interface JudgedCheck {
  status: string
  failure?: { code: string; actual?: string }
}
