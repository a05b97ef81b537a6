/**
 * A base URL of http:// to a port that speaks TLS (the service's https port, a local dev server
 * with a certificate): every request of the run met a connection closed without a byte of answer,
 * and the run's own TLS handshake with that port then succeeded (lib/runner/tls-port.ts). No rule
 * of the document is at fault: the address is. The run is incomplete (exit 2), says which address
 * to give, and the checks those unanswered requests failed are not verified. A port that answers
 * neither (a server that resets every connection) still fails: it was reached, and broke.
 */
import type { Exchange } from '../http/exchange.ts'
import type { RunProblem } from './run-problems.ts'

/** What the port does, in the words the problem and every check it leaves unverified start with. */
const speaksTls = (baseUrl: string) => `${new URL(baseUrl).host} speaks TLS`

/** The problem, from the base URL the run was given (http://), and the address it should have had. */
export function speaksTlsProblem(baseUrl: string): RunProblem {
  const url = new URL(baseUrl)
  const https = `https://${url.host}${url.pathname.replace(/\/+$/, '')}`
  return { kind: 'speaks-tls', message: `${speaksTls(baseUrl)}: no request over plain HTTP got an answer, and a TLS handshake with it succeeded; give the base URL as ${https} (the server's own address, or --ca-cert for its CA)` }
}

/** The checks failed on requests that got no answer, not verified: the plain HTTP the port does not speak failed them, not the service. */
export function withoutFailuresOfPlainHttp<C extends { status: string; exchanges: readonly Exchange[] }>(checks: C[], baseUrl: string): C[] {
  const skipReason = `not verified: ${speaksTls(baseUrl)}, and the request over plain HTTP got no answer`
  return checks.map((c) =>
    c.status === 'fail' && c.exchanges.length > 0 && c.exchanges.every((e) => e.response === undefined) ? { ...c, status: 'skip', cause: 'speaks-tls', skipReason, failure: undefined, reproduce: [] } : c,
  )
}
