/**
 * A key that stops working during the run: revoked, rotated, or a token that expired after its
 * minutes. From some request on, every request sent with the key is answered 401 (or 403),
 * including operations that had been served with the same key earlier in the run. That is no
 * verdict on the service: the run is incomplete (exit 2), says from which request on, and the
 * checks those refusals would fail are not verified. A service that refuses the valid key on one
 * operation from the start is another matter: that operation was never served, so nothing
 * "stopped", and its rule still fails.
 */
import type { Exchange } from '../http/exchange.ts'
import type { JournalEntry } from '../http/journal.ts'
import { KEY_AUTHORIZATION } from '../http/redact.ts'
import type { RunProblem } from './run-problems.ts'

export const KEY_REVOKED = 'the server stopped accepting the key during the run'

/** Fewer refusals than this in the tail say too little (a last request that happened to be refused). */
const ENOUGH = 3

const refusal = (status: number) => status === 401 || status === 403
const operation = (e: Exchange) => `${e.request.method} ${new URL(e.request.url).pathname}`

export interface KeyRevoked {
  /** The problem (kind key-revoked), its message starting with KEY_REVOKED. */
  problem: RunProblem
  /** The exchanges refused from then on: checks that failed on one of them are not verified. */
  refused: ReadonlySet<string>
  skipReason: string
}

/** Whether the run's evidence holds a recheck that served the key (lib/runner/key-recheck.ts): no refusal of it, before or after, is then the key's fault. */
const keyServedOnRecheck = (exchanges: readonly Exchange[]): boolean => exchanges.some((e) => e.keyRecheck === true && e.response !== undefined && e.response.status >= 200 && e.response.status < 300)

/** When the answer came (ms): requests go out at once, so the order of the answers, not of the requests, is the server's. */
const answeredAt = (e: Exchange) => Date.parse(e.startedAt) + e.durationMs

/**
 * Whether the key stopped working: the answers to it, in the order they came, end in a run of at
 * least ENOUGH refusals that includes an operation the key was served on before. Requests in flight
 * when it stopped cross each other, so every refusal answered after the first of those requests was
 * sent counts as one of them.
 */
export function keyRevoked(exchanges: readonly Exchange[], journal: readonly JournalEntry[]): KeyRevoked | undefined {
  if (keyServedOnRecheck(exchanges)) return undefined
  const byId = new Map<string, Exchange>()
  for (const e of exchanges) if (e.request.headers.authorization === KEY_AUTHORIZATION && e.response) byId.set(e.id, e)
  // numbered in the order the answers came, as near as a client sees to the order the server handled them in
  // ISO times of one clock: their text sorts as they do (compared as text, not localeCompare'd)
  const ended = journal.filter((entry) => entry.onWire).map((entry, index) => ({ at: entry.endedAt ?? entry.at, id: entry.id, index }))
  ended.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.index - b.index))
  const position = new Map(ended.map(({ id }, index) => [id, index + 1]))
  // each time parsed once, not at every comparison of the sort
  const order = [...byId.values()].map((e) => ({ e, at: answeredAt(e), position: position.get(e.id) ?? 0 }))
  const ordered = order.sort((a, b) => a.at - b.at || a.position - b.position).map(({ e }) => e)
  let from = ordered.length
  while (from > 0 && refusal(ordered[from - 1]!.response!.status)) from--
  const tail = ordered.slice(from)
  if (tail.length < ENOUGH || from === 0) return undefined
  const served = new Map<string, Exchange>()
  for (const e of ordered.slice(0, from)) if (e.response!.status < 300) served.set(operation(e), e)
  const again = tail.find((e) => served.has(operation(e)))
  if (!again) return undefined
  const since = Math.min(...tail.map((e) => Date.parse(e.startedAt)))
  const refused = ordered.filter((e) => refusal(e.response!.status) && answeredAt(e) >= since)
  const numbered = tail.filter((e) => position.has(e.id)).sort((a, b) => position.get(a.id)! - position.get(b.id)!)
  const first = numbered[0] ?? tail[0]!
  const from_ = position.has(first.id) ? `request ${position.get(first.id)} on (requests numbered in the order their answers came)` : `${first.startedAt} on`
  const earlier = served.get(operation(again))!
  const earlierAt = position.has(earlier.id) ? `request ${position.get(earlier.id)} of the run` : earlier.startedAt
  const statuses = [...new Set(refused.map((e) => e.response!.status))].join(' or ')
  // requests in flight as the block began cross each other: from the first refusal of the key on
  const onWire = new Map(journal.filter((entry) => entry.onWireAt !== undefined).map((entry) => [entry.id, Date.parse(entry.onWireAt!)]))
  // a block answers 403 to all: a key answered 401 was refused by the service, not the block (review39)
  const blocked = refused.every((e) => e.response!.status === 403) ? clientBlocked(exchanges, Math.min(...refused.map(answeredAt)), ordered, (e) => onWire.get(e.id) ?? Date.parse(e.startedAt)) : undefined
  const why = blocked
    ? `, and so were the last ${blocked.length} sent without it or with another key: a gateway that blocks this client for a while ` +
      `(mod_evasive, a WAF's rate-based rule: 403 where 429 is meant; --rate-limit under its limit keeps the run from tripping it), or the key revoked, rotated or expired`
    : `; the key was revoked, rotated or expired, or the service refuses a valid key under load (a limiter that answers ${statuses} where 429 is meant)`
  return {
    problem: {
      kind: 'key-revoked',
      message:
        `${KEY_REVOKED}: from ${from_}, all ${refused.length} requests sent with it were answered ${statuses}, ` +
      `including ${operation(again)}, which it had served with the same key (${earlierAt}, ${earlier.response!.status})` +
      `${why}: checks of those answers are not verified; a run again says which`,
    },
    // a block's 403s to requests without the key stay judged: §5.3 asks 401 of them (docs/reports.md)
    refused: new Set(refused.map((e) => e.id)),
    skipReason: blocked
      ? `not verified: every request was answered 403 from ${from_}, with the key or without (a gateway's block of this client, or the key revoked)`
      : `not verified: the key was refused from ${from_} (revoked, rotated or expired during the run)`,
  }
}

