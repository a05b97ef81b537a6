/**
 * Where a POST case leads the write order: priority 1 is sent first, then 2, and so on. The most
 * telling lead (two valid creates, then one POST for each refusal rule), so that `--max-writes 6`
 * still verifies every rule; a case without one follows every numbered one, in the order of the
 * tables. Declared here, apart from write-order.ts, so that the case tables that carry it and the
 * order that reads them import in one direction only.
 */
export interface WritePriority {
  priority?: number
}
