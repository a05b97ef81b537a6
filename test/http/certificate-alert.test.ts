/**
 * A server that asks for the client certificate during a request (a TLS renegotiation: Apache's
 * per-directory SSLVerifyClient under TLS 1.2) and ends the connection with an alert when the
 * client has none: the alert is noted on the pool's handshakes (lib/http/certificate-alert.ts,
 * handshakes.ts), so the request's reset is told as the TLS refusal it is, and the run reaches no
 * verdict on the service (lib/result/certificate-refused.ts). Measured against Apache 2.4.71: a
 * FAIL after two minutes and 1,128 requests before, exit 2 after 7.8 s and 155 requests now
 * (docs/production.md). Node's own TLS server cannot renegotiate so, hence sockets made here.
 */
import { EventEmitter } from 'node:events'
import type { Socket } from 'node:net'
import { describe, expect, test } from 'vitest'
import { localPortOf, watchCertificateAlert } from '../../lib/http/certificate-alert.ts'
import type { Exchange } from '../../lib/http/exchange.ts'
import { Handshakes } from '../../lib/http/handshakes.ts'
import { certificateRefused, refusedWithoutCertificate } from '../../lib/result/certificate-refused.ts'

/** A TLS socket as the client holds it: the signature algorithms it shares with the server (none until the server asks for a certificate). */
function tlsSocket(sigalgs: string[] = [], localPort = 50_000): Socket & { shared: string[] } {
  const socket = Object.assign(new EventEmitter(), { shared: sigalgs, localPort, getSharedSigalgs: () => socket.shared })
  return socket as unknown as Socket & { shared: string[] }
}
const alert = (code: string) => Object.assign(new Error(code), { code })

describe('the alert of a handshake the server asked for during a request', () => {
  test('noted once the server asked for a certificate; not before, nor for an error of another kind', () => {
    const noted: string[] = []
    const asked = tlsSocket()
    watchCertificateAlert(asked, (a) => noted.push(a))
    asked.emit('error', alert('ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE'))
    expect(noted).toEqual([])
    asked.shared = ['ECDSA+SHA256']
    asked.emit('error', alert('ECONNRESET'))
    asked.emit('error', alert('ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE'))
    expect(noted).toEqual(['ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE'])
    // a plain TCP socket (http://) has no such thing
    const plain = new EventEmitter() as unknown as Socket
    watchCertificateAlert(plain, (a) => noted.push(a))
    expect(plain.listenerCount('error')).toBe(0)
  })

  test("a pool's handshakes keep each alert by its connection's local port, and a request's error is matched to its own connection only", () => {
    const handshakes = new Handshakes(10)
    const sockets = [tlsSocket(['RSA+SHA256'], 50_001), tlsSocket(['RSA+SHA256'], 50_002), tlsSocket([], 50_003)]
    let next = 0
    const connect = handshakes.timing((_options, callback) => callback(null, sockets[next++] as never))
    for (let i = 0; i < 3; i++) connect({} as never, () => undefined)
    expect([...handshakes.certificateAlerts]).toEqual([])
    sockets[1]!.emit('error', alert('ERR_SSL_TLSV1_ALERT_UNKNOWN_CA'))
    sockets[2]!.emit('error', alert('ECONNRESET'))
    expect([...handshakes.certificateAlerts]).toEqual([[50_002, 'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA']])
    // undici's SocketError names the connection it came on (its socket's addresses and ports)
    expect(localPortOf(Object.assign(new Error('other side closed'), { socket: { localPort: 50_002 } }))).toBe(50_002)
    expect(localPortOf(Object.assign(new Error('fetch failed'), { cause: { socket: { localPort: 50_003 } } }))).toBe(50_003)
    expect(localPortOf(new Error('no socket'))).toBeUndefined()
  })
})

describe('a run whose requests such a server ended', () => {
  const ended = (i: number): Exchange => ({
    id: `e${i}`,
    startedAt: '2026-11-26T18:00:00.000Z',
    durationMs: 3,
    request: { method: 'GET', url: 'https://127.0.0.1:1/v1/categories', headers: {} },
    sent: true,
    error: { code: 'TLS_FAILURE', message: 'the server asked for the client certificate during the request', tlsAlert: 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE' },
  })

  test('is the certificate-refused problem, saying what to give; with a certificate, that it was not taken', () => {
    const without = certificateRefused([1, 2, 3].map(ended), false)
    expect(without?.kind).toBe('certificate-refused')
    expect(without?.message).toMatch(/^the server refused the run for its client certificate: it asked for one during 3 requests \(a TLS renegotiation, .*\) and ended each connection \(ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE\); it asks for a client certificate \(mutual TLS\); give it with --client-cert FILE and --client-key FILE$/)
    expect(certificateRefused([1, 2, 3].map(ended), true)?.message).toMatch(/; it did not take the client certificate of --client-cert; is it one its CA issued, and not expired\?$/)
    // two say too little (a --rule run of one check)
    expect(certificateRefused([1, 2].map(ended), false)).toBeUndefined()
  })
})

describe('a server that asked for a certificate, none given, and refused every request without saying why', () => {
  const answered = (i: number, status: number, key = i % 2 === 0): Exchange => ({
    id: `a${i}`,
    startedAt: '2026-11-26T18:00:00.000Z',
    durationMs: 3,
    request: { method: 'GET', url: 'https://127.0.0.1:1/v1/categories', headers: key ? { authorization: 'Bearer [redacted]' } : {} },
    response: { status, headers: {}, body: '<html><title>403 Forbidden</title></html>', bodyBytes: 40, bodyTruncated: false },
  })
  const closed = (i: number): Exchange => ({ id: `c${i}`, startedAt: '2026-11-26T18:00:00.000Z', durationMs: 3, request: { method: 'GET', url: 'https://127.0.0.1:1/v1/categories', headers: {} }, sent: true, error: { code: 'CONNECTION_RESET', message: 'other side closed' } })

  test('every request 403, with the key and without it, or every connection closed unanswered: the certificate, said once; not without the ask, nor with a certificate, nor where anything else came', () => {
    const forbidden = [1, 2, 3, 4].map((i) => answered(i, 403))
    expect(refusedWithoutCertificate(forbidden, false, true)?.message).toBe(
      'the server asked for a client certificate in the TLS handshake, none was given, and it answered every request of the run 403 (4), with the key and without it, not the service; it asks for a client certificate (mutual TLS); give it with --client-cert FILE and --client-key FILE',
    )
    expect(refusedWithoutCertificate([1, 2, 3].map(closed), false, true)?.message).toMatch(/and it closed the connection under every request of the run \(3\) without an answer, not the service; /)
    expect(refusedWithoutCertificate(forbidden, false, false)).toBeUndefined()
    expect(refusedWithoutCertificate(forbidden, true, true)).toBeUndefined()
    // a 401 without the key: the service answered (only the key is refused)
    expect(refusedWithoutCertificate([...forbidden, answered(5, 401, false)], false, true)).toBeUndefined()
    // only requests with the key: a refused key, not told apart
    expect(refusedWithoutCertificate([2, 4, 6].map((i) => answered(i, 403)), false, true)).toBeUndefined()
    // an answer beside the closed connections: the service was reached (a keep-alive race closes one after an answer)
    expect(refusedWithoutCertificate([closed(1), closed(2), closed(3), answered(4, 200)], false, true)).toBeUndefined()
  })
})

