/**
 * What the command line hands to the suites of suites/, and the run's HTTP client built from it.
 * Runs in one process, one after another or at once (a fleet, the kill matrix runs three), never
 * share a client, a write plan or a once() probe: each run's suites are declared inside its scope
 * (`within`, synchronous), and each suite takes its run there, with thisRun(), and keeps it in
 * what it declares. No run is current after an await: a check's probes and bodies use the run
 * they were declared in, never a run looked up when they resume.
 *
 * Why not AsyncLocalStorage, which would carry the run across awaits: on Node 20 and 22 it turns
 * on a hook for every promise of the process (a run makes about 18,000), which cost a run a
 * fifth of its CPU time and a fleet of ten deployments more (docs/performance.md).
 */
import type { TlsMaterial } from '../config/client-tls.ts'
import type { ExtraHeader } from '../config/extra-headers.ts'
import type { PostResends, SendOptions } from '../http/client-options.ts'
import { HttpClient } from '../http/client.ts'
import type { JournalListener } from '../http/journal.ts'
import type { RunClock } from '../http/run-clock.ts'
import { namePrefix } from '../result/run-result.ts'
import type { ConfirmationWrites } from './confirmation-writes.ts'
import type { WritesFrom } from '../config/write-settings.ts'
import type { ListsRead } from '../result/ledger-from-list.ts'

export interface RunContext {
  baseUrl: string
  apiKey: string
  /** Names of created records start with namePrefix(runId), so they can be found later. */
  runId: string
  timeoutMs: number
  maxResponseBytes: number
  /** No request that may create anything (no POST at all). */
  readOnly: boolean
  /** At most this many POST requests (--max-writes); undefined: every declared POST. */
  maxWrites?: number
  /** Where read-only or the budget came from when not from a flag (an env file's CONFORM_READ_ONLY): the refusals name it. */
  writesFrom?: WritesFrom
  /** At most this many resends of POSTs after a 429 or 503 (lib/http/retry-after.ts POST_RESENDS_PER_WRITE). */
  maxPostResends?: number
  /** --max-writes was given: no POST is sent again after a lost answer (lib/http/lost-answer.ts). */
  boundedWrites?: boolean
  /** Without it, at most this many POSTs sent again after lost answers (the plan's POSTs). */
  maxLostPostResends?: number
  /** The run's count of POSTs sent again, shared by every client of the run, so that the bounds are the run's. */
  postResends?: PostResends
  /** Selected rules (--rule); empty: all. POSTs no selected rule judges are not sent. */
  rules: string[]
  /** The run's journal (lib/http/journal.ts): the HTTP client hands it every request's stages. */
  journal?: JournalListener
  /** Every request's headers in the journal, a GET's too (a dry run, lib/cli/dry-run.ts). */
  journalEveryHeader?: boolean
  /** Seed of the generated inputs (--seed): the same seed sends the same values. */
  seed: number
  /** --list-lag: how long a created record may take to appear in the list (re-reads while it is missing); 0: the first list is judged. */
  listLagMs: number
  /** The run's end and clock (lib/http/run-clock.ts): the HTTP client sends nothing once it has ended. */
  run?: RunClock
  /** The proxy the run goes through, chosen from the run's environment; undefined: none. */
  proxy?: string
  /** --ca-cert, --client-cert: for the TLS handshakes with the base URL's origin only. */
  tls?: TlsMaterial
  /** At most this many requests a second (--rate-limit). */
  requestsPerSecond?: number
  /** True once the run knows why its requests go unanswered (a port that speaks TLS): none is sent again after a lost answer. */
  resendsStopped?: () => boolean
  /** Aborted once the run's first answers show the port speaks no HTTP/1.1: the HTTP client sends nothing more. */
  wrongPort?: AbortSignal
  /** A question to the port under way (a TLS handshake): no request goes to it before its answer. */
  portAsked?: () => Promise<void> | undefined
  /** What a request awaits before it goes (the run's first list, asked with the key, answered: lib/runner/list-first.ts), or undefined. */
  heldFirst?: (request: SendOptions) => Promise<void> | undefined
  /** At most this many requests in flight at once (--concurrency). */
  concurrency: number
  /** The run's W3C trace id: every request's traceparent carries it. */
  traceId: string
  /** What every request's User-Agent names. */
  identity: { version: string; runId: string }
  /** --header: on every request. */
  extraHeaders: ExtraHeader[]
  /** A fleet's other keys, hidden in the client's evidence as this run's key is. */
  otherSecrets?: readonly string[]
  /** Every list answer the suites read is handed here (its records of the run's prefixes kept): the ledger's records no answer announced (lib/result/ledger-from-list.ts). Shared by the run's attempts and rounds. */
  listsRead?: ListsRead
  /** The ids the run's creates that another create sends (valid-create.ts `sendsIdOf`) were answered with, by key: shared with its confirmation attempts, which send the run's id rather than create that record again. */
  createdIds?: Map<string, string>
  /** The creates whose long values and plain ASCII of their sizes were both refused, so the run sent their short form (probes.ts): a confirmation attempt sends that short form again, not the two refused creates first. */
  shortFormsSent?: Set<string>
  /** The run's first answers a check compares its confirmation attempts' with, by name (the first list: suites/categories/still-listed.ts): shared with those attempts, which need not make the run's writes again. */
  firstAnswers?: Map<string, unknown>
  /** Set in a confirmation attempt (lib/runner/confirmation.ts): the POSTs it may send. */
  confirming?: ConfirmationWrites
}

