/**
 * The journal is the record of what each write sent, also in the journal.ndjson a killed run
 * leaves: a POST's body whole (it was cut to the evidence limit, 4,096 of the 9,049 characters of
 * create-long-thousands, and nothing said so; the ledger's "body sent" showed the cut too), and the
 * headers it went with (which credential, Content-Type, Accept), the key as $CONFORM_API_KEY.
 */
import { describe, expect, test } from 'vitest'
import { RunJournal, type JournalLine } from '../../lib/http/journal.ts'
import { KEY_AUTHORIZATION } from '../../lib/http/redact.ts'
import { serve, withClient } from './client-harness.ts'

describe('the journal says what each write sent', () => {
  test('a long POST body whole, and the headers the POST went with, the key redacted', async () => {
    const server = await serve((_req, res) => void res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":1,"name":"n"}'))
    const lines: JournalLine[] = []
    const log = new RunJournal({ append: (line) => lines.push(line), beforeSend: () => undefined })
    const body = JSON.stringify({ name: 'cf-abcde-bigdesc', description: `${'0123456789'.repeat(900)}-9000` })
    expect(body.length).toBeGreaterThan(9000)
    await withClient({ baseUrl: server.baseUrl, journal: log, apiKey: 'journal-writes-key-5f3c9a1b7d' }, (c) =>
      c.send({ method: 'POST', path: '/categories', body, headers: { 'content-type': 'application/json', accept: '*/*', authorization: KEY_AUTHORIZATION }, probe: 'create-long-thousands' }),
    )
    expect(server.requests[0]?.body).toBe(body)
    const [entry] = log.entries()
    expect(entry?.body).toBe(body)
    expect(entry?.headers).toMatchObject({ 'content-type': 'application/json', accept: '*/*', authorization: KEY_AUTHORIZATION })
    expect(entry?.headers?.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/)
    // each line a killed run left holds the body whole; the headers come once, on the dispatched line
    expect(lines.map((l) => [l.phase, l.body === body, l.headers !== undefined])).toEqual([
      ['dispatched', true, true],
      ['on-wire', true, false],
      ['ended', true, false],
    ])
    expect(JSON.stringify(lines)).not.toContain('journal-writes-key-5f3c9a1b7d')
  })

  test('a GET carries no headers in the journal (its lines stay short: a run sends about 80 of them)', async () => {
    const server = await serve((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('[]'))
    const log = new RunJournal()
    await withClient({ baseUrl: server.baseUrl, journal: log }, (c) => c.send({ method: 'GET', path: '/categories', headers: { authorization: KEY_AUTHORIZATION } }))
    expect(log.entries()[0]?.headers).toBeUndefined()
  })
})
