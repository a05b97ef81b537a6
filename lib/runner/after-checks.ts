/**
 * What a run does once its checks have ended and before its verdict: the further rounds of
 * --repeat (lib/runner/repeat-rounds.ts), then the confirmation of every failure (--confirm,
 * lib/runner/confirmation.ts), then, when POSTs went after the last list the run read and no answer
 * said they created anything, the list once more, for the ledger (lib/result/ledger-from-list.ts).
 * A passing run with one round does none of these, and sends nothing more.
 */
import { endedAt, type JournalEntry } from '../http/journal.ts'
import { listReadNeeded, type ListsRead } from '../result/ledger-from-list.ts'
import type { CheckResult } from '../result/run-result.ts'
import { roundCheckName } from '../result/check-rounds.ts'
import type { Samples } from '../result/samples.ts'
import type { Suite } from '../suite-kit/check.ts'
import type { RunScope } from '../suite-kit/run-context.ts'
import type { CheckOutcome, RunningChecks } from './check-runner.ts'
import { confirmFailures } from './confirmation.ts'
import { repeatRounds, samplesOf, type Rounds } from './repeat-rounds.ts'

export interface AfterChecksOptions {
  confirm: number
  repeat: number
  selected: readonly string[]
  /** --max-writes as given; undefined: the default budget. */
  maxWrites?: number
  /** The POST each further round sends (the first create), if the run may send it. */
  firstCreate?: string
  stopped: () => boolean
  /** The run's journal so far. */
  journal: () => JournalEntry[]
  /** The POST each declared POST's body is built from (DeclaredPost.needs), sent again with it when it is confirmed. */
  needs?: ReadonlyMap<string, string>
  /** Whether the run's --baseline excuses a failure, which is then not confirmed (lib/runner/confirmation.ts). */
  known?: (ruleId: string, result: CheckResult) => boolean
  /** The lists the run read (none in a --read-only run), and how the list is read once more for the ledger (a GET, the suites', given when the last POST was answered). */
  ledgerList?: { lists: ListsRead; read: (lastWriteAnsweredAt: number) => Promise<unknown> }
}

export interface FinishingChecks {
  /** Settles when the rounds and the confirmation have ended. */
  done: Promise<void>
  /** The first round's outcomes, and the failures of the further rounds (named by round). */
  outcomes(): CheckOutcome[]
  /** Per rule, with --repeat: in how many rounds it ran and failed. */
  samples(): Map<string, Samples> | undefined
}

export function afterChecks(running: RunningChecks, suites: readonly Suite[], scope: RunScope, options: AfterChecksOptions): FinishingChecks {
  let rounds: Rounds = { results: [] }
  const done = running.done.then(async () => {
    if (options.repeat > 1) rounds = await repeatRounds(suites, scope, { repeat: options.repeat, selected: options.selected, ...(options.firstCreate ? { firstCreate: options.firstCreate } : {}), stopped: options.stopped })
    const first = running.outcomes().map((o, index) => ({ index, result: o.result, ruleId: o.ruleId }))
    await confirmFailures([...first, ...rounds.results], suites, scope, {
      attempts: options.confirm,
      selected: options.selected,
      ...(options.maxWrites !== undefined ? { maxWrites: options.maxWrites } : {}),
      stopped: options.stopped,
      journal: options.journal,
      ...(options.needs ? { needs: options.needs } : {}),
      ...(options.known ? { known: options.known } : {}),
    })
    // a record stored by a POST no list read after it (a confirmation's, a --rule selection's) is still the run's
    const ledgerList = options.ledgerList
    if (ledgerList && !options.stopped() && listReadNeeded(options.journal(), ledgerList.lists)) await ledgerList.read(lastWriteAnswered(options.journal())).catch(() => undefined)
  })
  return {
    done,
    outcomes: () => [
      ...running.outcomes(),
      ...rounds.results
        .filter((r) => r.result.status === 'fail')
        .map((r) => ({ ruleId: r.ruleId, result: { ...r.result, name: roundCheckName(r.result.name, r.round, options.repeat) } })),
    ],
    samples: () => (options.repeat > 1 ? samplesOf(running.outcomes(), rounds, options.repeat) : undefined),
  }
}

/** When the last POST sent was answered (or given up on), ms since the epoch. */
const lastWriteAnswered = (journal: readonly JournalEntry[]) =>
  Math.max(0, ...journal.filter((e) => e.method === 'POST' && e.onWire).map(endedAt))
