/**
 * A front that sends a create again once its timeout passed (HAProxy's retry-on response-timeout),
 * before a service slow on some creates before it stores them: the resend is answered, and the first
 * attempt stores the same values once more after that answer, and after the list that followed the
 * POSTs. Measured on HAProxy 2.6 before a Flask service: the run passed, three records stored twice.
 * One create far slower than the others now has the list read once more after --list-lag
 * (suites/categories/list-lag.ts settleAfterSlowCreate), which shows the second record, and the
 * reports say why the run waited (lib/result/observed-behaviour.ts slowCreateNote).
 */
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { VARIANTS } from '../../lib/server/variants.ts'
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

test('a first create answered 2 s late: the run passes, and every report says why it read the list once more, seconds later', async () => {
  const run = await conform(serve(await startCase(VARIANTS.find((v) => v.name === 'first-create-slow')!, { apiKey: KEY })))
  expect(run.code, run.stdout).toBe(0)
  // it took 7.4 s in place of 0.8, and no report said why
  expect(run.results?.observed?.slowCreate?.slowestMs).toBeGreaterThanOrEqual(2_000)
  expect(run.stdout).toMatch(/^A slow create \(not a failure\): one create took 2\.\d s from its write to its answer, the others \d+ ms \(the median\), so the list after the POSTs is read once more, --list-lag after the last create was answered/m)
  for (const file of ['summary.md', 'report.html']) expect(readFileSync(join(run.reportDir, file), 'utf8'), file).toMatch(/A slow create \\?\(not a failure\\?\)\\?: one create took 2\.\d s/)
}, 60_000)

test('with --list-lag 0 the list is not read once more, and no report says it is', async () => {
  const run = await conform(serve(await startCase(VARIANTS.find((v) => v.name === 'first-create-slow')!, { apiKey: KEY })), '--list-lag', '0')
  expect(run.code, run.stdout).toBe(0)
  // it said "the list after the POSTs is read once more, --list-lag after the last create" in a run of 2.9 s
  expect(run.results?.observed?.slowCreate).toBeUndefined()
  expect(run.stdout).not.toMatch(/A slow create/)
}, 60_000)
