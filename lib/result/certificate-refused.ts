/**
 * A run a gateway refused for its client certificate: behind nginx's `ssl_verify_client on` the TLS
 * handshake completes without one, and every request is answered 400 "No required SSL certificate
 * was sent" (one the gateway did not verify: 400 "The SSL certificate error"; Kong's mtls-auth: 401
 * "No required TLS certificate was sent"; Apache's per-directory SSLVerifyClient under TLS 1.3: 403
 * "Cannot perform Post-Handshake Authentication"; nginx's own 495 and 496 where an error_page
 * passes them on). Those answers are the gateway's, not the service's: the service was never
 * reached. Measured against nginx 1.22 without --client-cert: a FAIL of 14 rules, 247 POSTs (160 of
 * them to confirm). So, as for a refused key (key-refused.ts), the checks whose evidence holds such
 * an answer are not verified, the run reaches no verdict (exit 2), and the first line says what to
 * give: --client-cert and --client-key.
 */
import type { Exchange } from '../http/exchange.ts'
import type { RunProblem } from './run-problems.ts'

/** Fewer answers than this say too little (a --rule run of one check). */
const ENOUGH = 3

/** The words of the gateways' refusals, in their answers' bodies. */
const REFUSAL_WORDS = /No required (?:SSL|TLS) certificate was sent|The SSL certificate error|Cannot perform Post-Handshake Authentication/i

/**
 * Apache's refusal when a per-directory SSLVerifyClient meets a TLS 1.3 client that did not offer
 * post-handshake authentication: Node's client never does (measured against Apache 2.4.71: 166
 * requests answered 403 with the right certificate too), so "is it one its CA issued?" would send
 * the user after a certificate that is fine. Under TLS 1.2 Apache asks by renegotiation, which
 * Node's client does (measured: a PASS with NODE_OPTIONS=--tls-max-v1.2 and the certificate).
 */
const POST_HANDSHAKE = /Cannot perform Post-Handshake Authentication/i

/** nginx's statuses for a missing (496) or unverified (495) client certificate, where an error_page passes them on. */
const CERTIFICATE_STATUSES = new Set([495, 496])

/** An answer a gateway gave for the client certificate, not the service. */
export function refusedForCertificate(e: Exchange): boolean {
  // a connection the server ended with an alert for the certificate it asked for during the request (lib/http/certificate-alert.ts)
  if (e.error?.tlsAlert !== undefined) return true
  const response = e.response
  if (!response) return false
  if (CERTIFICATE_STATUSES.has(response.status)) return true
  return response.status >= 400 && response.status < 500 && REFUSAL_WORDS.test(response.body)
}

/** The checks of such a run: each whose evidence holds a refusal for the certificate is not verified, whatever it found (a skipped one too: the cause it was told, "the service refused the key on POST", is not). */
export function withoutChecksOfTheRefusedCertificate<C extends { status: string; exchanges: readonly Exchange[] }>(checks: C[], problem: RunProblem, refused: (e: Exchange) => boolean = refusedForCertificate): C[] {
  const skipReason = `not verified: ${problem.message.split(';')[0]}`
  return checks.map((c) =>
    c.exchanges.some(refused) ? { ...c, status: 'skip', cause: 'certificate-refused', skipReason, failure: undefined, reproduce: [] } : c,
  )
}

/** What to do about a refusal of the client certificate: give one, or check the one given (`withCertificate`: --client-cert was). */
export const certificateAdvice = (withCertificate: boolean): string =>
  withCertificate
    ? 'it did not take the client certificate of --client-cert; is it one its CA issued, and not expired?'
    : 'it asks for a client certificate (mutual TLS); give it with --client-cert FILE and --client-key FILE'

/** Why the run's answers look like a gateway's refusals of its client certificate (a problem of kind certificate-refused), or undefined. */
export function certificateRefused(exchanges: readonly Exchange[], withCertificate: boolean): RunProblem | undefined {
  const ids = new Set(exchanges.filter(refusedForCertificate).map((e) => e.id))
  if (ids.size < ENOUGH) return undefined
  const alerted = exchanges.find((e) => e.error?.tlsAlert !== undefined)?.error?.tlsAlert
  const ask = certificateAdvice(withCertificate)
  if (alerted !== undefined) {
    return { kind: 'certificate-refused', message: `the server refused the run for its client certificate: it asked for one during ${ids.size} requests (a TLS renegotiation, as Apache's per-directory SSLVerifyClient does) and ended each connection (${alerted}); ${ask}` }
  }
  const first = exchanges.find(refusedForCertificate)!.response!
  const what = POST_HANDSHAKE.test(first.body)
    ? `it asks for it after the TLS 1.3 handshake, which Node cannot do: ${withCertificate ? 'run' : 'give --client-cert and --client-key,'} with NODE_OPTIONS=--tls-max-v1.2`
    : ask
  return { kind: 'certificate-refused', message: `a gateway refused the run for its client certificate: ${ids.size} requests were answered ${first.status} with its words ("${REFUSAL_WORDS.exec(first.body)?.[0] ?? `status ${first.status}`}"), not the service's; ${what}` }
}

/** A connection closed under a request with no answer (no alert said why). */
const closedUnanswered = (e: Exchange): boolean => e.response === undefined && (e.error?.code === 'CONNECTION_RESET' || e.error?.code === 'NETWORK_ERROR')

/**
 * Why a run whose handshakes the server asked for a client certificate, none given (`asked`, and
 * not `withCertificate`), met that refusal without saying so: nginx's `ssl_verify_client optional`
 * with `if ($ssl_client_verify != SUCCESS) { return 403; }` answered every request 403, with the key
 * and without it (measured against an emulation: "the server refused the key … check
 * CONFORM_API_KEY" and 49 failed checks), or `return 444` and HAProxy's `http-request reject` closed
 * every connection under its request (a FAIL of 17 rules after 1,166 requests and 120 s). Every
 * request alike: a service that answers any request otherwise was reached. Undefined otherwise.
 */
export function refusedWithoutCertificate(exchanges: readonly Exchange[], withCertificate: boolean, asked: boolean): RunProblem | undefined {
  if (!asked || withCertificate) return undefined
  const answered = exchanges.filter((e) => e.response !== undefined)
  const refusedAll = answered.length > 0 && answered.every((e) => e.response!.status === 403) && answered.some((e) => e.request.headers.authorization === undefined)
  // none answered: requests the run's end cut, or not sent again, beside those closed
  const closedAll = answered.length === 0 && exchanges.some(closedUnanswered)
  const ids = new Set((refusedAll ? answered : exchanges.filter(closedUnanswered)).map((e) => e.id))
  if ((!refusedAll && !closedAll) || ids.size < ENOUGH) return undefined
  const what = refusedAll ? `answered every request of the run 403 (${ids.size}), with the key and without it` : `closed the connection under every request of the run (${ids.size}) without an answer`
  return { kind: 'certificate-refused', message: `the server asked for a client certificate in the TLS handshake, none was given, and it ${what}, not the service; ${certificateAdvice(false)}` }
}
