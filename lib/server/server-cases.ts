/**
 * What a mutation (lib/server/mutations/) and a variant (lib/server/variants.ts) have in common:
 * a named way to start the reference server, and the helpers their behaviours are written with.
 */
import { randomBytes } from 'node:crypto'
import type { FailureCode } from '../spec/failure-codes.ts'
import type { Behaviour, Reply, RequestInfo, RunningServer, StoredCategory } from './reference-server.ts'
import { conformingBehaviour, startReferenceServer } from './reference-server.ts'

/** One way to run the reference server: behaviour overrides plus where and with what it starts. */
export interface ServerCase {
  /** kebab-case, unique within its table. */
  name: string
  /** What the server does, in the words of an incident report. */
  description: string
  behaviour: Partial<Behaviour>
  /** Default /v1. */
  basePath?: string
  /** Extra arguments for `npm run conform` (e.g. --allow-any-base-path, --read-only). */
  args?: string[]
  /** Why a run against it takes seconds of waiting (the kill matrix starts these first, so they are not its tail). */
  slow?: string
  /** Records present before the run; a function, so tables stay cheap to import. */
  seed?: () => StoredCategory[]
  /** The key the server issues, when the case needs one of its own (all digits); else a random one. */
  apiKey?: string
}

/** A server that breaks one rule of spec/rules.yaml on purpose: the suite must fail that rule. */
export interface Mutation extends ServerCase {
  /** The rule id that must fail (others may fail as a side effect). */
  breaks: string
  /** The failure code a failed check of that rule must carry: the reason is pinned, not only the rule. */
  code: FailureCode
  /** What confirmation (--confirm) must say of such a failure: a fault on one request in N is intermittent. Unset: not pinned. */
  recurrence?: 'deterministic' | 'intermittent'
  /**
   * Why the catch depends on timing that a loaded machine may not give (a body's two pieces read
   * at once): the kill matrix runs it up to three times, and it is caught when one run catches it.
   */
  timing?: string
  /**
   * Why the request that shows the fault differs from run to run (which connection the pool picks):
   * docs/proof.md shows the failure code's meaning, not one run's message, for it.
   */
  shownByVarying?: string
  /**
   * Why the other rules the mutation fails as a side effect differ from run to run (which request
   * meets the fault first): docs/proof.md says so instead of one run's list.
   */
  alsoFailsVarying?: string
}

/** A server that uses a freedom the interface document leaves: the suite must pass it (exit 0). */
export type Variant = ServerCase

export interface StartCaseOptions {
  apiKey: string
  port?: number
  host?: string
}

/** The key to start a case with: its own, or a new random one. */
export const caseKey = (serverCase: ServerCase): string => serverCase.apiKey ?? randomBytes(18).toString('base64url')

export function startCase(serverCase: ServerCase, options: StartCaseOptions): Promise<RunningServer> {
  return startReferenceServer({
    apiKey: options.apiKey,
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(serverCase.basePath !== undefined ? { basePath: serverCase.basePath } : {}),
    ...(serverCase.seed ? { seed: serverCase.seed() } : {}),
    behaviour: serverCase.behaviour,
  })
}

export function findCase<T extends ServerCase>(table: readonly T[], name: string): T | undefined {
  return table.find((c) => c.name === name)
}

// --- helpers for writing behaviours ------------------------------------------------------------

/** An error reply with the conforming Error record. */
export function errorReply(status: number, code: string, message: string, headers: Record<string, string> = {}): Reply {
  return { status, headers, body: conformingBehaviour.errorBody(status, code, message) }
}

/** The create body was sent but could not be parsed as JSON (the server answered 400 for it). */
export function isInvalidJson(reply: Reply, request: RequestInfo): boolean {
  return request.operation === 'createCategory' && reply.status === 400 && request.body === undefined && (request.rawBody ?? '') !== ''
}

/** The create request came without a body (the server answered 400 for it). */
export function isMissingBody(reply: Reply, request: RequestInfo): boolean {
  return request.operation === 'createCategory' && reply.status === 400 && request.rawBody === ''
}

/** The create body parsed but failed validation (the server answered 400 for it). */
export function isInvalidBody(reply: Reply, request: RequestInfo): boolean {
  return request.operation === 'createCategory' && reply.status === 400 && request.body !== undefined
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** A record as JSON text with the id written verbatim (for ids JSON cannot carry as a bigint). */
export function recordWithRawId(record: StoredCategory, rawId: string): string {
  const { id: _id, ...rest } = record
  return `{"id":${rawId},${JSON.stringify(rest).slice(1)}`
}

/** `count` categories with ids 1..count, as a long-lived service would have. */
export function seedCategories(count: number): StoredCategory[] {
  const kinds = ['dog', 'cat', 'rabbit', 'hamster', 'parrot', 'goldfish', 'tortoise', 'ferret']
  const records: StoredCategory[] = []
  for (let i = 1; i <= count; i++) {
    const kind = kinds[i % kinds.length]
    records.push(i % 3 === 0 ? { id: BigInt(i), name: `${kind}-${i}` } : { id: BigInt(i), name: `${kind}-${i}`, description: `Seeded ${kind} category number ${i}.` })
  }
  return records
}

/** `slow` of a case whose list never shows a record the run created: the list is read again for --list-lag (5 s) before each verdict. */
export const NEVER_LISTED = 'a created record is never listed: the list is read again for 5 s (--list-lag) in each of 3 probes (--confirm 2)'

/** How far behind the writes a list read from a replica (or a search index) is, in the cases that model one. */
export const LIST_LAG_MS = 300
/**
 * When each record was stored, keyed by the record itself (so cases run side by side do not share
 * it, and a list handed on by another variant's listBody in a combination, reordered or filtered,
 * still lags): lib/server/variant-combinations.ts.
 */
const storedAt = new WeakMap<StoredCategory, number>()

/** Notes that the record `id` was stored now, for listBehindWrites. */
export function storedNow(store: StoredCategory[], id: bigint): void {
  const record = store.findLast((r) => r.id === id)
  if (record) storedAt.set(record, Date.now())
}

/** The list as a replica `lagMs` behind the writes shows it: records stored (storedNow) since are not in it yet. */
export function listBehindWrites(store: StoredCategory[], lagMs = LIST_LAG_MS): StoredCategory[] {
  return store.filter((r) => Date.now() - (storedAt.get(r) ?? 0) >= lagMs)
}
