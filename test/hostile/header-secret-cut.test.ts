/**
 * A secret header (--header / CONFORM_HEADERS: a session token, a signature) cut at the evidence
 * limit (review28). The client redacts its value as it does the key's, but cut the body only the key's
 * longest form past the limit: a short key beside a long header secret left the start of the
 * secret's escaped or spread form, cut where no pattern of it could match, in the evidence.
 */
import { afterAll, expect, test } from 'vitest'
import { DEFAULTS } from '../../lib/config/config.ts'
import { HttpClient } from '../../lib/http/client.ts'
import { httpServer, type HostileServer } from './hostile-servers.ts'

const servers: HostileServer[] = []
afterAll(async () => Promise.all(servers.map((server) => server.close())))

const KEY = 'Zk83hQ2m'
const SECRET = 'sess-7f3a9c1e5b2d8f4a6c0e9b3d7a1f5c8e2b6d0a4f9c3e7b1d5a8f2c6e0b4d9a3f'
const LIMIT = 400
const FORMS = {
  'JSON \\u escapes': [...SECRET].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  'spread out': [...SECRET].join(' '.repeat(12)),
}
/** The evidence with its \u escapes read and everything but letters and digits taken out. */
const lettersOf = (text: string) => text.replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/[^A-Za-z0-9]/g, '')

for (const [name, form] of Object.entries(FORMS)) {
  test(`the header secret ${name} across the cut → none of it in the evidence`, async () => {
    for (const offset of [LIMIT - 300, LIMIT - 150, LIMIT - 60]) {
      const body = 'x'.repeat(offset) + form + 'y'.repeat(3000)
      const server = await httpServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body))
      servers.push(server)
      const client = new HttpClient({ baseUrl: server.baseUrl, apiKey: KEY, extraHeaders: [{ name: 'x-session-token', value: SECRET }], timeoutMs: 2_000, maxResponseBytes: 20_000, concurrency: DEFAULTS.concurrency, evidenceBodyBytes: LIMIT })
      const { exchange } = await client.send({ method: 'GET', path: '/categories' })
      await client.close()
      const evidence = exchange.response!.body
      expect(exchange.response!.bodyTruncated).toBe(true)
      const letters = lettersOf(evidence).replace(/^x+/, '')
      const secretLetters = SECRET.replace(/[^A-Za-z0-9]/g, '')
      for (let i = 0; i + 8 <= secretLetters.length; i++) expect(letters.includes(secretLetters.slice(i, i + 8)), `offset ${offset}: a run of the secret from ${i}`).toBe(false)
    }
  })
}
