/**
 * Near-misses of a key too short to redact safely are not sent; the rest of the run goes on. A key
 * short enough to be ordinary text ("test") is hidden wherever it stands apart, not inside the
 * reports' own words: hidden anywhere, it made junit.xml's `<testsuite>` a `<[REDACTED]suite>` that
 * no CI could read (lib/http/redact.ts, standingApart).
 */
import { describe, expect, test } from 'vitest'
import { createRedactor, REDACTED } from '../../lib/http/redact.ts'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { runConform, runConformInProcess, runsWithKey } from '../helpers/run-conform.ts'
import { elements, parseXml } from '../reporters/xml.ts'

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
      // the key as the user name of Basic credentials, on the list only (found inside base64 only
      // for a key of 8 characters or more); and the case-swapped key after the key on one connection
      expect(skipped.length).toBe(16)
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
      // the written reports hide the key wherever it stands apart, the result's own property names
      // too ("name": a key this short cannot be told from ordinary text); the verdict still stands
      expect(run.results!.verdict).toBe('pass')
      expect(run.stdout).toContain('Verdict: PASS (exit 0)')
    } finally {
      await server.close()
    }
  })
})

describe('a development key that is a word: "test"', () => {
  const KEY = 'test'
  const standingApart = /(?<![A-Za-z0-9])test(?![A-Za-z0-9])/
  const { serve, conform } = runsWithKey(KEY)

  test('a run against a conforming server: PASS, a junit.xml that parses, and "test" nowhere as a word of its own', async () => {
    const server = serve(await startReferenceServer({ apiKey: KEY }))
    const run = await conform(server)
    expect(run.code, run.stdout).toBe(0)
    const junit = parseXml(run.files['junit.xml'] ?? '')
    expect(junit.name).toBe('testsuites')
    expect(elements(junit, 'testcase').length).toBeGreaterThan(100)
    for (const [file, text] of Object.entries({ ...run.files, stdout: run.stdout, stderr: run.stderr })) expect(text, file).not.toMatch(standingApart)
    // the suite's own credential case "test" is the key here: its name is redacted, not the word in "testsuite"
    expect(run.files['results.json']).toContain(`with the token \\"${REDACTED}\\"`)
  })

  test('hidden where a server echoes it apart, in every form, and left inside longer words', () => {
    const redact = createRedactor(KEY)
    expect(redact('Authorization: Bearer test; {"token":"test"} ?key=test dGVzdA== <testsuite tests="1"> latest')).toBe(
      `Authorization: Bearer ${REDACTED}; {"token":"${REDACTED}"} ?key=${REDACTED} ${REDACTED} <testsuite tests="1"> latest`,
    )
    // a key of 8 characters or more is hidden wherever it is, glued to a word too
    expect(createRedactor('s3cr3t-k')('Bearers3cr3t-kx')).toBe(`Bearer${REDACTED}x`)
  })
})
