/**
 * §5.2 and §5.3: the key goes under the Bearer scheme, after a space. echo's KeyAuth middleware
 * (and its JWT middleware) compares the header's first six characters to "Bearer" and takes the
 * token from the eighth on, whatever the seventh, so `Bearer:<key>` is let in. No request put
 * another character there, so such a service (measured: echo 4.2.1) passed under every seed; the
 * list is now asked for with it (a read, no write).
 */
import { describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'bearer-colon-key-0123456789abcdef'
const { serve, conform } = runsWithKey(KEY)

describe('the key after "Bearer:"', () => {
  test('let in: auth-invalid-key-401 fails on the list asked for with it, and only there', async () => {
    const run = await conform(serve(await startCase(MUTATIONS.find((m) => m.name === 'bearer-then-any-character')!, { apiKey: KEY })))
    expect(run.code, run.stdout).toBe(1)
    const failed = run.results!.rules.find((r) => r.id === 'auth-invalid-key-401')!.checks.filter((c) => c.status === 'fail')
    expect(failed.map((c) => `${c.name}: ${c.failure?.code}`)).toEqual(['GET /categories with the key after "Bearer:" (a colon where the space goes) → 401: UNEXPECTED_STATUS'])
    // the key itself never shows: the evidence has its placeholder
    expect(failed[0]!.exchanges.at(-1)?.request.headers.authorization).toBe('Bearer:$CONFORM_API_KEY')
    expect(run.stdout).not.toContain(KEY)
  }, 60_000)
})
