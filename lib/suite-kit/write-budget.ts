/**
 * Bounded writes. Every POST the suite can send is declared once, in a case table of suites/cases/,
 * with its rule and priority (sorted by suites/cases/write-order.ts); lib/suite-kit/write-plan.ts
 * decides which a run may send.
 * A POST that may not be sent is journalled as refused, with why, and its checks do not apply.
 */
import { NotApplicable } from '../checks/failure.ts'
import type { Run } from './run-context.ts'
import { writePlan, type DeclaredPost, type WritePlan } from './write-plan.ts'
import { confirmationRefusal } from './confirmation-writes.ts'

/** Throws NotApplicable (the refusal journalled) when `run` may not send POST probe `key`. */
export function assertWriteAllowed(run: Run, key: string, probes: readonly DeclaredPost[], request: { path: string; body?: string | Uint8Array }): void {
  const declared = probes.find((p) => p.key === key)
  if (!declared) throw new Error(`POST probe ${key} is not declared in a case table of suites/cases/ (see write-order.ts)`)
  const { readOnly, maxWrites, rules, confirming, writesFrom } = run.context
  const plan = run.perRun<WritePlan>('write-plan', () => writePlan(probes, { readOnly, maxWrites, rules, ...(writesFrom ? { from: writesFrom } : {}) }))
  const refusal = plan.refused.get(key) ?? (confirming ? confirmationRefusal(confirming, key, declared.controlOf) : undefined)
  if (!refusal) return
  run.client().refuse({ method: 'POST', path: request.path, body: request.body, probe: key }, refusal.reason, refusal.detail)
  throw new NotApplicable(refusal.detail, refusal.reason)
}
