/**
 * A key that is a property name of results.json ("verdict", "listLagMs", "exitCode1" holding
 * "exitCode"): the reports are redacted whole, and results.json's property was renamed
 * `"[REDACTED]": "pass"`, which compare, merge and every script read as no verdict. Its names stay
 * (lib/reporters/json-report.ts, redactedJsonText); a value that holds the key is still hidden. So do
 * journal.ndjson's (redactedJsonLines): a key "status" renamed the status of every answered request's line.
 */
import { expect, test } from 'vitest'
import { redactedJsonLines, redactedJsonText } from '../../lib/reporters/json-report.ts'
import { createRedactor } from '../../lib/http/redact.ts'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

for (const key of ['verdict', 'listLagMs', 'exitCode1', 'status']) {
  const run = runsWithKey(key)
  test(`a run with the key "${key}" writes a results.json with every property named`, { timeout: 120_000 }, async () => {
    const server = run.serve(await startReferenceServer({ apiKey: key }))
    const result = await run.conform(server)
    expect(result.code, result.stderr).toBe(0)
    const json = JSON.parse(result.files['results.json']!) as Record<string, unknown>
    expect(json.verdict).toBe('pass')
    expect(json.exitCode).toBe(0)
    expect((json.options as Record<string, unknown>).listLagMs).toBeTypeOf('number')
    expect(result.files['results.json']).not.toMatch(/"[^"\n]*\[REDACTED\][^"\n]*": /)
    // journal.ndjson keeps its names too: "status" was "[REDACTED]" in every answered request's line
    const lines = result.files['journal.ndjson']!.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.filter((line) => line.phase === 'ended').every((line) => typeof line.status === 'number' || line.error !== undefined)).toBe(true)
    expect(result.files['journal.ndjson']).not.toMatch(/[{,]"[^"]*\[REDACTED\][^"]*":/)
  })
}

test('a value holding the key is hidden where a property of its name stays', () => {
  const text = JSON.stringify({ verdict: 'pass', echo: 'Bearer verdict', headers: { verdict: 'verdict' }, quoted: '"verdict": 1' }, null, 2)
  const shown = redactedJsonText(text, createRedactor('verdict'))
  expect(JSON.parse(shown)).toEqual({ verdict: 'pass', echo: 'Bearer [REDACTED]', headers: { verdict: '[REDACTED]' }, quoted: '"[REDACTED]": 1' })
})

test("a journal line's value holding the key is hidden where a property of its name stays", () => {
  const lines = [{ status: 200, detail: 'Bearer status', headers: { status: 'status' } }, { quoted: 'a,"status":1', status: 401 }].map((line) => JSON.stringify(line)).join('\n')
  const shown = redactedJsonLines(lines, createRedactor('status')).split('\n').map((line) => JSON.parse(line) as unknown)
  expect(shown).toEqual([{ status: 200, detail: 'Bearer [REDACTED]', headers: { status: '[REDACTED]' } }, { quoted: 'a,"[REDACTED]":1', status: 401 }])
})
