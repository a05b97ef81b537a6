/**
 * lib/runner/client-certificate.ts: the preflight's wait for the word of a server that asked for a
 * client certificate stays within the preflight's one wait (--timeout, bounded by the deadline).
 */
import { describe, expect, test } from 'vitest'
import { certificateWordWaitMs } from '../../lib/runner/client-certificate.ts'

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
