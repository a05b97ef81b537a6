/**
 * lib/runner/preflight.ts: plain http is allowed to a loopback host without --allow-insecure-http,
 * and localhost or *.localhost is one by its name; where the name resolved to is looked at too, so
 * that the key never goes in clear to a host that only calls itself local. https:// to a server of
 * plain HTTP is named as such.
 */
import { createServer as createHttpServer } from 'node:http'
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

describe('https:// to a server of plain HTTP', () => {
  test('is named as such, with the http:// address to try, not as OpenSSL\'s ERR_SSL_WRONG_VERSION_NUMBER alone', async () => {
    const server = createHttpServer((_req, res) => res.end('{}'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const port = (server.address() as { port: number }).port
      expect((await preflight(`https://127.0.0.1:${port}/v1/`, 2000, {}))?.message).toMatch(
        new RegExp(`^cannot reach 127\\.0\\.0\\.1:${port} over TLS: it answered the handshake with something that is not TLS \\(ERR_SSL_[A-Z_]+\\), as a server of plain HTTP does; is the base URL http://127\\.0\\.0\\.1:${port}/v1, or is ${port} not its TLS port\\?$`),
      )
    } finally {
      server.close()
    }
  })
})
