/**
 * §5.3: a header that is not the valid key is answered 401 on every operation. A Rack service
 * under Puma read the token with header.sub(/\ABearer /, ''), which takes the bare key too, and
 * routed no GET /store/orders: it answered that path 404 with the bare key and 401 without any key.
 * The 404 was put down to a router answering before any key check; the answer without a key shows
 * the key is checked first there, so the finding now says this header passed the check.
 */
import { describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'bare-key-unrouted-0123456789abcdef'
const { serve, conform } = runsWithKey(KEY)

describe('the bare key taken, then no route for the operation', () => {
  test("a 404 where the request without a key got 401 says the header passed the key check, not that the router answered first", async () => {
    const run = await conform(serve(await startCase(MUTATIONS.find((m) => m.name === 'bare-key-taken-orders-unrouted')!, { apiKey: KEY })))
    expect(run.code, run.stdout).toBe(1)
    const failed = run.results!.rules.find((r) => r.id === 'auth-invalid-key-401')!.checks.filter((c) => c.status === 'fail')
    const orders = failed.find((c) => c.name === 'GET /store/orders with the key without a scheme → 401')
    expect(orders?.failure?.code).toBe('UNEXPECTED_STATUS')
    expect(orders?.failure?.message).toMatch(/^GET answered 404, expected 401: the same path answered 401 to a request without a key, .*this header passed that check: the service took it for the valid key \(.*header\.sub/)
    expect(orders?.failure?.message).not.toMatch(/router that has no route for the operation answering before any check of the key/)
    // the answer without a key is its evidence too
    expect(orders?.exchanges.slice(0, 2).map((e) => e.request.headers.authorization)).toEqual(['$CONFORM_API_KEY', undefined])
    expect(run.stdout).not.toContain(KEY)
  }, 60_000)
})
