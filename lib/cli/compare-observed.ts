/**
 * What `compare` says of the two runs' observed behaviour (lib/result/observed-behaviour.ts): every
 * leaf that differs, and why a run recorded less than a whole run would. A --read-only run records
 * nothing only a POST shows, a --rule run nothing the rules it left out send: their "not recorded"
 * is said so. A run cut short (--deadline, a signal, a limit it could not wait out) or held to a
 * write budget recorded what it had sent: the longest name it had sent, 16 characters, beside the
 * other run's 256, read as a limit the deployment had come to keep ("acceptedName: 256 → 16"), and
 * the media types it had not met yet as gone. Such a run's observed behaviour is not compared.
 */
import { heldToWriteBudget } from '../result/known-problems.ts'
import { budgetSetting, readOnlySetting, type WritesFrom } from '../config/write-settings.ts'
import type { RunResult } from '../result/run-result.ts'

/** Every leaf of `observed` that differs between the runs, as "path: A → B". */
function observedDifferences(a: unknown, b: unknown, path = 'observed'): string[] {
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()
    return keys.flatMap((key) => observedDifferences((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}.${key}`))
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [`${path}: ${JSON.stringify(a) ?? 'not recorded'} → ${JSON.stringify(b) ?? 'not recorded'}`]
}

/** Where the run's read-only or budget came from (a targets entry, a .env file), read with care: compare reads files another job wrote. */
function writesFrom(run: RunResult): WritesFrom | undefined {
  const from = run.options?.writesFrom as Record<string, unknown> | undefined
  if (typeof from !== 'object' || from === null) return undefined
  return Object.fromEntries(['readOnly', 'maxWrites'].flatMap((key) => (typeof from[key] === 'string' ? [[key, from[key]]] : [])))
}

/** Problems that kept requests of the run from being sent: what it observed is what it had sent. */
const CUT_SHORT = new Set(['deadline', 'interrupted', 'outlasted', 'stalled'])

/** Why the run observed only part of what a whole run does, beyond --read-only and --rule; undefined when it did not. */
function partly(run: RunResult): string | undefined {
  const cut = (run.problems ?? []).find((p) => CUT_SHORT.has(p.kind))
  if (cut) return cut.kind === 'deadline' ? 'was cut short by --deadline' : cut.kind === 'interrupted' ? 'was interrupted' : 'kept requests back (a limit or a stall it could not wait out)'
  // the budget as the run's own reports name it: a targets entry's maxWrites, or a .env file's, is no --max-writes given
  if (heldToWriteBudget(run)) return `sent only some of its POSTs (${budgetSetting(run.options?.maxWrites, writesFrom(run))})`
  return undefined
}

/** The differences to list, and what the heading says in brackets: their count and why a run recorded less, or why none are compared. */
export function compareObserved(a: RunResult, b: RunResult): { differences: string[]; words: string } {
  const runs = [['A', a], ['B', b]] as const
  const cut = runs.flatMap(([name, run]) => (partly(run) === undefined ? [] : [`${name} ${partly(run)}`]))
  if (cut.length > 0) return { differences: [], words: `not compared: ${cut.join(' and ')}, so what it observed is what it had sent (the longest name it sent is no limit)` }
  const differences = observedDifferences(a.observed ?? {}, b.observed ?? {})
  if (!differences.some((o) => o.includes('not recorded'))) return { differences, words: `${differences.length}` }
  const ran = (option: (run: RunResult) => boolean) => runs.filter(([, run]) => option(run)).map(([name]) => name)
  const readOnly = ran((run) => run.options?.readOnly === true)
  // a run of some rules records only what they sent
  const someRules = ran((run) => run.options?.readOnly !== true && (run.options?.rules?.length ?? 0) > 0)
  const words = [
    `${differences.length}`,
    readOnly.length === 0 ? '' : `; ${readOnly.map((name) => `${name} ran ${readOnlySetting(writesFrom(name === 'A' ? a : b))}`).join(' and ')}, so what only a POST shows is not recorded there`,
    someRules.length === 0 ? '' : `; ${someRules.join(' and ')} ran some rules (--rule), so what the others send is not recorded there`,
  ].join('')
  return { differences, words }
}
