/**
 * What the command line hands to the test files of suites/ (through vitest's provide/inject),
 * and the per-worker HTTP client built from it.
 */
import { inject } from 'vitest'
import type { ExtraHeader } from '../config/extra-headers.ts'
import { HttpClient } from '../http/client.ts'
import { namePrefix } from '../result/run-result.ts'

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
  /** Selected rules (--rule); empty: all. POSTs no selected rule judges are not sent. */
  rules: string[]
  /** The run's journal directory: the HTTP client of every worker appends to it (lib/http/journal.ts). */
  journalDir?: string
  /** Seed of the generated inputs (--seed): the same seed sends the same values. */
  seed: number
  /** The run's deadline (--deadline) as epoch ms: the HTTP client sends nothing after it. */
  deadlineAt?: number
  /** At most this many requests a second (--rate-limit). */
  requestsPerSecond?: number
  /** The run's W3C trace id: every request's traceparent carries it. */
  traceId: string
  /** What every request's User-Agent names. */
  identity: { version: string; runId: string }
  /** --header: on every request. */
  extraHeaders: ExtraHeader[]
}

declare module 'vitest' {
  export interface ProvidedContext {
    conform: RunContext
  }
}

let context: RunContext | undefined
let client: HttpClient | undefined

export function runContext(): RunContext {
  context ??= inject('conform')
  if (!context) throw new Error('suites/ run only through `npm run conform`, which provides the run context')
  return context
}

export function httpClient(): HttpClient {
  client ??= new HttpClient(runContext())
  return client
}

/** Prefix of every record name this run creates (lib/result/run-result.ts says why it is short). */
export function recordPrefix(): string {
  return namePrefix(runContext().runId)
}
