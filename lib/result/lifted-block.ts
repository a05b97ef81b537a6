/**
 * Every request answered 403 for a stretch of the run, and served again after it: a guard that
 * blocked this client for a while and lifted before the run ended (a brute-force lockout tripped by
 * the run's own refused keys, a WAF's rate-based rule, mod_evasive). The checks it failed pass
 * when probed again, as one replica's would; the fault groups name the block instead (stackhunt9:
 * a lockout of one second read "one replica behind a load balancer?"). A block that lasts to the
 * run's end is key-revoked.ts's. Words only: what the 403s fail is judged as before (docs/reports.md).
 */
import type { JournalEntry } from '../http/journal.ts'

/** An exchange as this module reads it (exchange.ts's). */
interface Exchange {
  id: string
  request?: { headers: Record<string, string> }
  /** The traceparent of the request before it on its connection. */
  afterOnItsConnection?: string
  response?: { status?: number }
}

/** A check as this module reads it (run-result.ts's CheckResult, whose module imports this one's importers). */
interface CheckResult {
  exchanges: readonly Exchange[]
}

/** At least this many 403s one after another (mod_evasive's smallest block page count and then some). */
const ENOUGH = 10
/** Requests in flight as the block began or lifted cross it: at most one answer in ten inside the stretch is another. */
const DENSITY = 0.9

/**
 * Words to follow a group's rate when every failed check met the 403s of one lifted block ('' otherwise).
 * `exchanges`: the run's (every check's), which say the connection each went on: a block refuses the
 * client on every connection, so its 403s go on two or more. A balancer that pins each connection
 * to a replica (AWS's NLB, a Kubernetes Service) gives one stretch of 403s too, under --concurrency
 * 1: one connection's, on the replica that refuses the key, served again on the next connection.
 * A block met on one connection alone keeps the replica's words (it cannot be told from one).
 */
export function liftedBlockWords(checks: readonly CheckResult[], journal: readonly JournalEntry[], exchanges: readonly Exchange[] = checks.flatMap((c) => c.exchanges)): string {
  const answered = journal.filter((e) => e.status !== undefined && e.endedAt !== undefined).sort((a, b) => a.endedAt!.localeCompare(b.endedAt!))
  const first = answered.findIndex((e) => e.status === 403)
  const last = answered.findLastIndex((e) => e.status === 403)
  // none, or no answer after the last one: not lifted
  if (first < 0 || last === answered.length - 1) return ''
  const stretch = answered.slice(first, last + 1)
  const blocked = new Set(stretch.filter((e) => e.status === 403).map((e) => e.id))
  if (blocked.size < ENOUGH || blocked.size < DENSITY * stretch.length) return ''
  if (!checks.every((c) => c.exchanges.some((e) => blocked.has(e.id)))) return ''
  const refusedOn = new Set(exchanges.flatMap((e) => (blocked.has(e.id) && e.request?.headers.traceparent !== undefined ? [e.request.headers.traceparent] : [])))
  // the connections the 403s went on: each one's first 403 followed no 403 of the stretch there
  const connections = new Set(exchanges.filter((e) => blocked.has(e.id) && !(e.afterOnItsConnection !== undefined && refusedOn.has(e.afterOnItsConnection))).map((e) => e.id)).size
  if (connections < 2) return ''
  const servedAfter = answered.length - 1 - last
  return `: every one met a 403 of one stretch of the run (${blocked.size} of ${stretch.length} answers in a row 403, then ${servedAfter} served again), as a guard that blocked this client for a while gives (a brute-force lockout tripped by the run's refused keys, a WAF's rate-based rule, mod_evasive), not a replica`
}
