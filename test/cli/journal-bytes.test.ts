/**
 * The journal is the record of what each write sent, byte for byte: a server that keeps the bytes
 * of every POST it receives, matched to the journal's line by its traceparent, got what the line
 * says. Bodies that are not UTF-8 (malformed-not-utf8, malformed-surrogate-bytes) were shown as
 * \xNN escapes alone, which a body of text holding those characters shows alike: the journal now
 * carries their bytes (bodyBase64), as results.json's exchanges do. And with the headers it went
 * with, the User-Agent and Accept-Encoding that go on every request included.
 */
import { afterAll, expect, test } from 'vitest'
import { journalEntries, parseJournalLines } from '../../lib/http/journal.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { httpServer, jsonReply as json, type HostileServer } from '../hostile/hostile-servers.ts'
import { RUN_TIMEOUT_MS } from '../hostile/expect-run.ts'

const KEY = 'journal-bytes-key-51c0e2'
const servers: HostileServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
})

test('every POST the server received is the journal line of its traceparent, byte for byte, bodies not UTF-8 included', async () => {
  // refuses every create, as a service does a body it cannot read: nothing is stored
  const server = await httpServer((req, res, seen) => {
    if (seen.headers.authorization !== `Bearer ${KEY}`) return json(res, 401, { code: 'unauthorized', message: 'no', status: 401 })
    if (req.method === 'GET') return json(res, 200, req.url === '/v1/categories' ? [] : {})
    json(res, 400, { code: 'invalid', message: 'not a category', status: 400 })
  })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl, '--rule', 'create-rejects-invalid-json', '--confirm', '0'], { env: { CONFORM_API_KEY: KEY } })
  runs.push(run)
  const lines = journalEntries(parseJournalLines(run.files['journal.ndjson'] ?? ''))
  const byTrace = new Map(lines.flatMap((e) => (e.headers?.traceparent ? [[e.headers.traceparent, e] as const] : [])))
  const received = server.requests.filter((r) => r.method === 'POST')
  expect(received.length).toBeGreaterThan(20)
  const sent = received.map((r) => {
    const line = byTrace.get(String(r.headers.traceparent))
    const journalled = line?.bodyBase64 !== undefined ? Buffer.from(line.bodyBase64, 'base64') : Buffer.from(line?.body ?? '', 'utf8')
    return { probe: line?.probe, same: journalled.equals(r.bytes!) }
  })
  expect(sent.filter((s) => !s.same)).toEqual([])
  // the bodies of bytes are among them, and their shown form stays beside the bytes
  const bytes = lines.filter((e) => e.bodyBase64 !== undefined).map((e) => e.probe)
  expect(bytes).toEqual(expect.arrayContaining(['malformed-not-utf8', 'malformed-surrogate-bytes']))
  expect(lines.find((e) => e.probe === 'malformed-not-utf8')?.body).toContain('\\xc0\\xaf')
  // and with the headers it went with: every one the server got but the connection's own (Host,
  // Connection, the body's length), the key as its placeholder; the User-Agent naming the run and
  // Accept-Encoding: identity were in none
  const transport = new Set(['host', 'connection', 'content-length', 'transfer-encoding'])
  const unshown = received.flatMap((r) => {
    const journalled = byTrace.get(String(r.headers.traceparent))?.headers ?? {}
    return Object.entries(r.headers).flatMap(([name, value]) => {
      if (transport.has(name)) return []
      const shown = journalled[name] ?? Object.entries(journalled).find(([n]) => n.toLowerCase() === name)?.[1]
      const same = name === 'authorization' ? value === `Bearer ${KEY}` && shown === 'Bearer $CONFORM_API_KEY' : shown === value
      return same ? [] : [`${name}: ${String(value)} (journal: ${shown})`]
    })
  })
  expect([...new Set(unshown)]).toEqual([])
}, RUN_TIMEOUT_MS)
