/**
 * Every request answered 403 for a stretch of the run, and served again after it: a guard that
 * blocked this client for a while and lifted before the run ended (a brute-force lockout tripped by
 * the run's own refused keys, a WAF's rate-based rule, mod_evasive). The checks it failed pass
 * when probed again, as one replica's would; the fault groups name the block instead (stackhunt9:
 * a lockout of one second read "one replica behind a load balancer?"). A block that lasts to the
 * run's end is key-revoked.ts's. Words only: what the 403s fail is judged as before (docs/reports.md).
 */
import type { JournalEntry } from '../http/journal.ts'

/** A check as this module reads it (run-result.ts's CheckResult, whose module imports this one's importers). */
interface CheckResult {
  exchanges: readonly { id: string }[]
}

/** At least this many 403s one after another (mod_evasive's smallest block page count and then some). */
const ENOUGH = 10
/** Requests in flight as the block began or lifted cross it: at most one answer in ten inside the stretch is another. */
const DENSITY = 0.9

/** Words to follow a group's rate when every failed check met the 403s of one lifted block ('' otherwise). */
export function liftedBlockWords(checks: readonly CheckResult[], journal: readonly JournalEntry[]): string {
  const answered = journal.filter((e) => e.status !== undefined && e.endedAt !== undefined).sort((a, b) => a.endedAt!.localeCompare(b.endedAt!))
  const first = answered.findIndex((e) => e.status === 403)
  const last = answered.findLastIndex((e) => e.status === 403)
  // none, or no answer after the last one: not lifted
  if (first < 0 || last === answered.length - 1) return ''
  const stretch = answered.slice(first, last + 1)
  const blocked = new Set(stretch.filter((e) => e.status === 403).map((e) => e.id))
  if (blocked.size < ENOUGH || blocked.size < DENSITY * stretch.length) return ''
  if (!checks.every((c) => c.exchanges.some((e) => blocked.has(e.id)))) return ''
  const servedAfter = answered.length - 1 - last
  return `: every one met a 403 of one stretch of the run (${blocked.size} of ${stretch.length} answers in a row 403, then ${servedAfter} served again), as a guard that blocked this client for a while gives (a brute-force lockout tripped by the run's refused keys, a WAF's rate-based rule, mod_evasive), not a replica`
}
