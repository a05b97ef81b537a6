/** Near-misses of a key too short to redact safely are not sent; the rest of the run goes on. */
import { describe, expect, test } from 'vitest'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { runConform } from '../helpers/run-conform.ts'

describe('a key shorter than 8 characters', () => {
  test('no near-miss of it is sent; those checks say why, the others pass', async () => {
    const key = 'Ab3x9'
    const server = await startReferenceServer({ apiKey: key })
    try {
      const run = await runConform(['--base-url', server.baseUrl, '--rule', 'auth-invalid-key-401'], { env: { CONFORM_API_KEY: key } })
      run.cleanup()
      expect(run.code, run.stdout + run.stderr).toBe(0)
      const checks = run.results!.rules.find((r) => r.id === 'auth-invalid-key-401')!.checks
      const skipped = checks.filter((c) => c.status === 'skip')
      // 3 near-misses that need redaction (case swapped, same shape, last character dropped) × 3 GET
      // operations, and the last character changed, on the list only
      expect(skipped.length).toBe(10)
      for (const check of skipped) expect(check.skipReason).toMatch(/shorter than 8 characters/)
      expect(checks.filter((c) => c.status === 'pass').length).toBeGreaterThan(0)
    } finally {
      await server.close()
    }
  })
})
