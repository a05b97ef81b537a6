/**
 * A server that asks for the client certificate only during a request: Apache's per-directory
 * `SSLVerifyClient require` under TLS 1.2 lets the handshake go without one, then, for the
 * request to that path, asks again (a renegotiation) and ends the connection with an alert when the
 * client has none to give. undici reports only that the other side closed: every request of the
 * run met a reset connection, went again with fewer at once, and the run failed the service
 * after two minutes (1,128 to 1,920 requests, measured with Apache 2.4.71). The alert is on the
 * TLS socket, with what the server asked: the signature algorithms the client shares with it,
 * which only a CertificateRequest gives a client (none after the first handshake, 20 after the
 * renegotiation). The client then calls such a request's error what it is (lib/http/client.ts),
 * and the run reaches no verdict on the service (lib/result/certificate-refused.ts).
 */
import type { Socket } from 'node:net'
import type { TLSSocket } from 'node:tls'

/** The alerts that refuse a client certificate, or the lack of one (OpenSSL's names, as Node gives them); the preflight reads them too (lib/runner/client-certificate.ts). */
export const CERTIFICATE_ALERT = /CERTIFICATE_REQUIRED|BAD_CERTIFICATE|UNKNOWN_CA|CERTIFICATE_UNKNOWN|CERTIFICATE_EXPIRED|CERTIFICATE_REVOKED|UNSUPPORTED_CERTIFICATE|ACCESS_DENIED|DECRYPT_ERROR/

/** TLS 1.2's alert for a handshake the server would not complete: for a certificate it asked for and did not get, as for a cipher it does not share. */
export const HANDSHAKE_FAILURE_ALERT = /ALERT_HANDSHAKE_FAILURE/

/**
 * Whether the server asked the socket for a certificate: its CertificateRequest gives a client the
 * signature algorithms they share, and TLSSocket.getSharedSigalgs() is empty until one came.
 */
export const askedForCertificate = (socket: Partial<TLSSocket>): boolean => (socket.getSharedSigalgs?.() ?? []).length > 0

/** Calls `noted` with the alert of the socket's error, and the socket's local port, when the server had asked it for a certificate. */
export function watchCertificateAlert(socket: Socket, noted: (alert: string, localPort: number | undefined) => void): void {
  const tls = socket as Partial<TLSSocket>
  if (typeof tls.getSharedSigalgs !== 'function') return
  socket.on('error', (error: NodeJS.ErrnoException) => {
    const code = error.code ?? ''
    if ((CERTIFICATE_ALERT.test(code) || HANDSHAKE_FAILURE_ALERT.test(code)) && askedForCertificate(tls)) noted(code, socket.localPort)
  })
}

/**
 * The local port of the connection a request's error came on, as undici gives it (SocketError's
 * `socket`: its addresses and ports), or undefined: an alert is told only for the request of the
 * connection it ended, never for a reset elsewhere (a keep-alive race, a path the server does not
 * guard).
 */
export function localPortOf(error: unknown): number | undefined {
  const seen = error as { socket?: { localPort?: unknown }; cause?: { socket?: { localPort?: unknown } } } | undefined
  const port = seen?.socket?.localPort ?? seen?.cause?.socket?.localPort
  return typeof port === 'number' ? port : undefined
}
