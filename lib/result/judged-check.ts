/**
 * What of a check's result the modules that turn failures of the suite's own limits into checks not
 * verified read (response-cap.ts, no-answer-in-time.ts): run-result.ts's CheckResult, which they
 * cannot import, as run-result.ts imports them.
 */
export interface JudgedCheck {
  status: string
  /** `transport`: a NO_RESPONSE failure's client code, and the status of a status line that came first (lib/checks/failure.ts). */
  failure?: { code: string; actual?: string; transport?: { code: string; status?: number } }
}
