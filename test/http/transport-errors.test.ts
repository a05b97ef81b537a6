/** How a request that got no answer is told (lib/http/transport-errors.ts describeTransportError). */
import { expect, test } from 'vitest'
import { describeTransportError } from '../../lib/http/transport-errors.ts'

const limits = { timeoutMs: 10_000, maxResponseBytes: 1 << 20 }
const said = (error: unknown) => describeTransportError(error, new AbortController().signal, undefined, limits, (text) => text)

test('a new connection the server did not take within --timeout: a TIMEOUT that says what to do about a server that serves one connection at a time', () => {
  // what undici throws when a connection's handshake does not complete (the server's backlog full, or it accepts one at a time)
  const error = Object.assign(new Error('Connect Timeout Error (attempted address: 127.0.0.1:18676, timeout: 10000ms)'), { code: 'UND_ERR_CONNECT_TIMEOUT' })
  expect(said(error)).toEqual({
    code: 'TIMEOUT',
    message:
      'no new connection taken within 10000 ms while the run had others open: a server that serves one connection at a time needs --concurrency 1 (Connect Timeout Error (attempted address: 127.0.0.1:18676, timeout: 10000ms))',
  })
  // an answer that did not come on a connection that was made says nothing of connections
  expect(said(Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' })).message).toBe('no response within 10000 ms (Headers Timeout Error)')
})
