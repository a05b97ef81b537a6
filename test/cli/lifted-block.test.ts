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

test('403s scattered over the run (one replica of four refusing the key), or a block to the run\'s end, are no lifted block', () => {
  const scattered = Array.from({ length: 80 }, (_, i) => entry(i, i % 4 === 0 ? 403 : 200))
  expect(liftedBlockWords([{ exchanges: [{ id: '0' }] }], scattered)).toBe('')
  const toTheEnd = Array.from({ length: 80 }, (_, i) => entry(i, i < 40 ? 200 : 403))
  expect(liftedBlockWords([{ exchanges: [{ id: '50' }] }], toTheEnd)).toBe('')
  const lifted = Array.from({ length: 80 }, (_, i) => entry(i, i >= 40 && i < 60 ? 403 : 200))
  expect(liftedBlockWords([{ exchanges: [{ id: '50' }] }], lifted)).toMatch(/^: every one met a 403 of one stretch of the run \(20 of 20 answers in a row 403, then 20 served again\)/)
  // a failed check none of whose answers was in the stretch: the group is no block's
  expect(liftedBlockWords([{ exchanges: [{ id: '50' }] }, { exchanges: [{ id: '70' }] }], lifted)).toBe('')
})
