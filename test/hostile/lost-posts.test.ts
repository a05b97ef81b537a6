/**
 * A server that stores each POST and drops its connection before answering, behind a list that
 * shows a record only seconds later (a read replica): the list cannot show that a POST was stored,
 * so sending it again may store it again. Under --max-writes N the server gets N POSTs, never more
 * (it got every one eleven times: 22 records for --max-writes 2, and the reports said none).
 */
import { afterAll, describe, expect, test } from 'vitest'
import { runConform, type ConformRun } from '../helpers/run-conform.ts'
import { httpServer, type HostileServer } from './hostile-servers.ts'
import { expectCleanFailure, failedChecks, RUN_TIMEOUT_MS } from './expect-run.ts'

const KEY = 'lost-posts-test-key-4b2e9d'
const servers: HostileServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
})

/** Stores every POST with a valid key, then destroys the connection; the list leaves out what is younger than 30 s. */
async function storesThenDrops() {
  const stored: { id: number; name: string; at: number }[] = []
  const server = await httpServer((req, res, seen) => {
    if (seen.headers.authorization !== `Bearer ${KEY}`) {
      return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"unauthorized","message":"no","status":401}')
    }
    if (req.method === 'POST') {
      stored.push({ id: stored.length + 1, name: String(seen.body), at: Date.now() })
      return void req.socket.destroy()
    }
    const listed = stored.filter((r) => Date.now() - r.at > 30_000).map(({ id }) => ({ id, name: `n${id}` }))
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(listed))
  })
  servers.push(server)
  return { server, stored }
}

describe('a server that stores each POST and drops the connection, behind a list that lags', { timeout: RUN_TIMEOUT_MS }, () => {
  test('--max-writes 2: the server gets 2 POSTs, each counted as one that may have created a record, and their checks fail', async () => {
    const { server, stored } = await storesThenDrops()
    const run = await runConform(['--base-url', server.baseUrl, '--max-writes', '2', '--list-lag', '0'], { env: { CONFORM_API_KEY: KEY }, killAfterMs: 100_000 })
    runs.push(run)
    expectCleanFailure(run)
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(2)
    expect(stored).toHaveLength(2)
    expect(run.results!.summary).toMatchObject({ writes: 2, unansweredWrites: 2 })
    expect(run.results!.summary.resentLostWrites ?? 0).toBe(0)
    expect(run.stdout).toContain('POSTs without an answer: 2 (each may have created a record')
    const lost = failedChecks(run).filter((c) => c.failure?.actual === 'CONNECTION_RESET; not sent again (--max-writes)')
    expect(lost.length).toBeGreaterThan(0)
    expect(lost[0]!.failure!.message).toMatch(/^no answer: the connection closed under the request .* so under --max-writes it was not sent again \(it may have created a record\)/)
  })
})
