/**
 * A run a front's bot check or firewall answered: Cloudflare's challenge page (its Browser Integrity Check, Bot
 * Fight Mode, a WAF or rate limiting rule with a Challenge action) answers 403 with an HTML page
 * "Just a moment..." and `cf-mitigated: challenge`; Vercel's and AWS WAF's say so in headers of
 * their own (lib/http/challenge.ts). Only a browser passes one, and the service never saw the request. Measured against an emulated zone that challenges every request:
 * "the server refused the key: all 83 requests sent with it were answered 403; check CONFORM_API_KEY",
 * and 49 failed checks of the two auth rules, worded as Spring's CSRF 403 and a gateway's authorizer.
 * So, as for a gateway that refused the client certificate (certificate-refused.ts), the checks whose
 * evidence holds a challenge are not verified, the run reaches no verdict (exit 2), and the first
 * line says whose answer it was and how the suite's requests are let through. A front that challenged
 * some paths only let the others through: a must-rule the service's own answers broke is the verdict
 * (exit 1), confirmed as any failure is (mutation list-wrapped-behind-area-challenge). So too for a run whose
 * every request a front refused with a page of its own (Cloudflare's "Sorry, you have been blocked",
 * Azure API Management's 401 for want of its subscription key). A block page for some requests only
 * (a managed rule against markup in a body) is no challenge a browser passes: every client of the
 * API is refused so, and the rules judge it, its words saying whose page it is (known-answers.ts),
 * whether or not the front challenged other paths (mutations markup-blocked and
 * markup-blocked-behind-area-challenge; it was "not verified" in a run with challenges). A front that
 * blocked every request from some moment on (a rate rule) answered for the service from then on; one that blocked requests for a
 * while and served them again when sent again, for that while.
 */
import { blockPageOf, challengeOf as challengeOfHeaders } from '../http/challenge.ts'
import type { Exchange } from '../http/exchange.ts'
import type { JournalEntry } from '../http/journal.ts'
import { certificateRefused, refusedForCertificate, refusedWithoutCertificate, withoutChecksOfTheRefusedCertificate } from './certificate-refused.ts'
import type { RunProblem } from './run-problems.ts'

/** Fewer answers than this say too little (a --rule run of one check). */
const ENOUGH = 3

const challengeOf = (e: Exchange) => (e.response ? challengeOfHeaders(e.response.headers) : undefined)

/** An answer a front's bot check gave instead of the service. */
export const challenged = (e: Exchange): boolean => challengeOf(e) !== undefined

/** Why the run's answers are a front's challenges (a problem of kind challenged), or undefined. */
export function challengedRun(exchanges: readonly Exchange[]): RunProblem | undefined {
  const met = exchanges.filter(challenged)
  const ids = new Set(met.map((e) => e.id))
  if (ids.size < ENOUGH) return undefined
  const { front, header } = challengeOf(met[0]!)!
  const statuses = [...new Set(met.map((e) => e.response!.status))].join(' or ')
  const rule = front === 'Cloudflare' ? 'a WAF custom rule with the Skip action' : 'a rule of the front'
  return {
    kind: 'front-answered',
    message: `${front}'s bot check answered ${ids.size} requests ${statuses} with its challenge (${header}), not the service; only a browser passes it: let the suite's requests through (${rule} for the User-Agent petstore-conform/, or a header given with --header)`,
  }
}

/** An answer a front gave with a refusal of its own (a firewall's block page, API Management's subscription key). */
const blocked = (e: Exchange): boolean => e.response !== undefined && blockPageOf(e.response) !== undefined

/**
 * Why the run's answers are all a front's own refusals, with the key and without it (a problem of kind
 * front-answered), or undefined. All of them: a firewall that blocks some bodies (a managed rule
 * against markup, as ModSecurity's CRS) refuses valid creates, which the rules judge (its 403 names it).
 */
export function blockedRun(exchanges: readonly Exchange[]): RunProblem | undefined {
  const answered = new Map(exchanges.filter((e) => e.response).map((e) => [e.id, e]))
  const met = [...answered.values()].filter(blocked)
  if (met.length < ENOUGH || met.length < answered.size) return undefined
  const { front, refusal, through } = blockPageOf(met[0]!.response!)!
  const statuses = [...new Set(met.map((e) => e.response!.status))].join(' or ')
  return {
    kind: 'front-answered',
    message: `${front} refused every request of the run (${met.length}, ${statuses} with its ${refusal}), with the key and without it, not the service; let the suite's requests through: ${through}`,
  }
}

