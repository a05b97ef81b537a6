/**
 * A front that sends a create again once its timeout passed (HAProxy's retry-on response-timeout),
 * before a service slow on some creates before it stores them: the resend is answered, and the first
 * attempt stores the same values once more after that answer, and after the list that followed the
 * POSTs. Measured on HAProxy 2.6 before a Flask service: the run passed, three records stored twice.
 * One create far slower than the others now has the list read once more after --list-lag
 * (suites/categories/list-lag.ts settleAfterSlowCreate), which shows the second record.
 */
import { randomBytes } from 'node:crypto'
import { expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = `key-${randomBytes(12).toString('hex')}`
const { serve, conform } = runsWithKey(KEY)

test('a create answered after 1 s and stored again 1.5 s later fails created-in-list DUPLICATE_CREATE', async () => {
  const run = await conform(serve(await startCase(MUTATIONS.find((m) => m.name === 'front-resends-slow-creates')!, { apiKey: KEY })), '--confirm', '0')
  expect(run.code, run.stdout).toBe(1)
  const failed = (run.results?.rules ?? []).flatMap((r) => r.checks.filter((c) => c.status === 'fail').map((c) => `${r.id} ${c.failure?.code}`))
  expect(failed, run.stdout).toEqual(['created-in-list DUPLICATE_CREATE'])
}, 60_000)
