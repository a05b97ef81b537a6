/**
 * Whether a service behind mutual TLS took the run's TLS handshake, told before any request. Under
 * TLS 1.2 a server that wants a client certificate refuses the handshake itself; under TLS 1.3 the
 * handshake completes on the client's side first, and the server's refusal (an alert) comes after
 * it. Unseen there, the run went on: every request met a closed connection, was sent again with
 * fewer at once, down to one, and the verdict failed a conforming service (1,359 resends measured).
 * So when the server asked for a certificate (its CertificateRequest gives the client the
 * signature algorithms they share: TLSSocket.getSharedSigalgs() is empty when it asked for none),
 * the preflight waits for its word: a session ticket (it took the handshake), an alert or a close
 * (it did not), or, for a server that sends neither, a short while (a server that asks but does
 * not demand: nginx's `ssl_verify_client optional`).
 */
import { CERTIFICATE_ALERT, HANDSHAKE_FAILURE_ALERT } from '../http/certificate-alert.ts'
import { certificateAdvice } from '../result/certificate-refused.ts'

/**
 * How long a server that asked for a certificate has to refuse the handshake: three of its
 * handshakes' time, at least 250 ms, within what is left of the preflight's one wait (`timeoutMs`,
 * which the run's deadline bounds: the handshake took `handshakeMs` of it). None left: the run
 * goes on, and a refusal after the handshake is told by its alert (lib/http/certificate-alert.ts).
 */
export const certificateWordWaitMs = (handshakeMs: number, timeoutMs: number): number => Math.max(0, Math.min(timeoutMs - handshakeMs, Math.max(250, 3 * handshakeMs)))

/**
 * The one line for a handshake that a server ended with an alert, or closed after asking for a
 * certificate (`errno` ''), or undefined for an error of another kind. `withCertificate`: whether
 * --client-cert was given; `inHandshake`: the connection ended after TCP's handshake, before TLS's
 * completed (TLS 1.2 servers reset it for a certificate they refuse, as Node's does).
 */
export function certificateRefusal(where: string, errno: string, withCertificate: boolean, asked: boolean, inHandshake = false): string | undefined {
  const refused = CERTIFICATE_ALERT.test(errno) || (errno === '' && asked)
  // TLS 1.2's refusal of a handshake without a certificate is a handshake failure, as a cipher mismatch is
  const maybe = !refused && (HANDSHAKE_FAILURE_ALERT.test(errno) || (withCertificate && inHandshake && errno === 'ECONNRESET'))
  if (!refused && !maybe) return undefined
  const why = errno === '' ? 'closed the connection after the TLS handshake' : errno === 'ECONNRESET' ? 'reset the connection during the TLS handshake' : `refused the TLS handshake (${errno})`
  return `the server at ${where} ${why}: ${maybe ? 'most often ' : ''}${certificateAdvice(withCertificate)}`
}
