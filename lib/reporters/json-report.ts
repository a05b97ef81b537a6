/** results.json: the whole RunResult, for scripts and dashboards, each exchange written once (lib/result/results-file.ts). */
import { resultsFileOf } from '../result/results-file.ts'
import type { RunResult } from '../result/run-result.ts'
import { portableJson } from '../json/portable-json.ts'

export function jsonReport(result: RunResult): string {
  return portableJson(resultsFileOf(result), 2) + '\n'
}
