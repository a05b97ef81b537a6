/**
 * Which POSTs a run may send: computed the same way by the command line (to say so in the run's
 * first lines) and by every worker (to refuse the others), from the declared probes and the
 * options, so no coordination between workers is needed and the bound holds however the test files
 * are spread over them.
 */
import type { RefusalReason } from '../http/journal.ts'
import { POST_RESENDS_PER_WRITE } from '../http/retry-after.ts'
import { budgetSetting, readOnlySetting, type WritesFrom } from '../config/write-settings.ts'

/** A POST the suite can send, in priority order (declared by the case tables of suites/cases/, sorted by write-order.ts). */
export interface DeclaredPost {
  key: string
  creates: boolean
  serves: readonly string[]
  /** Sent only when the service refused a long value (§8: lengths are not shown). */
  followUp?: true
  /** The create whose refusal (400, 413) this plain-ASCII create tells a length limit or not (probes.ts): its confirmation may send it, one of its writes. */
  controlOf?: string
}

export interface WriteOptions {
  readOnly: boolean
  /** Undefined: no bound beyond the declared POSTs. */
  maxWrites?: number
  /** Selected rules (--rule); empty: all. */
  rules: readonly string[]
  /** --confirm: without --max-writes, the default bound adds this many POSTs for each failed POST (lib/runner/confirmation.ts). */
  confirm?: number
  /** --repeat: each further round sends one POST more, the first create (lib/runner/repeat-rounds.ts WRITES_PER_ROUND). */
  repeat?: number
  /** Where read-only or the budget came from when no flag set them (`CONFORM_READ_ONLY in .env.production`): the refusals name it. */
  from?: WritesFrom
}

/** The default bound on POSTs (no --max-writes): the plan's, and `confirm` more for each failed POST, to confirm it; undefined when --max-writes is the bound. */
export function defaultWriteBound(planned: number, options: Pick<WriteOptions, 'maxWrites' | 'confirm'>): number | undefined {
  if (options.maxWrites !== undefined) return undefined
  return planned * (1 + (options.confirm ?? 0))
}

export interface WritePlan {
  /** Keys of the POSTs that may be sent, in priority order. */
  allowed: string[]
  /** How many of those create a record on a conforming server. */
  creating: number
  /** How many of those are sent only to a service that refuses long values. */
  followUps: number
  /** POSTs the selected rules need (all of them without --rule). */
  needed: number
  /** Every declared POST not allowed, with why. */
  refused: Map<string, { reason: RefusalReason; detail: string }>
}

export function writePlan(probes: readonly DeclaredPost[], options: WriteOptions): WritePlan {
  const refused = new Map<string, { reason: RefusalReason; detail: string }>()
  const allowed: string[] = []
  let needed = 0
  let creating = 0
  let followUps = 0
  for (const probe of probes) {
    if (options.rules.length > 0 && !probe.serves.some((rule) => options.rules.includes(rule))) {
      refused.set(probe.key, { reason: 'not-needed', detail: 'not sent: no selected rule (--rule) judges this POST' })
      continue
    }
    needed++
    if (options.readOnly) {
      refused.set(probe.key, { reason: 'read-only', detail: `not verified: ${readOnlySetting(options.from)} sends no request that could create a record` })
      continue
    }
    if (options.maxWrites !== undefined && allowed.length >= options.maxWrites) {
      refused.set(probe.key, {
        reason: 'write-budget',
        detail: `not verified: over the write budget (${budgetSetting(options.maxWrites, options.from)}; this POST is number ${needed})`,
      })
      continue
    }
    allowed.push(probe.key)
    if (probe.creates) creating++
    if (probe.followUp) followUps++
  }
  return { allowed, creating, followUps, needed, refused }
}

/** Where a run of the embedded reference server writes (no setting bounds its writes): the start of its Writes line, the command line's and vitest's. */
export const EMBEDDED_WRITES_TO = "Writes: only to the embedded reference server's memory, gone when the run ends"

/** Whether a run's Writes line is EMBEDDED_WRITES_TO's: the embedded server checked, and no setting that bounds the writes given (read-only or a budget say their plan, as against a service). */
export const writesOnlyToEmbeddedMemory = (embeddedServer: boolean, options: Pick<WriteOptions, 'readOnly' | 'maxWrites'>): boolean => embeddedServer && !options.readOnly && options.maxWrites === undefined

