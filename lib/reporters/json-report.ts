/** results.json: the whole RunResult, for scripts and dashboards, each exchange written once (lib/result/results-file.ts). */
import { resultsFileOf } from '../result/results-file.ts'
import type { RunResult } from '../result/run-result.ts'

export function jsonReport(result: RunResult): string {
  return JSON.stringify(resultsFileOf(result), null, 2) + '\n'
}