/**
 * The requests without the key (or with another) answered 403 in a block of this client: the last
 * of them in the order they went on the wire, at least ENOUGH, all answered 403, and their first
 * answer after the key's first refusal, or before it where no request with the key sent since was
 * served and requests without it had been answered otherwise before (a lockout that counts
 * refusals, a WAF's, fail2ban's or a gateway's brute-force guard, answers 403 to the requests
 * without a key first, since they tripped it). Requests in flight as the block began cross it, so
 * every 403 answered since its first answer is the block's. The server then most likely refused
 * this client, not the key: mod_evasive and a WAF's rate-based rule (AWS WAF's default action)
 * answer every request of an address 403 for a while once it sent too many; a revoked key changes
 * nothing for requests that never carried it. Not where the key was answered 401 (a block answers
 * 403 to all), nor, where the block began first, where the requests of its kind (without a key, or
 * with one) were answered 403 always: a service that answers a wrong key 403. Undefined otherwise.
 */
function clientBlocked(exchanges: readonly Exchange[], firstRefusalAt: number, keyed: readonly Exchange[], sent: (e: Exchange) => number): Exchange[] | undefined {
  const byId = new Map<string, Exchange>()
  for (const e of exchanges) if (e.request.headers.authorization !== KEY_AUTHORIZATION && e.response) byId.set(e.id, e)
  const ordered = [...byId.values()].sort((a, b) => sent(a) - sent(b) || answeredAt(a) - answeredAt(b))
  let from = ordered.length
  while (from > 0 && ordered[from - 1]!.response!.status === 403) from--
  const tail = ordered.slice(from)
  if (tail.length < ENOUGH) return undefined
  const start = sent(tail[0]!)
  // requests of a kind answered otherwise before (401 without a key): a service that answers 403 to a wrong key always is no block (review39)
  const keyless = (e: Exchange) => e.request.headers.authorization === undefined
  const changed = tail.some((t) => ordered.slice(0, from).some((e) => keyless(e) === keyless(t) && e.response!.status !== 403))
  const keyRefusedSince = changed && keyed.every((e) => sent(e) < start || refusal(e.response!.status))
  const blockAnswered = Math.min(...tail.map(answeredAt))
  if (blockAnswered < firstRefusalAt && !keyRefusedSince) return undefined
  return ordered.filter((e) => e.response!.status === 403 && answeredAt(e) >= blockAnswered)
}

/** A failed check whose evidence holds one of the refusals is not verified instead (run-result.ts's CheckResult; it imports this file). */
export function withoutRevokedFailures<C extends { status: string; exchanges: readonly Exchange[] }>(checks: C[], revoked: KeyRevoked): C[] {
  return checks.map((c) =>
    c.status === 'fail' && c.exchanges.some((e) => revoked.refused.has(e.id)) ? { ...c, status: 'skip', cause: 'key-revoked', skipReason: revoked.skipReason, failure: undefined, reproduce: [] } : c,
  )
}