/**
 * The run's first line about writes: what it may send and create. `from` names where the bound came
 * from when it is not the command line's flag (a fleet entry's `readOnly: true`, `maxWrites: 5`).
 */
export function describeWritePlan(plan: WritePlan, options: WriteOptions, from: { readOnly?: string; maxWrites?: string } = {}): string {
  if (plan.needed === 0) return 'Writes: none. The selected rules (--rule) need no POST, so nothing is sent that could create a record.'
  const needed = `${plan.needed} ${plan.needed === 1 ? 'POST' : 'POSTs'} the rules need`
  const readOnlyFrom = from.readOnly ?? '--read-only'
  const budgetFrom = from.maxWrites ?? `--max-writes ${options.maxWrites}`
  if (options.readOnly) return `Writes: none (${readOnlyFrom}). The ${needed} are not sent; the rules about creating are not verified.`
  if (plan.allowed.length === 0) return `Writes: none (${budgetFrom}). The ${needed} are not sent; the rules about creating are not verified.`
  const n = plan.allowed.length
  const others = n - plan.creating - plan.followUps
  const bound = options.maxWrites !== undefined && options.maxWrites < plan.needed ? ` (${budgetFrom}${from.maxWrites !== undefined ? ',' : ''} of the ${plan.needed} the rules need)` : ''
  const confirm = options.confirm ?? 0
  // without --max-writes, a POST whose answer was lost goes again when the list shows it not stored, as many as the plan has (lib/http/lost-answer.ts)
  const unbounded = options.maxWrites === undefined
  const confirming = unbounded && confirm > 0 ? `, and at most ${confirm} more for each failed POST to confirm it (--confirm ${confirm})` : ''
  // --repeat: one create in each further round, when the plan sends it
  const rounds = plan.creating > 0 ? Math.max(0, (options.repeat ?? 1) - 1) : 0
  const inRounds = rounds > 0 ? `, 1 in each further round (--repeat ${options.repeat})` : ''
  const lostAgain = unbounded ? `, and at most ${n} sent again after an answer lost that the list showed not stored: ${(defaultWriteBound(n, options) ?? n) + n + rounds} in all` : ''
  // a budget above the plan leaves room for failures probed again (--confirm), within it: said, or
  // "--max-writes 200" read "at most 90 POSTs" and the run sent 116 (84 of the plan, 32 to confirm)
  const room = unbounded ? 0 : Math.max(0, (options.maxWrites ?? 0) - n - rounds)
  const confirmingInBudget = room > 0 && confirm > 0 ? `, and at most ${Math.min(room, n * confirm)} more to confirm failures (--confirm ${confirm}), within ${budgetFrom}` : ''
  const posts = `at most ${n} ${n === 1 ? 'POST' : 'POSTs'}${bound}${inRounds}${confirming}${confirmingInBudget}${lostAgain}`
  const creating = plan.creating + rounds
  const effect =
    plan.creating === 0
      ? n === 1
        ? ', which a conforming server refuses: it creates a record only on a server that wrongly accepts it.'
        : ', all of which a conforming server refuses: they create records only on a server that wrongly accepts them.'
      : `, creating at most ${creating} ${creating === 1 ? 'record' : 'records'} on a conforming server` +
        (others > 0 ? `; ${others} create one only on a server that wrongly accepts them` : '') +
        // a short value goes only after its class was refused long (and plain ASCII of its sizes too): it takes that record's place, adds none
        // (the line said "at most 4 more records", read as 29 where a conforming server holds at most 25); a budget that cuts a pair in two still promises whole records
        (plan.followUps > 0 ? `; ${plan.followUps} go only to a service that refuses long values, to send those classes of strings in short values (at most ${Math.ceil(plan.followUps / 2)} records, each in place of a long one refused: still at most ${creating} in all)` : '') +
        '.'
  // a 429 or 503 POST goes again once its wait is over, past the bound above (the run's resends of POSTs, lib/http/retry-after.ts):
  // said here, or a run that sent 1,213 POSTs against a limit of 3 a second had promised "360 in all"
  const limited = unbounded ? ` Besides, a POST answered 429 or 503 (a limit, which should store nothing: the list is read before the first of them go again, and one it shows stored does not) goes again once its wait is over: at most ${POST_RESENDS_PER_WRITE * n} such resends in a run.` : ''
  return `Writes: ${posts}${effect} The interface has no delete.${limited}`
}
