/**
 * The list after the run's POSTs, whole at once, is read once more at once (a fleet's balancer
 * sends it to another replica: suites/categories/list-lag.ts readOnceMore), and created-in-list
 * judges every read that lists all the created records, not the first alone: a replica on old
 * code that answers the second read without descriptions fails LISTED_FIELD_CHANGED.
 */
import { randomBytes } from 'node:crypto'
import { expect, test } from 'vitest'
import { startReferenceServer, type StoredCategory } from '../../lib/server/reference-server.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const apiKey = `key-${randomBytes(12).toString('hex')}`
const { serve, conform } = runsWithKey(apiKey)

test('two replicas answer the list in turn, one on old code (no descriptions), the other answering the list after the POSTs: created-in-list fails LISTED_FIELD_CHANGED', async () => {
  // every second list read drops descriptions: the run's reads before its creates are an even
  // number, so the list after the POSTs is right and the read once more at once is not
  let lists = 0
  const server = await startReferenceServer({ apiKey, behaviour: { listBody: (store: StoredCategory[]) => (++lists % 2 === 0 ? store.map(({ description: _d, ...r }) => r) : store) } })
  const run = await conform(serve(server), '--confirm', '0')
  expect(run.code, run.stdout).toBe(1)
  const failed = (run.results?.rules ?? []).flatMap((r) => r.checks.filter((c) => c.status === 'fail').map((c) => `${r.id} ${c.failure?.code}`))
  expect(failed, run.stdout).toContain('created-in-list LISTED_FIELD_CHANGED')
})
