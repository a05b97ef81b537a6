/**
 * The name prefixes a run's records carry. The run's checks name their records with
 * namePrefix(runId); a confirmation attempt (--confirm) and a further round (--repeat) run in a
 * scope of their own with a fresh prefix (freshRunId), so that the records they create are new,
 * never the run's. The reports say which prefixes the records of a run carry, from its ledger, so
 * that whoever cleans up after a run finds every record it created.
 */
import { unansweredWrite } from '../http/journal.ts'
import { namePrefix, PREFIX, type RunResult } from './run-result.ts'

/** A fresh run id for a confirmation attempt or a further round: another five characters, so another name prefix. */
export function freshRunId(runId: string, attempt: number): string {
  const at = runId.lastIndexOf('-')
  const tag = (parseInt(runId.slice(at + 1), 36) + attempt * 7919) % 36 ** 5
  return `${runId.slice(0, at)}-${tag.toString(36).padStart(5, '0')}`
}

/** The offset freshRunId is given for round r of --repeat (lib/runner/repeat-rounds.ts): apart from the confirmation attempts 1 … N. */
export const ROUND_OFFSET = 100

export interface RecordPrefix {
  /** `cf-xxxxx-`, or undefined for records whose body carried none (a body the server should have refused). */
  prefix?: string
  /** Whose: the run's checks, a confirmation attempt, a further round, or not known. */
  of: { kind: 'run' } | { kind: 'confirmation'; attempt: number } | { kind: 'round'; round: number } | { kind: 'none' } | { kind: 'unknown' }
  records: number
}

/** A run's name prefix, where a body or a name carries one (run-result.ts, beside namePrefix). */
export { PREFIX }

/** Every prefix of the run's records (`cf-xxxxx-`), with whose it is: the run's, each confirmation attempt's, each further round's; never another run's. */
export function runPrefixes(runId: string, options: Pick<RunResult['options'], 'confirm' | 'repeat'>): Map<string, RecordPrefix['of']> {
  const whose = new Map<string, RecordPrefix['of']>([[`${namePrefix(runId)}-`, { kind: 'run' }]])
  for (let attempt = 1; attempt <= (options.confirm ?? 0); attempt++) whose.set(`${namePrefix(freshRunId(runId, attempt))}-`, { kind: 'confirmation', attempt })
  for (let round = 2; round <= (options.repeat ?? 1); round++) whose.set(`${namePrefix(freshRunId(runId, ROUND_OFFSET + round))}-`, { kind: 'round', round })
  return whose
}

/** The prefixes of the ledger's records, the run's first, each with whose it is and how many records carry it. */
export function recordPrefixes(result: Pick<RunResult, 'runId' | 'ledger' | 'options'>): RecordPrefix[] {
  const whose = runPrefixes(result.runId, result.options)
  const counts = new Map<string | undefined, number>()
  for (const entry of result.ledger) {
    // the name sent, or the description of the one create with an empty name: the first prefix in the body
    // (a record found in the list with no POST that sent it: in its name or description as listed)
    const prefix = PREFIX.exec(entry.body ?? '')?.[0] ?? PREFIX.exec(entry.name)?.[0] ?? PREFIX.exec(entry.description ?? '')?.[0]
    counts.set(prefix, (counts.get(prefix) ?? 0) + 1)
  }
  const order = (p: RecordPrefix) => ({ run: 0, confirmation: 1, round: 2, unknown: 3, none: 4 })[p.of.kind] * 1000 + ('attempt' in p.of ? p.of.attempt : 'round' in p.of ? p.of.round : 0)
  return [...counts]
    .map(([prefix, records]): RecordPrefix => (prefix === undefined ? { of: { kind: 'none' }, records } : { prefix, of: whose.get(prefix) ?? { kind: 'unknown' }, records }))
    .sort((a, b) => order(a) - order(b))
}

/**
 * The POSTs that may have created a record no list showed and no answer announced: no answer, or a
 * server fault (journal.ts, mayHaveCreated), outside the ledger. Each report names them, and the
 * fleet counts them beside each deployment's records: "no record created" of a run whose POSTs a
 * deployment going down left unanswered hid the records they may have left.
 */
export function postsInDoubt(result: Pick<RunResult, 'ledger' | 'journal'>): NonNullable<RunResult['journal']> {
  const listed = new Set(result.ledger.map((entry) => entry.exchangeId))
  // a lost answer the list showed not stored was sent again (counted among the resends): no doubt is left of it, as summary.unansweredWrites counts
  const accounted = (e: NonNullable<RunResult['journal']>[number]) => e.status === undefined && !unansweredWrite(e)
  return (result.journal ?? []).filter((e) => e.method === 'POST' && e.mayHaveCreated === true && e.created === undefined && !(e.status !== undefined && e.status < 300) && !accounted(e) && !listed.has(e.id))
}