/** One run's state: its context, and what is built from it on first use. */
export interface RunScope {
  readonly context: RunContext
  client?: HttpClient
  /** Per-run values of the suite kit (the write plan), by name. */
  readonly memo: Map<string, unknown>
}

/** The run whose suites are being declared (or whose check is starting), while `within` runs; none after. */
let current: RunScope | undefined

/** A new run's scope; `within` runs code in it (collecting the suites, running each check). */
export function newRunScope(context: RunContext): RunScope {
  return { context, memo: new Map() }
}

/** Runs `run` with `scope` current, for as long as it runs synchronously (the start of an async function, not what follows its first await). */
export function within<T>(scope: RunScope, run: () => T): T {
  const outer = current
  current = scope
  try {
    return run()
  } finally {
    current = outer
  }
}

/** The clock of the run whose check is starting (its deadline, its end), if it has one; undefined outside `within`. */
export function currentRunClock(): RunClock | undefined {
  return current?.context.run
}

/** A run, as the suites keep it: taken with thisRun() where they declare their checks. */
export interface Run {
  readonly context: RunContext
  /** The run's HTTP client, built on first use. */
  client(): HttpClient
  /** Prefix of every record name this run creates (lib/result/run-result.ts says why it is short). */
  prefix(): string
  /** A value computed once per run (`make` runs on the first call of the run). */
  perRun<T>(name: string, make: () => T): T
}

const runs = new WeakMap<RunScope, Run>()

/**
 * The current run: call it while the suites are declared (a suite's body, a function it calls)
 * and keep what it returns. Throws outside a run's scope, or after an await, where another run
 * may have been current meanwhile.
 */
export function thisRun(): Run {
  const scope = current
  if (!scope) {
    throw new Error('no run is current here: suites/ run only through `npm run conform`, and a suite takes its run with thisRun() where it declares its checks (after an await, no run is current)')
  }
  let run = runs.get(scope)
  if (!run) {
    const memo = scope.memo
    run = {
      context: scope.context,
      client: () => (scope.client ??= new HttpClient(scope.context)),
      prefix: () => namePrefix(scope.context.runId),
      perRun: <T>(name: string, make: () => T): T => {
        if (!memo.has(name)) memo.set(name, make())
        return memo.get(name) as T
      },
    }
    runs.set(scope, run)
  }
  return run
}
