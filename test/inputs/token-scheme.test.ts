/**
 * §5.1 and §5.2: the key goes under the Bearer scheme. Django REST framework's TokenAuthentication
 * reads it under the scheme Token (its keyword), and a service that leaves it in beside its bearer
 * authentication lets `Token <key>` in. No request sent the key under that scheme, so such a service
 * passed under every seed; the list is now asked for with it (a read, no write).
 */
import { describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'token-scheme-key-0123456789abcdef'
const { serve, conform } = runsWithKey(KEY)

describe('the key under the Token scheme', () => {
  test('let in: auth-invalid-key-401 fails on the list asked for with it, and only there', async () => {
    const run = await conform(serve(await startCase(MUTATIONS.find((m) => m.name === 'token-keyword-accepted')!, { apiKey: KEY })))
    expect(run.code, run.stdout).toBe(1)
    const failed = run.results!.rules.find((r) => r.id === 'auth-invalid-key-401')!.checks.filter((c) => c.status === 'fail')
    expect(failed.map((c) => `${c.name}: ${c.failure?.code}`)).toEqual(['GET /categories with the key under the Token scheme → 401: UNEXPECTED_STATUS'])
    // the key itself never shows: the evidence has its placeholder
    expect(failed[0]!.exchanges.at(-1)?.request.headers.authorization).toBe('Token $CONFORM_API_KEY')
  }, 60_000)
})
