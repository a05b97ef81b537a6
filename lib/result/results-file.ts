/**
 * results.json as a file: the run's result with each HTTP exchange written once. In memory every
 * check holds its evidence (an exchange is the evidence of every check that judged it: the first
 * list of a run, of about fifty). Written that way, a run's results.json repeated the list's
 * exchange fifty times: 1.5 MB, of which 0.13 MB were distinct exchanges, and making, redacting
 * and writing it was a fifth of a fleet's time per deployment. The file has the exchanges in one
 * list, `exchanges` (in the order the checks first name them), and each check their ids in its
 * `exchangeIds`, in its order: the ids the journal and the ledger (`exchangeId`) already use.
 * Readers (compare, merge, scripts) resolve them with resultFromFile, which also reads a
 * results.json of an earlier version, whose checks hold their exchanges.
 */
import type { Exchange } from '../http/exchange.ts'
import type { CheckResult, RunResult } from './run-result.ts'
import { exchangeAsShown } from './shown-headers.ts'

/** A check as results.json holds it: its exchanges by id. */
type FileCheck = Omit<CheckResult, 'exchanges'> & { exchangeIds: string[] }

/** The run's result in the form results.json holds it. */
export function resultsFileOf(result: RunResult): Record<string, unknown> {
  const exchanges = new Map<string, Exchange>()
  const rules = result.rules.map((rule) => ({
    ...rule,
    checks: rule.checks.map(({ exchanges: evidence, ...check }): FileCheck => {
      for (const exchange of evidence) if (!exchanges.has(exchange.id)) exchanges.set(exchange.id, exchange)
      return { ...check, exchangeIds: evidence.map((e) => e.id) }
    }),
  }))
  // an answer's headers past the first ones are counted, not written (shown-headers.ts)
  return { ...result, rules, exchanges: [...exchanges.values()].map(exchangeAsShown) }
}

/**
 * A parsed results.json as the result model: each check's exchanges from its ids. A results.json
 * of an earlier version (checks holding their exchanges) is returned as it is. An id the file does
 * not list is left out (a file edited by hand), and a rule or check that is no object is left as it is
 * (for the reader to refuse), not a crash.
 */
export function resultFromFile<T>(data: T): T {
  const file = data as { rules?: unknown; exchanges?: unknown }
  if (!Array.isArray(file.rules) || !Array.isArray(file.exchanges)) return data
  const byId = new Map((file.exchanges as Exchange[]).map((e) => [e.id, e]))
  const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null
  const rules = (file.rules as ({ checks?: unknown } | null)[]).map((rule) =>
    !isObject(rule) || !Array.isArray(rule.checks)
      ? rule
      : {
          ...rule,
          checks: (rule.checks as (Partial<FileCheck & CheckResult> | null)[]).map((given) => {
            if (!isObject(given)) return given
            const { exchangeIds, ...check } = given
            return Array.isArray(exchangeIds) ? { ...check, exchanges: exchangeIds.flatMap((id) => byId.get(id) ?? []) } : check
          }),
        },
  )
  const { exchanges: _listed, ...rest } = file
  return { ...rest, rules } as T
}
