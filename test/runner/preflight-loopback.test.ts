/**
 * lib/runner/preflight.ts: plain http is allowed to a loopback host without --allow-insecure-http,
 * and localhost or *.localhost is one by its name; where the name resolved to is looked at too, so
 * that the key never goes in clear to a host that only calls itself local.
 */
import { createServer } from 'node:net'
import { describe, expect, test } from 'vitest'
import { notLoopback, preflight } from '../../lib/runner/preflight.ts'

describe('a loopback name that resolves elsewhere', () => {
  test.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])('%s is this machine: no objection', (address) => {
    expect(notLoopback('api.localhost', address)).toBeUndefined()
  })

  test.each(['10.0.0.5', '203.0.113.7', '::ffff:10.0.0.5', '2001:db8::1'])('%s is not: the run stops, naming it', (address) => {
    expect(notLoopback('api.localhost', address)?.message).toBe(
      `refusing to send the API key in clear text: api.localhost resolves to ${address}, not to this machine; use https://, or the loopback address itself`,
    )
  })

  test('localhost itself, on a real server: reached, no objection', async () => {
    const server = createServer((socket) => socket.end())
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const port = (server.address() as { port: number }).port
      expect(await preflight(`http://localhost:${port}/v1`, 2000, {})).toBeUndefined()
    } finally {
      server.close()
    }
  })
})
