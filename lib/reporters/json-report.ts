/** results.json: the whole RunResult, for scripts and dashboards. */
import type { RunResult } from '../result/run-result.ts'

export function jsonReport(result: RunResult): string {
  return JSON.stringify(result, null, 2) + '\n'
}
