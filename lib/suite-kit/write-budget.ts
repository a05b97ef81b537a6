/**
 * Bounded writes. Every POST the suite can send is declared once, in priority order, in
 * suites/cases/post-probes.ts; a run may send the first --max-writes of them and none under
 * --read-only. Every worker computes the same answer from the same table, so no coordination is
 * needed and the bound holds however the files are spread over workers.
 */
import { NotApplicable } from '../checks/failure.ts'
import { runContext } from './run-context.ts'

export function assertWriteAllowed(key: string, order: readonly string[]): void {
  const { readOnly, maxWrites } = runContext()
  if (readOnly) throw new NotApplicable('not verified: --read-only sends no request that could create a record')
  const position = order.indexOf(key)
  if (position < 0) throw new Error(`POST probe ${key} is not declared in suites/cases/post-probes.ts`)
  if (position >= maxWrites) {
    throw new NotApplicable(`not verified: over the write budget (--max-writes ${maxWrites}; this POST is number ${position + 1})`)
  }
}
