/**
 * §5.2 and §5.3: the key goes under the Bearer scheme, after a space (RFC 9110 §11.4: 1*SP). A
 * pattern written by hand that makes the space optional (/^Bearer\s*(\S+)$/i) takes Bearer<key>
 * for the key. No request put the key right after "Bearer" (the near-miss after "Bearer:" puts a
 * colon there, which the pattern keeps in the token), so such a service passed under every seed;
 * the list is now asked for with it (a read, no write).
 */
import { describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'bearer-space-key-0123456789abcdef'
const { serve, conform } = runsWithKey(KEY)

describe('the key right after "Bearer"', () => {
  test('let in: auth-invalid-key-401 fails on the list asked for with it, and only there', async () => {
    const run = await conform(serve(await startCase(MUTATIONS.find((m) => m.name === 'bearer-space-optional')!, { apiKey: KEY })))
    expect(run.code, run.stdout).toBe(1)
    const failed = run.results!.rules.find((r) => r.id === 'auth-invalid-key-401')!.checks.filter((c) => c.status === 'fail')
    expect(failed.map((c) => `${c.name}: ${c.failure?.code}`)).toEqual(['GET /categories with the key right after "Bearer", without the space → 401: UNEXPECTED_STATUS'])
    // named as the pattern's optional space, not as a character read past (the key after "Bearer:")
    expect(failed[0]!.failure?.message).toContain('right after "Bearer", without the space')
    expect(failed[0]!.failure?.message).not.toContain('one more character')
    // the key itself never shows: the evidence has its placeholder
    expect(failed[0]!.exchanges.at(-1)?.request.headers.authorization).toBe('Bearer$CONFORM_API_KEY')
    expect(run.stdout).not.toContain(KEY)
  }, 60_000)
})
