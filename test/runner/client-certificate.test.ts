/**
 * lib/runner/client-certificate.ts: the preflight's wait for the word of a server that asked for a
 * client certificate stays within the preflight's one wait (--timeout, bounded by the deadline).
 */
import { describe, expect, test } from 'vitest'
import { certificateRefusal, certificateWordWaitMs } from '../../lib/runner/client-certificate.ts'

describe('certificateWordWaitMs', () => {
  test('three handshakes\' time, at least 250 ms, when the wait has room for it', () => {
    expect(certificateWordWaitMs(10, 10_000)).toBe(250)
    expect(certificateWordWaitMs(200, 10_000)).toBe(600)
  })

  test('a slow handshake leaves only what is left of the wait: handshake and word together never pass it', () => {
    // a handshake of 8 s within a wait of 10 s (a far server, or a deadline near): 2 s left, not 10 s more
    expect(certificateWordWaitMs(8_000, 10_000)).toBe(2_000)
    for (const [handshakeMs, timeoutMs] of [[100, 200], [900, 1_000], [3_000, 4_000], [50, 60]] as const) {
      expect(handshakeMs + certificateWordWaitMs(handshakeMs, timeoutMs)).toBeLessThanOrEqual(timeoutMs)
    }
  })

  test('none left: no wait', () => {
    expect(certificateWordWaitMs(10_500, 10_000)).toBe(0)
  })
})

describe('certificateRefusal, whichever OpenSSL names the alert', () => {
  // Node gives OpenSSL's reason as the code: OpenSSL 3.0 (Node 20) says "sslv3 alert", 3.2 and later
  // (Node 22 and 24 bundle 3.5) "ssl/tls alert"; the test of a real TLS 1.2 server meets one of them
  // (test/hostile/mutual-tls.test.ts), this one both
  test.each(['SSLV3', 'SSL/TLS'])('%s: a handshake failure is most often the certificate, a bad certificate is it', (prefix) => {
    expect(certificateRefusal('127.0.0.1:1', `ERR_SSL_${prefix}_ALERT_HANDSHAKE_FAILURE`, false, false)).toBe(
      `the server at 127.0.0.1:1 refused the TLS handshake (ERR_SSL_${prefix}_ALERT_HANDSHAKE_FAILURE): most often it asks for a client certificate (mutual TLS); give it with --client-cert FILE and --client-key FILE`,
    )
    expect(certificateRefusal('127.0.0.1:1', `ERR_SSL_${prefix}_ALERT_BAD_CERTIFICATE`, true, true)).toMatch(/^the server at 127\.0\.0\.1:1 refused the TLS handshake \(ERR_SSL_(SSLV3|SSL\/TLS)_ALERT_BAD_CERTIFICATE\): it did not take/)
  })
})
