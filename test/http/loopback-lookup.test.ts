/**
 * lib/http/loopback-lookup.ts: a plain http:// origin named as loopback (api.localhost) reaches
 * loopback addresses only, on every connection of the run, not only on the preflight's: a resolver
 * that answers 127.0.0.1 first and this machine's other address after (DNS rebinding) never gets
 * the key in clear there.
 */
import type { LookupAddress } from 'node:dns'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { networkInterfaces } from 'node:os'
import { afterAll, describe, expect, test } from 'vitest'
import { createAgent } from '../../lib/http/agent.ts'
import { loopbackConnect, loopbackOnlyLookup, type Resolve } from '../../lib/http/loopback-lookup.ts'

/** A resolver that gives the answers in turn, the last one from then on. */
function answering(...answers: string[][]): Resolve & { asked: number } {
  const resolve = ((_name, _options, callback) => {
    const addresses = answers[Math.min(resolve.asked++, answers.length - 1)]!
    callback(null, addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })))
  }) as Resolve & { asked: number }
  resolve.asked = 0
  return resolve
}

const lookedUp = (resolve: Resolve, all: boolean) =>
  new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((done) => loopbackOnlyLookup(resolve)('api.localhost', { all }, (error, address) => done({ error, address })))

describe('loopbackOnlyLookup', () => {
  test('keeps the loopback addresses of an answer, in both of the forms net.connect asks for', async () => {
    expect((await lookedUp(answering(['10.0.0.5', '127.0.0.1', '::1']), true)).address).toEqual([
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ])
    expect((await lookedUp(answering(['::ffff:127.0.0.2']), false)).address).toBe('::ffff:127.0.0.2')
  })

  test.each([['203.0.113.7'], ['::ffff:10.0.0.5'], ['2001:db8::1']])('%s alone: the connection fails, naming it', async (address) => {
    const { error } = await lookedUp(answering([address]), true)
    expect(error?.message).toBe(`refusing to send the API key in clear text: api.localhost resolves to ${address}, not to this machine; use https://, or the loopback address itself`)
  })

  test('only for a plain http:// origin named as loopback', () => {
    expect(loopbackConnect('http://api.localhost:8080/v1').lookup).toBeDefined()
    expect(loopbackConnect('http://localhost:8080/v1').lookup).toBeDefined()
    for (const other of ['http://127.0.0.1:8080/v1', 'http://[::1]:8080/v1', 'https://api.localhost/v1', 'http://staging.example:8080/v1']) expect(loopbackConnect(other)).toEqual({})
  })
})

/** This machine's first address that is not loopback, where a server on every interface answers too. */
const elsewhere = Object.values(networkInterfaces())
  .flat()
  .find((a) => a?.family === 'IPv4' && !a.internal)?.address

describe.skipIf(elsewhere === undefined)(`a resolver that rebinds api.localhost to ${elsewhere ?? 'another address'} after the first connection`, () => {
  const seen: { authorization?: string; on: string }[] = []
  let server: Server
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  test('the first request reaches loopback; the next, on a new connection, is refused before it is sent', async () => {
    server = createServer((req, res) => {
      seen.push({ authorization: req.headers.authorization, on: req.socket.localAddress ?? '' })
      res.writeHead(200, { connection: 'close', 'content-type': 'application/json' }).end('[]')
    })
    await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve))
    const { port } = server.address() as AddressInfo
    const resolve = answering(['127.0.0.1'], [elsewhere!])
    const agent = createAgent({ baseUrl: `http://api.localhost:${port}/v1`, timeoutMs: 2000, concurrency: 1, maxResponseBytes: 1 << 20, resolve })
    try {
      const send = () => agent.request({ origin: `http://api.localhost:${port}`, path: '/v1/categories', method: 'GET', headers: { authorization: 'Bearer rebind-key-0123456789' } })
      const first = await send()
      await first.body.text()
      expect(first.statusCode).toBe(200)
      await expect(send()).rejects.toThrow(`api.localhost resolves to ${elsewhere}, not to this machine`)
      expect(resolve.asked).toBe(2)
      expect(seen).toEqual([{ authorization: 'Bearer rebind-key-0123456789', on: '127.0.0.1' }])
    } finally {
      await agent.close()
    }
  })
})
