/**
 * A list cut at a round size with no header that says so (measured by stackhunt11: Flask over
 * SQLite, ORDER BY id LIMIT 1000, with 990 records): the run fails created-in-list, as it did, and
 * the failure now says the list holds as many records as a page size and lacks only newer ones,
 * where it said only how long the list was read again.
 */
import { describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'
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
