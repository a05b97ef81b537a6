/**
 * What a confirmation attempt (lib/runner/confirmation.ts) may write: only the POSTs the failures
 * were found on (and a failed create's plain-ASCII control, as one of its writes), each with a fresh
 * name, and no more than an explicit --max-writes leaves. Without --max-writes, the default budget
 * includes confirmation: at most N (--confirm) more per failed create, counted per create.
 */
export interface ConfirmationWrites {
  /** The declared POST probes (suites/cases/write-order.ts) the failed checks sent. */
  probes: ReadonlySet<string>
  /** POSTs still allowed over the whole confirmation: what an explicit --max-writes leaves, else --confirm for each failed POST (Infinity: a --repeat round, bounded by its plan). */
  left: number
  /** Why a POST was not sent when `left` ran out. */
  exhausted: string
  /** Why a POST not in `probes` was not sent. */
  notNeeded: string
  /** True in an attempt that probes the run's failures again (--confirm), false in a further round (--repeat), which runs every check. */
  reprobesFailures: boolean
  /** Without --max-writes: the POSTs each failed POST's confirmation may send (--confirm), its plain-ASCII control's among them, and how many each has sent. */
  each?: { most: number; sent: Map<string, number> }
}

/**
 * Why this POST may not go out in a confirmation attempt, or undefined when it may (and is counted).
 * `controlOf`: the create this one is the plain-ASCII control of (write-plan.ts DeclaredPost): a
 * failed create answered 400 or 413 in an attempt is judged by it (a length limit, §8, or not), so
 * it may go, as one of that create's writes (review45: a create answered 500, then 400, stayed
 * unconfirmed, "not needed").
 */
export function confirmationRefusal(writes: ConfirmationWrites, key: string, controlOf?: string): { reason: 'not-needed' | 'write-budget'; detail: string } | undefined {
  const of = writes.probes.has(key) ? key : controlOf !== undefined && writes.probes.has(controlOf) ? controlOf : undefined
  if (of === undefined) return { reason: 'not-needed', detail: writes.notNeeded }
  const sent = writes.each?.sent.get(of) ?? 0
  if (writes.left <= 0 || (writes.each !== undefined && sent >= writes.each.most)) {
    const control = of === key ? '' : ' (a create refused 400 or 413 is judged by a create of plain ASCII of its sizes, which counts as one of them)'
    return { reason: 'write-budget', detail: `${writes.exhausted}${control}` }
  }
  writes.left--
  writes.each?.sent.set(of, sent + 1)
  return undefined
}