const answeredAt = (e: Exchange) => Date.parse(e.startedAt) + e.durationMs

/**
 * Why a front refused every request sent after its first block page came, with the key and without it, or
 * undefined: a rate rule or an address block (Cloudflare's block page for a rate rule with the Block
 * action), not a managed rule against some bodies, which leaves the requests around them served. Rate
 * limits are not shown (§8), and what the service would have answered from then on is unknown: its block
 * pages judge nothing (a conforming server behind a rate rule blocking from its 120th request on failed
 * both auth rules, "the server stopped accepting the key").
 */
function blockedFromThenOn(exchanges: readonly Exchange[], journal: readonly JournalEntry[] = []): RunProblem | undefined {
  // each once: an exchange is the evidence of every check that judged it
  const answered = [...new Map(exchanges.filter((e) => e.response).map((e) => [e.id, e])).values()]
  const pages = answered.filter(blocked)
  if (pages.length < ENOUGH) return undefined
  const first = Math.min(...pages.map(answeredAt))
  // written to the wire once the first page had come (a request queued for a connection goes later than it was started)
  const wentAt = new Map(journal.flatMap((j) => (j.onWireAt ? [[j.id, Date.parse(j.onWireAt)] as const] : [])))
  const after = answered.filter((e) => (wentAt.get(e.id) ?? Date.parse(e.startedAt)) >= first)
  if (after.length < ENOUGH || !after.every(blocked)) return undefined
  const { front, refusal, through } = blockPageOf(pages[0]!.response!)!
  const statuses = [...new Set(pages.map((e) => e.response!.status))].join(' or ')
  return {
    kind: 'front-answered',
    message: `${front} refused every request sent after its first ${refusal} (${pages.length} answered ${statuses}), with the key and without it, not the service: a rate rule or an address block of the front (rate limits are not shown, §8); let the suite's requests through: ${through}, or pace the run with --rate-limit`,
  }
}

/** A check after the confirmation: its evidence, and how its failure recurred when probed again (lib/runner/confirmation.ts); judged-check.ts holds what other modules read of one. */
export interface ConfirmedCheck {
  exchanges: readonly Exchange[]
  recurrence?: { kind: 'deterministic' | 'intermittent' | 'unconfirmed' }
}

/** A request without a body as it went, but for the headers each request has its own (its trace context). */
const sameRequest = (e: Exchange) =>
  e.request.body === undefined && e.request.bodyBase64 === undefined
    ? JSON.stringify([e.request.method, e.request.url, Object.entries(e.request.headers).filter(([name]) => name !== 'traceparent' && name !== 'tracestate').sort(([a], [b]) => (a < b ? -1 : 1))])
    : undefined

/**
 * Whether a request without a body was answered with a block page, and the same request (its method, address and headers)
 * served elsewhere in the run: no rule against what it sent blocks it only sometimes (a list read with the key, blocked in the
 * window of a rate rule). Told so without a confirmation (--confirm 0).
 */
function servedElsewhere(exchanges: readonly Exchange[], pages: readonly Exchange[]): boolean {
  const blockedOnes = new Set(pages.flatMap((e) => sameRequest(e) ?? []))
  const isPage = new Set(pages.map((e) => e.id))
  return blockedOnes.size > 0 && exchanges.some((e) => e.response !== undefined && !isPage.has(e.id) && !challenged(e) && blockedOnes.has(sameRequest(e) ?? ''))
}

/**
 * Why a front blocked requests for a while and then served them again, with the pages it blocked every time they were sent, or
 * undefined: a rate rule that blocks for a while (Cloudflare's Block action has a duration; a conforming server behind one blocking
 * requests 100 to 140 failed both auth rules). Told by the confirmation, not by times (a burst's requests go on the wire at nearly the
 * same moment, and told by times, 2 runs in 12 were judged wrongly): a check that failed on a block page was probed again, and the
 * request sent again was served (its failure intermittent), or a request without a body blocked was served elsewhere. A managed rule against some bodies blocks the same body every time: a
 * check whose every attempt failed keeps its block pages judged (mutation markup-blocked).
 */
