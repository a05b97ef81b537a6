/**
 * The words every report uses for the name prefixes of the records a run created
 * (lib/result/record-prefixes.ts): the run's own, and those of its confirmation attempts and
 * further rounds, read from the ledger, so that "names start with …" is true of every record
 * listed. Plain text: each format escapes it.
 */
import { PREFIX, recordPrefixes, type RecordPrefix } from '../result/record-prefixes.ts'
import type { RunResult } from '../result/run-result.ts'
import { plural } from './wording.ts'

function whose(p: RecordPrefix): string {
  switch (p.of.kind) {
    case 'run':
      return "the run's checks"
    case 'confirmation':
      return `confirmation attempt ${p.of.attempt} (--confirm)`
    case 'round':
      return `round ${p.of.round} (--repeat)`
    default:
      return 'not one of this run'
  }
}

/**
 * What carries the prefix, in the reports' words: the name, and for the creates whose name cannot
 * hold it (the empty name, "0", "__proto__", the name of digits), the description; the name of
 * digits' after an "=", which a CSV-injection sanitiser set on descriptions meets there.
 */
export const WHERE_THE_PREFIX_IS = 'names, and the descriptions of the empty name, "0", "__proto__" and (after an "=") the name of digits,'

/** Whether any record of the ledger carries the prefix in its description, its name not holding it. */
export const someNameWithoutPrefix = (ledger: readonly { name: string }[]): boolean => ledger.some((entry) => !PREFIX.test(entry.name))

/**
 * "start with cf-abcde-" when every record carries the run's prefix, else each prefix with whose it
 * is and how many records carry it, e.g. "start with cf-abcde- (the run's checks: 16 records),
 * cf-fghij- (confirmation attempt 1 (--confirm): 2 records)".
 */
export function recordPrefixWords(result: Pick<RunResult, 'runId' | 'ledger' | 'options'>): string {
  const prefixes = recordPrefixes(result)
  const named = prefixes.filter((p) => p.prefix !== undefined)
  const unnamed = prefixes.find((p) => p.prefix === undefined)
  const start = named.length === 1 && named[0]!.of.kind === 'run' ? `start with ${named[0]!.prefix}` : `start with ${named.map((p) => `${p.prefix} (${whose(p)}: ${plural(p.records, 'record')})`).join(', ')}`
  if (named.length === 0) return `carry no name of the suite's (bodies the server should have refused)`
  return unnamed ? `${start}, but for ${plural(unnamed.records, 'record')} from a body with no name of the suite's (one the server should have refused)` : start
}
