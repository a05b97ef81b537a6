/**
 * What the command line hands to the suites of suites/, and the run's HTTP client built from it.
 * A run's checks and every probe they await execute inside its scope (AsyncLocalStorage), so that
 * runs in one process, one after another or at once (the kill matrix runs three), never share a
 * client, a write plan or a once() probe.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { ExtraHeader } from '../config/extra-headers.ts'
import { HttpClient } from '../http/client.ts'
import type { JournalListener } from '../http/journal.ts'
import type { RunClock } from '../http/run-clock.ts'
import { namePrefix } from '../result/run-result.ts'
import type { ConfirmationWrites } from './confirmation-writes.ts'

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
  /** At most this many resends of POSTs after a 429 or 503 (lib/http/retry-after.ts POST_RESENDS_PER_WRITE). */
  maxPostResends?: number
  /** Selected rules (--rule); empty: all. POSTs no selected rule judges are not sent. */
  rules: string[]
  /** The run's journal (lib/http/journal.ts): the HTTP client hands it every request's stages. */
  journal?: JournalListener
  /** Seed of the generated inputs (--seed): the same seed sends the same values. */
  seed: number
  /** The run's end and clock (lib/http/run-clock.ts): the HTTP client sends nothing once it has ended. */
  run?: RunClock
  /** The proxy the run goes through, chosen from the run's environment; undefined: none. */
  proxy?: string
  /** At most this many requests a second (--rate-limit). */
  requestsPerSecond?: number
  /** At most this many requests in flight at once (--concurrency). */
  concurrency: number
  /** The run's W3C trace id: every request's traceparent carries it. */
  traceId: string
  /** What every request's User-Agent names. */
  identity: { version: string; runId: string }
  /** --header: on every request. */
  extraHeaders: ExtraHeader[]
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

const scopes = new AsyncLocalStorage<RunScope>()

/** A new run's scope; `within` runs code in it (collecting the suites, running each check). */
export function newRunScope(context: RunContext): RunScope {
  return { context, memo: new Map() }
}

export function within<T>(scope: RunScope, run: () => T): T {
  return scopes.run(scope, run)
}

function currentScope(): RunScope {
  const scope = scopes.getStore()
  if (!scope) throw new Error('suites/ run only through `npm run conform`, which provides the run context')
  return scope
}

export function runContext(): RunContext {
  return currentScope().context
}

export function httpClient(): HttpClient {
  const scope = currentScope()
  scope.client ??= new HttpClient(scope.context)
  return scope.client
}

/** A value computed once per run (`make` runs on the first call of the run). */
export function perRun<T>(name: string, make: () => T): T {
  const { memo } = currentScope()
  if (!memo.has(name)) memo.set(name, make())
  return memo.get(name) as T
}

/** Prefix of every record name this run creates (lib/result/run-result.ts says why it is short). */
export function recordPrefix(): string {
  return namePrefix(runContext().runId)
}
