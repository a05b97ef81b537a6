/**
 * A guard that blocks this client for a while (a brute-force lockout tripped by the run's own refused
 * keys) and lifts before the run ends: the checks its 403s failed pass when probed again, and the
 * fault group names the block, not one replica behind a load balancer (lib/result/lifted-block.ts).
 * A replica that answers 403 now and then, scattered over the run, keeps the replica's words.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, expect, test } from 'vitest'
import type { JournalEntry } from '../../lib/http/journal.ts'
import { faultGroups } from '../../lib/result/fault-groups.ts'
import { liftedBlockWords } from '../../lib/result/lifted-block.ts'
import { startReferenceServer, type RunningServer, type StoredCategory } from '../../lib/server/reference-server.ts'
import { errorReply } from '../../lib/server/server-cases.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'

const servers: RunningServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((r) => r.cleanup())
  await Promise.all(servers.map((s) => s.close()))
})

test('a lockout after 30 refusals that lifts 300 ms later: FAIL as before (its 403s without a key), and the fault group says a block, not a replica', async () => {
  const apiKey = `key-${randomBytes(12).toString('hex')}`
  let refusals = 0
  let blockedAt = 0
  const server = await startReferenceServer({
    apiKey,
    behaviour: {
      finish: (reply, request, store: StoredCategory[]) => {
        if (refusals < 30) {
          if (reply.status === 401 && ++refusals === 30) blockedAt = Date.now()
          return reply
        }
        if (Date.now() - blockedAt > 300) return (refusals = 0), reply
        if (request.operation === 'createCategory' && reply.status === 201) store.splice(store.indexOf(reply.body as StoredCategory), 1)
        return errorReply(403, 'locked_out', 'Too many failed authentications; try again later.')
      },
    },
  })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl, '--seed', '1'], { env: { CONFORM_API_KEY: apiKey } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(1)
  const lines = faultGroups(run.results!).map((f) => f.line)
  expect(lines.join('\n')).toMatch(/^intermittent: \d+ checks? (?:was|were) answered differently on a second probe: every one met a 403 of one stretch of the run \(\d+ of \d+ answers in a row 403, then \d+ served again\), as a guard that blocked this client for a while gives/m)
  expect(lines.join('\n')).not.toMatch(/one replica/)
})

const entry = (id: number, status: number): JournalEntry => ({ id: String(id), at: '', method: 'GET', url: 'http://127.0.0.1/v1/categories', onWire: true, outcome: 'answered', status, endedAt: new Date(Date.UTC(2026, 10, 28, 0, 0, 0, id)).toISOString() })

const exchange = (id: number, status: number, after?: number) => ({ id: String(id), request: { headers: { traceparent: `tp-${id}` } }, response: { status }, ...(after !== undefined ? { afterOnItsConnection: `tp-${after}` } : {}) })

test('403s scattered over the run (one replica of four refusing the key), or a block to the run\'s end, are no lifted block', () => {
  const scattered = Array.from({ length: 80 }, (_, i) => entry(i, i % 4 === 0 ? 403 : 200))
  expect(liftedBlockWords([{ exchanges: [{ id: '0' }] }], scattered)).toBe('')
  const toTheEnd = Array.from({ length: 80 }, (_, i) => entry(i, i < 40 ? 200 : 403))
  expect(liftedBlockWords([{ exchanges: [{ id: '50' }] }], toTheEnd)).toBe('')
  const lifted = Array.from({ length: 80 }, (_, i) => entry(i, i >= 40 && i < 60 ? 403 : 200))
  // the run's exchanges, two connections taking turns: the 403s went on both
  const onConnections = lifted.map((e, i) => exchange(i, e.status!, i < 2 ? undefined : i - 2))
  expect(liftedBlockWords([{ exchanges: [{ id: '50' }] }], lifted, onConnections)).toMatch(/^: every one met a 403 of one stretch of the run \(20 of 20 answers in a row 403, then 20 served again\)/)
  // a failed check none of whose answers was in the stretch: the group is no block's
  expect(liftedBlockWords([{ exchanges: [{ id: '50' }] }, { exchanges: [{ id: '70' }] }], lifted, onConnections)).toBe('')
  // the 403s on one connection alone: a balancer that pins a connection to a replica gives that too
  expect(liftedBlockWords([{ exchanges: [{ id: '50' }] }], lifted, lifted.map((e, i) => exchange(i, e.status!, i > 0 ? i - 1 : undefined)))).toBe('')
})

// a balancer that pins each connection to one of its replicas (AWS's NLB, a Kubernetes Service), the
// first connection's replica refusing the key: under --concurrency 1 its 30 answers are one stretch
// of 403s, served again once the server closes that connection and the next goes to another replica.
// Before, the group named a guard's block ("not a replica"), though every 403 went on one connection
test('one replica of a balancer that pins connections refuses the key, under --concurrency 1: one stretch of 403s, and the words still say a replica', async () => {
  const apiKey = `key-${randomBytes(12).toString('hex')}`
  const replicas = new WeakMap<object, number>()
  let answered = 0
  const server = await startReferenceServer({
    apiKey,
    behaviour: {
      finish: (reply, request, store: StoredCategory[]) => {
        const connection = request.connection ?? {}
        // the first connection goes to the replica that refuses the key, every later one to another
        if (!replicas.has(connection)) replicas.set(connection, answered === 0 ? 0 : 1)
        const closing: Record<string, string> = ++answered % 30 === 0 ? { connection: 'close' } : {}
        if (replicas.get(connection) !== 0) return { ...reply, headers: { ...reply.headers, ...closing } }
        if (request.operation === 'createCategory' && reply.status === 201) store.splice(store.indexOf(reply.body as StoredCategory), 1)
        return errorReply(403, 'forbidden', 'Invalid key for this replica.', closing)
      },
    },
  })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl, '--seed', '1', '--concurrency', '1'], { env: { CONFORM_API_KEY: apiKey } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(1)
  const lines = faultGroups(run.results!).map((f) => f.line).join('\n')
  expect(lines).toMatch(/answered differently on a second probe \(one replica behind a load balancer\?\)/)
  expect(lines).not.toMatch(/a guard that blocked this client/)
})
