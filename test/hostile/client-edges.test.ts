/**
 * Edges of the HTTP client and the preflight that a whole run would rarely hit: the key cut in
 * half at the evidence limit, and which proxy applies to which URL (the preflight must agree with
 * undici's EnvHttpProxyAgent, or it would test a path the checks never take).
 */
import { afterAll, describe, expect, test } from 'vitest'
import { DEFAULTS } from '../../lib/config/config.ts'
import { HttpClient } from '../../lib/http/client.ts'
import { proxyFor } from '../../lib/runner/preflight.ts'
import { httpServer, type HostileServer } from './hostile-servers.ts'

const servers: HostileServer[] = []
afterAll(async () => Promise.all(servers.map((server) => server.close())))

describe('evidence cut at the limit', () => {
  const KEY = 'edge-key-0123456789abcdef0123456789abcdef'
  const LIMIT = 64

  // a key starting at every offset around the limit, so one of them straddles it
  for (const offset of [LIMIT - KEY.length, LIMIT - 20, LIMIT - 1, LIMIT, LIMIT + 1]) {
    test(`a key at offset ${offset} of a long body → no part of it in the evidence`, async () => {
      const body = 'x'.repeat(offset) + KEY + 'y'.repeat(500)
      const server = await httpServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body))
      servers.push(server)
      const client = new HttpClient({ baseUrl: server.baseUrl, apiKey: KEY, timeoutMs: 2_000, maxResponseBytes: 10_000, concurrency: DEFAULTS.concurrency, evidenceBodyBytes: LIMIT })
      const { exchange, text } = await client.send({ method: 'GET', path: '/categories' })
      await client.close()
      expect(text).toBe(body)
      const evidence = exchange.response!.body
      expect(exchange.response!.bodyTruncated).toBe(true)
      expect(evidence.length).toBeLessThanOrEqual(LIMIT)
      // no run of 8 or more characters of the key survives the cut
      for (let i = 0; i + 8 <= KEY.length; i++) expect(evidence).not.toContain(KEY.slice(i, i + 8))
    })
  }
})

describe('proxyFor: the rules of undici EnvHttpProxyAgent', () => {
  const https = new URL('https://api.example.com/v1')
  const http = new URL('http://127.0.0.1:8080/v1')
  const cases: { name: string; url: URL; env: NodeJS.ProcessEnv; proxy: string | undefined }[] = [
    { name: 'nothing set', url: https, env: {}, proxy: undefined },
    { name: 'HTTPS_PROXY for https', url: https, env: { HTTPS_PROXY: 'http://p:1' }, proxy: 'HTTPS_PROXY' },
    { name: 'https falls back to HTTP_PROXY', url: https, env: { HTTP_PROXY: 'http://p:1' }, proxy: 'HTTP_PROXY' },
    { name: 'http does not use HTTPS_PROXY', url: http, env: { HTTPS_PROXY: 'http://p:1' }, proxy: undefined },
    { name: 'http does not use HTTP_PROXY either: the proxy would read the key', url: http, env: { HTTP_PROXY: 'http://p:1' }, proxy: undefined },
    { name: 'lower case wins', url: https, env: { https_proxy: 'http://a:1', HTTPS_PROXY: 'http://b:1' }, proxy: 'https_proxy' },
    { name: 'NO_PROXY exact host', url: https, env: { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'api.example.com' }, proxy: undefined },
    { name: 'NO_PROXY parent domain with a dot', url: https, env: { HTTPS_PROXY: 'http://p:1', NO_PROXY: '.example.com' }, proxy: undefined },
    { name: 'NO_PROXY wildcard subdomain', url: https, env: { HTTPS_PROXY: 'http://p:1', NO_PROXY: '*.example.com' }, proxy: undefined },
    { name: 'NO_PROXY with the right port', url: https, env: { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'api.example.com:443' }, proxy: undefined },
    { name: 'NO_PROXY with another port', url: https, env: { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'api.example.com:8443' }, proxy: 'HTTPS_PROXY' },
    { name: 'NO_PROXY=*', url: https, env: { HTTPS_PROXY: 'http://p:1', NO_PROXY: '*' }, proxy: undefined },
    { name: 'NO_PROXY of another host', url: https, env: { HTTPS_PROXY: 'http://p:1', no_proxy: 'example.org, localhost' }, proxy: 'HTTPS_PROXY' },
  ]
  for (const c of cases) {
    test(c.name, () => {
      expect(proxyFor(c.url, c.env)?.variable).toBe(c.proxy)
    })
  }
})
