/**
 * --repeat N, for production acceptance behind a load balancer: after the run's checks, the reads
 * and the create-then-list round trip go N - 1 more times, each round in a fresh probe scope (new
 * once() probes, a fresh name prefix) and over fresh connections (an HTTP client of its own), so
 * that the replicas are reached in turn. Each round may send one POST, the first create; the other
 * POSTs stay the first round's. Every rule then says in how many rounds it failed
 * (samples: {runs, failed}), and a rule that failed in any round fails the run.
 */
import type { CheckResult } from '../result/run-result.ts'
import type { Samples } from '../result/samples.ts'
import { HttpClient } from '../http/client.ts'
import { collectChecks, type Suite } from '../suite-kit/check.ts'
import { newRunScope, within, type RunScope } from '../suite-kit/run-context.ts'
import type { WritePlan } from '../suite-kit/write-plan.ts'
import { runCheck, type CheckOutcome } from './check-runner.ts'
import { freshRunId, ROUND_OFFSET } from '../result/record-prefixes.ts'
import type { IndexedResult } from './confirmation.ts'

/** POSTs one further round sends: the create of the create-then-list round trip. */
export const WRITES_PER_ROUND = 1


/**
 * The --max-writes a --repeat needs: the first round's POSTs and one create in each further round; a smaller explicit one is refused before any request.
 * `from`: the setting the budget came from when no flag gave it (`CONFORM_MAX_WRITES=6 in .env.production`), named instead of a flag nobody typed.
 */
export function repeatBudgetProblem(plan: WritePlan, repeat: number, maxWrites: number | undefined, from?: string): string | undefined {
  if (repeat <= 1 || maxWrites === undefined) return undefined
  const need = plan.allowed.length + (repeat - 1) * WRITES_PER_ROUND
  if (maxWrites >= need) return undefined
  const setting = from ?? `--max-writes ${maxWrites}`
  return (
    `${setting} is too small for --repeat ${repeat}: the first round sends up to ${plan.allowed.length} POSTs, ` +
    `and each further round ${WRITES_PER_ROUND} (a create, then the list): ${need} in all. ` +
    (from === undefined ? `Raise --max-writes to ${need}, or leave it out` : `Raise it to ${need}, or take it out there`) +
    ` (the default covers every round); ` +
    `to keep production's footprint small instead, --repeat with --read-only reads in every round and writes nothing, and --max-writes alone (without --repeat) bounds the records`
  )
}

export interface Rounds {
  /** Every check's result of every further round, with the index of its declaration. */
  results: (IndexedResult & { ruleId: string; round: number })[]
}

/**
 * Runs rounds 2 … `repeat` one after another (each round's checks at once). `stopped` ends them at
 * the run's deadline; `firstCreate` is the key of the POST each round may send.
 */
export async function repeatRounds(suites: readonly Suite[], scope: RunScope, options: { repeat: number; selected: readonly string[]; firstCreate?: string; stopped: () => boolean }): Promise<Rounds> {
  const results: Rounds['results'] = []
  for (let round = 2; round <= options.repeat && !options.stopped(); round++) {
    const context = {
      ...scope.context,
      runId: freshRunId(scope.context.runId, ROUND_OFFSET + round),
      confirming: {
        probes: new Set(options.firstCreate ? [options.firstCreate] : []),
        left: Infinity,
        exhausted: '',
        notNeeded: `not sent: a further round (--repeat) sends only the create of the create-then-list round trip`,
        reprobesFailures: false,
      },
    }
    const roundScope = newRunScope(context)
    // fresh connections: a client, and so a pool, of its own; the same journal
    const client = new HttpClient(context)
    roundScope.client = client
    try {
      // filtered as the run's were (check-runner.ts), so that the same index holds the same check
      const declared = within(roundScope, () => collectChecks(suites)).filter((check) => options.selected.length === 0 || options.selected.includes(check.rule.id)).map((check, index) => ({ check, index }))
      const done = await Promise.all(declared.map(async ({ check, index }) => ({ index, ruleId: check.rule.id, round, result: await within(roundScope, () => runCheck(check, [])) })))
      results.push(...done)
    } finally {
      await client.close()
    }
  }
  return { results }
}

/** Per rule: in how many rounds it ran (some check not skipped) and in how many it failed. */
export function samplesOf(first: readonly CheckOutcome[], rounds: Rounds, repeat: number): Map<string, Samples> {
  const byRound = new Map<number, { ruleId: string; result: CheckResult }[]>([[1, first.map((o) => ({ ruleId: o.ruleId, result: o.result }))]])
  for (const r of rounds.results) byRound.set(r.round, [...(byRound.get(r.round) ?? []), r])
  const samples = new Map<string, Samples>()
  for (let round = 1; round <= repeat; round++) {
    const rules = new Map<string, { ran: boolean; failed: boolean }>()
    for (const { ruleId, result } of byRound.get(round) ?? []) {
      const rule = rules.get(ruleId) ?? { ran: false, failed: false }
      rule.ran ||= result.status !== 'skip'
      rule.failed ||= result.status === 'fail'
      rules.set(ruleId, rule)
    }
    for (const [ruleId, { ran, failed }] of rules) {
      const s = samples.get(ruleId) ?? { runs: 0, failed: 0 }
      if (ran) s.runs++
      if (failed) s.failed++
      samples.set(ruleId, s)
    }
  }
  return samples
}