function blockedForAWhile(checks: readonly ConfirmedCheck[]): { problem: RunProblem; everyTime: ReadonlySet<string> } | undefined {
  // each exchange once: one is the evidence of every check that judged it (a list read of many), and a page is read through
  const exchanges = [...new Map(checks.flatMap((c) => c.exchanges).map((e) => [e.id, e])).values()]
  const pages = exchanges.filter(blocked)
  if (pages.length < ENOUGH) return undefined
  const isPage = new Set(pages.map((e) => e.id))
  const onPage = checks.filter((c) => c.exchanges.some((e) => isPage.has(e.id)))
  if (!onPage.some((c) => c.recurrence?.kind === 'intermittent') && !servedElsewhere(exchanges, pages)) return undefined
  const everyTime = new Set(onPage.filter((c) => c.recurrence?.kind === 'deterministic').flatMap((c) => c.exchanges.filter((e) => isPage.has(e.id)).map((e) => e.id)))
  const { front, refusal, through } = blockPageOf(pages[0]!.response!)!
  const statuses = [...new Set(pages.map((e) => e.response!.status))].join(' or ')
  return {
    everyTime,
    problem: {
      kind: 'front-answered',
      message: `${front} blocked ${pages.length} requests for a while (${statuses} with its ${refusal}), with the key and without it, not the service: sent again, they were served, as a rate rule of the front does (rate limits are not shown, §8); let the suite's requests through: ${through}, or pace the run with --rate-limit`,
    },
  }
}

/** A front that answered for the service: the run's problem, and which of its answers are the front's, not the service's. */
export interface FrontAnswer {
  problem: RunProblem
  answered: (e: Exchange) => boolean
}

/**
 * A front that answered for the service, or undefined: a gateway that refused the client certificate (`withCertificate`: --client-cert
 * was given; `asked`: the server asked a handshake of the run for one), a bot check, or a firewall that blocked the whole run. Its answers:
 * its refusals of the certificate, its challenges, and its block pages where it blocked every request, or blocked for a while (`checks`,
 * judged and confirmed: a request sent again served); a block page among the service's answers is the API's refusal, which the rules judge.
 */
export function frontAnswered(exchanges: readonly Exchange[], withCertificate: boolean, asked = false, journal: readonly JournalEntry[] = [], checks: readonly ConfirmedCheck[] = []): FrontAnswer | undefined {
  const certificate = certificateRefused(exchanges, withCertificate)
  if (certificate) return { problem: certificate, answered: refusedForCertificate }
  // every request alike: each of its answers is the gateway's
  const withoutOne = refusedWithoutCertificate(exchanges, withCertificate, asked)
  if (withoutOne) return { problem: withoutOne, answered: () => true }
  const challenge = challengedRun(exchanges)
  // every request it did not challenge blocked: the service answered none (judged, it failed four rules, exit 1)
  const unchallenged = exchanges.filter((e) => !challenged(e))
  const everyRequestBlocked = blockedRun(unchallenged) ?? blockedFromThenOn(unchallenged, journal)
  // after confirmation only (its checks judged): before, the failures on its block pages are to be probed again
  const forAWhile = everyRequestBlocked ? undefined : blockedForAWhile(checks)
  const problem = challenge ?? everyRequestBlocked ?? forAWhile?.problem
  if (!problem) return undefined
  const frontsPage = (e: Exchange) => blocked(e) && (everyRequestBlocked !== undefined || (forAWhile !== undefined && !forAWhile.everyTime.has(e.id)))
  return { problem, answered: (e) => refusedForCertificate(e) || challenged(e) || frontsPage(e) }
}

/** The checks of a run a front answered: each whose evidence holds an answer of the front's is not verified. */
export function withoutChecksOfTheFront<C extends { status: string; exchanges: readonly Exchange[] }>(checks: C[], { problem, answered }: FrontAnswer): C[] {
  if (problem.kind !== 'front-answered') return withoutChecksOfTheRefusedCertificate(checks, problem, answered)
  const skipReason = `not verified: ${problem.message.split(';')[0]}`
  // skipped ones too: a check that skipped on a challenge ("the service refused the key on POST") was told a cause that is not
  return checks.map((c) => (c.exchanges.some(answered) ? { ...c, status: 'skip', cause: 'front-answered', skipReason, failure: undefined, reproduce: [] } : c))
}
