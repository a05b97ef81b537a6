/** Near-misses of a key too short to redact safely are not sent; the rest of the run goes on. */
import { describe, expect, test } from 'vitest'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { runConform, runConformInProcess } from '../helpers/run-conform.ts'

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
      // operations, the last character changed, on the list only, and the two that go to the create
      // too (case swapped, last character dropped), each judged on its status and on the list after it;
      // and the key as the user name of Basic credentials, on the list only (found inside base64 only
      // for a key of 8 characters or more)
      expect(skipped.length).toBe(15)
      for (const check of skipped) expect(check.skipReason).toMatch(/shorter than 8 characters/)
      expect(checks.filter((c) => c.status === 'pass').length).toBeGreaterThan(0)
    } finally {
      await server.close()
    }
  })
})

describe('a key that is a word of the result model', () => {
  // the reports redact the key everywhere; a key "rule" or "checks" once renamed the result's own
  // properties, and the run ended "could not be made" against a conforming server
  test.each(['rule', 'checks', 'name'])('%s: the run passes', async (key) => {
    const server = await startReferenceServer({ apiKey: key })
    try {
      const run = await runConformInProcess(['--base-url', server.baseUrl, '--rule', 'list-returns-200', '--rule', 'auth-invalid-key-401'], { env: { CONFORM_API_KEY: key } })
      run.cleanup()
      expect(run.code, run.stdout + run.stderr).toBe(0)
      // the written reports hide the key wherever it stands, inside words too ("[REDACTED]s"): a key
      // this short cannot be told from ordinary text; the verdict still stands
      expect(run.results!.verdict).toBe('pass')
      expect(run.stdout).toContain('Verdict: PASS (exit 0)')
    } finally {
      await server.close()
    }
  })
})
