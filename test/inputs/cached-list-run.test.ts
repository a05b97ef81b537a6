/**
 * A list a CDN in front keeps under the origin's Cache-Control: public, max-age (measured by
 * stackhunt11: a Node gateway keeping the list 30 s before the reference server): the run fails
 * created-in-list, as it did, and the failure now names the cache from the list's own headers
 * (Age, X-Cache, Cache-Control) where it said only how long the list was read again.
 */
import { describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase, type Mutation } from '../../lib/server/server-cases.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'cached-list-run-key-0123456789abcdef'
const { serve, conform } = runsWithKey(KEY)

describe('a list kept by a CDN in front', () => {
  test('created-in-list fails MISSING_FROM_LIST, naming the cache and the way to keep the list out of it', async () => {
    const run = await conform(serve(await startCase(MUTATIONS.find((m) => m.name === 'list-kept-by-a-cdn')!, { apiKey: KEY })), '--list-lag', '300', '--confirm', '0')
    expect(run.code, run.stdout).toBe(1)
    const failed = run.results!.rules.filter((r) => r.status === 'fail')
    expect(failed.map((r) => r.id)).toEqual(['created-in-list'])
    const failure = failed[0].checks.find((c) => c.status === 'fail')!.failure!
    expect(failure.code).toBe('MISSING_FROM_LIST')
    expect(failure.message).toMatch(/the list says a cache answered it or may keep it \(.*x-cache: HIT; Cache-Control: public, max-age=60, which lets a cache keep it 60 s\).*Cache-Control: no-store/)
  }, 60_000)
})

describe('a list kept by a CDN in front under its URL alone', () => {
  test("the requests without a key it served are put down to the cache, not to authentication not mounted", async () => {
    const run = await conform(serve(await startCase(MUTATIONS.find((m) => m.name === 'list-kept-by-url-by-a-cdn')!, { apiKey: KEY })), '--list-lag', '300', '--confirm', '0')
    expect(run.code, run.stdout).toBe(1)
    const failed = run.results!.rules.filter((r) => r.status === 'fail').map((r) => r.id)
    expect(failed).toEqual(expect.arrayContaining(['auth-missing-key-401', 'auth-invalid-key-401']))
    expect(run.stdout).toMatch(/requests without a valid key \(none, or one not issued\) were served \(a cache in front answered them \(.*x-cache: HIT.*\): its key holds the URL, not the Authorization header/)
    expect(run.stdout).not.toContain('is authentication mounted on every route')
  }, 60_000)
})

// review52: an origin that marks its list Cache-Control: public, max-age with no cache in front (no
// Age, no HIT), and whose list leaves out its newest record: the list holds the run's other creates,
// so it is no copy kept from before them, and no cache is named
describe('a list read fresh that says only Cache-Control: public, max-age', () => {
  const newestLeftOut: Mutation = {
    name: 'list-newest-left-out-public',
    breaks: 'created-in-list',
    code: 'MISSING_FROM_LIST',
    description: 'the list leaves out the newest record, and is marked Cache-Control: public, max-age=60',
    behaviour: {
      finish: (reply, request) =>
        request.operation !== 'listCategories' || reply.status !== 200 || !Array.isArray(reply.body)
          ? reply
          : { ...reply, headers: { ...reply.headers, 'cache-control': 'public, max-age=60' }, body: reply.body.slice(0, -1) },
    },
  }
  test('created-in-list fails MISSING_FROM_LIST without putting it down to a cache', async () => {
    const run = await conform(serve(await startCase(newestLeftOut, { apiKey: KEY })), '--list-lag', '300', '--confirm', '0')
    expect(run.code, run.stdout).toBe(1)
    const failure = run.results!.rules.find((r) => r.id === 'created-in-list')!.checks.find((c) => c.status === 'fail')!.failure!
    expect(failure.code).toBe('MISSING_FROM_LIST')
    expect(failure.message).not.toMatch(/cache/)
  }, 60_000)
})
