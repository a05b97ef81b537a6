/**
 * A service whose session is 20 KB of chunked cookies (ASP.NET Core's cookie authentication cuts a
 * large one into cookies of 4,050 characters) behind a server that reads heads of 16 KiB (Node's
 * default; nginx's large_client_header_buffers is 8 KiB a line): the suite sends the cookies back,
 * alone, to see that they do not stand in for the key (§5.3), and the server refuses that request
 * 431 before it looks for a key. Sizes are not shown (§8): the check is not verified, as a 413 to a
 * long body is, where it failed auth-missing-key-401 with "GET answered 431, expected 401" (found by
 * hostile6, variant chunked-session-cookies-past-its-head-limit).
 */
import { randomBytes } from 'node:crypto'
import { afterAll, describe, expect, test } from 'vitest'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { VARIANTS } from '../../lib/server/variants.ts'
import { runConformInProcess } from '../helpers/run-conform.ts'

const KEY = `cookies-${randomBytes(12).toString('hex')}`
const closers: (() => unknown)[] = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

describe('cookies the service set, past the head its server reads', () => {
  test('the request carrying them back answered 431: not verified, the run passes', async () => {
    const variant = VARIANTS.find((v) => v.name === 'chunked-session-cookies-past-its-head-limit')!
    const server = await startReferenceServer({ apiKey: KEY, behaviour: variant.behaviour })
    closers.push(() => server.close())
    const run = await runConformInProcess(['--base-url', server.baseUrl], { env: { CONFORM_API_KEY: KEY } })
    closers.push(() => run.cleanup())
    expect(run.code, run.stdout).toBe(0)
    const checks = (run.results?.rules ?? []).flatMap((rule) => rule.checks)
    const skipped = checks.filter((c) => c.name.startsWith('GET /categories with only the cookies the service set'))
    expect(skipped.length).toBeGreaterThan(0)
    for (const check of skipped) {
      expect(check.status).toBe('skip')
      expect(check.skipReason).toMatch(/^not verified: answered 431 \(Request Header Fields Too Large\) to the 20\d{3} bytes of cookies the service set on its answer to the key: sizes are not shown \(§8\)$/)
    }
    // the cookies' values never reach the reports
    expect(run.files['results.json']).not.toContain('1'.repeat(100))
  }, 120_000)
})
