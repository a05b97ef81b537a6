/**
 * `import { runConformance } from 'petstore-categories-conformance'`: the programmatic API
 * (docs/library.md). Like bin/conform.mjs for the command line, this entry hands the suites
 * (suites/manifest.ts) to the machinery of lib/, which never imports them. It loads nothing of vitest.
 */
import { runConformanceWith } from '../lib/api/run-conformance.ts'
import type { ConformanceOptions } from '../lib/api/options.ts'
import type { RunResult } from '../lib/result/run-result.ts'
import { manifest } from '../suites/manifest.ts'

export { ConformanceConfigError, ConformanceError, ConformanceRunError } from '../lib/api/errors.ts'
export { startReferenceServer, type ReferenceService, type ReferenceServiceOptions } from '../lib/api/reference-server.ts'
export type { BaseUrl, ConformanceOptions } from '../lib/api/options.ts'
export type { BaselineOutcome, CheckResult, LedgerEntry, Recurrence, RuleResult, RunResult, Status } from '../lib/result/run-result.ts'
export type { Exchange, RecordedRequest, RecordedResponse } from '../lib/http/exchange.ts'

/**
 * One conformance run, as `npm run conform` with the same options makes it: resolves to its
 * result (what results.json holds, the key redacted) and never exits the process. Report files
 * are written only when `reportDir` is given. Where the command line exits 2 it throws:
 * ConformanceConfigError for an option it refuses, ConformanceRunError for a run that could not
 * start (the service unreachable, say). A run cut by its deadline resolves, with verdict `incomplete`.
 */
export async function runConformance(options: ConformanceOptions = {}): Promise<RunResult> {
  return (await runConformanceWith(manifest, options)).result
}
