/**
 * A base URL whose host the server does not answer for: every request of the run answered 421
 * Misdirected Request, which RFC 9110 §15.5.20 defines as "the request was directed at a server
 * that is unable or unwilling to produce an authoritative response for the target URI". Caddy
 * reached by its IP address, or by a name its TLS certificate does not hold (the SNI and the Host
 * differ), answers so; a gateway whose virtual hosts do not hold the name too. The service behind
 * it was never asked, and no rule of the document is at fault: the address is. As for a gateway
 * that refused the client certificate (certificate-refused.ts), the checks that met a 421 are not
 * verified, the run reaches no verdict (exit 2), and the first line says what to give: the host
 * name the server serves. A server that answers 421 to some requests and serves the others still
 * fails the rules those 421s broke: it was reached.
 */
import type { Exchange } from '../http/exchange.ts'
import type { JournalEntry } from '../http/journal.ts'
import type { RunProblem } from './run-problems.ts'

/** Fewer answers than this say too little (a --rule run of one check). */
const ENOUGH = 3
const MISDIRECTED = 421

/** What the server does, in the words the problem and every check it leaves unverified start with. */
const doesNotAnswer = (baseUrl: string) => `${new URL(baseUrl).host} does not answer for this address`

const answered421 = (e: Exchange) => e.response?.status === MISDIRECTED

/** How many requests were answered 421 when the server answered every request it answered so (at least ENOUGH), else 0. */
export function answeredOnly421(journal: readonly JournalEntry[]): number {
  let count = 0
  for (const e of journal) {
    if (e.status === undefined) continue
    if (e.status !== MISDIRECTED) return 0
    count++
  }
  return count >= ENOUGH ? count : 0
}

/**
 * The problem when the server answered every request of the run's journal that it answered with
 * 421 (at least ENOUGH of them), or undefined. `baseUrl`: the address the run was given.
 */
export function misdirected(journal: readonly JournalEntry[], baseUrl: string): RunProblem | undefined {
  const count = answeredOnly421(journal)
  if (count === 0) return undefined
  const host = new URL(baseUrl).hostname
  const byAddress = /^[\d.]+$|^\[.*\]$/.test(host) ? ', not its IP address' : ''
  return {
    kind: 'misdirected',
    message: `${doesNotAnswer(baseUrl)}: ${count} requests were answered 421 Misdirected Request (RFC 9110 §15.5.20), none otherwise; give the base URL with a host name the server serves (its TLS certificate's, or a virtual host of the gateway)${byAddress}`,
  }
}

/** The checks of such a run: each whose evidence holds a 421 is not verified, whatever it found. */
export function withoutChecksOfTheMisdirectedRun<C extends { status: string; exchanges: readonly Exchange[] }>(checks: C[], baseUrl: string): C[] {
  const skipReason = `not verified: ${doesNotAnswer(baseUrl)}, and the request was answered 421`
  return checks.map((c) => (c.status !== 'skip' && c.exchanges.some(answered421) ? { ...c, status: 'skip', cause: 'misdirected', skipReason, failure: undefined, reproduce: [] } : c))
}
