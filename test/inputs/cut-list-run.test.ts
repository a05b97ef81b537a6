/**
 * A list cut at a round size with no header that says so (measured by stackhunt11: Flask over
 * SQLite, ORDER BY id LIMIT 1000, with 990 records): the run fails created-in-list, as it did, and
 * the failure now says the list holds as many records as a page size and lacks only newer ones,
 * where it said only how long the list was read again.
 */
import { describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { seedCategories, startCase, type Mutation } from '../../lib/server/server-cases.ts'
import type { Reply } from '../../lib/server/reference-server.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'cut-list-run-key-0123456789abcdef'
const { serve, conform } = runsWithKey(KEY)

describe('a list cut at 50, oldest first, with no header', () => {
  test('created-in-list fails MISSING_FROM_LIST, saying the list is cut at 50', async () => {
    const run = await conform(serve(await startCase(MUTATIONS.find((m) => m.name === 'list-oldest-50-only')!, { apiKey: KEY })), '--list-lag', '300', '--confirm', '0')
    expect(run.code, run.stdout).toBe(1)
    const failed = run.results!.rules.filter((r) => r.status === 'fail')
    expect(failed.map((r) => r.id)).toEqual(['created-in-list'])
    const failure = failed[0].checks.find((c) => c.status === 'fail')!.failure!
    expect(failure.code).toBe('MISSING_FROM_LIST')
    expect(failure.message).toMatch(/the list answered one page of a paged list \(it holds 50 records, a round number, and lacks only records newer than every one it holds: a list cut at 50/)
  }, 60_000)
})

// review52: a list that stays as it was first read (a copy kept in the process, with no header that
// says so) with 50 records lacks only newer ones too, but holds none of the run's creates: nothing
// shows a cut, and the words must not name one
describe('a list of 50 kept as it was first read', () => {
  const kept = new WeakMap<object, Reply>()
  const stale: Mutation = {
    name: 'list-kept-as-first-read',
    breaks: 'created-in-list',
    code: 'MISSING_FROM_LIST',
    description: 'the list is answered as it was first read, from a copy kept in the process',
    seed: () => seedCategories(50),
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'listCategories' || reply.status !== 200) return reply
        // a copy: the body is the store's own array, which the creates grow
        if (!kept.has(store)) kept.set(store, { ...reply, body: Array.isArray(reply.body) ? [...(reply.body as unknown[])] : reply.body })
        return kept.get(store)!
      },
    },
  }
  test('created-in-list fails MISSING_FROM_LIST without saying the list is cut at 50', async () => {
    const run = await conform(serve(await startCase(stale, { apiKey: KEY })), '--list-lag', '300', '--confirm', '0')
    expect(run.code, run.stdout).toBe(1)
    const failure = run.results!.rules.find((r) => r.id === 'created-in-list')!.checks.find((c) => c.status === 'fail')!.failure!
    expect(failure.code).toBe('MISSING_FROM_LIST')
    expect(failure.message).not.toMatch(/cut at 50/)
  }, 60_000)
})
