/**
 * A Go team's net/http service with its collection at a ServeMux subtree pattern,
 * mux.HandleFunc("/v1/categories/", …), behind a key check that wraps the mux: every request to the
 * path §4 gives is redirected, 301, before any handler runs (measured on Go 1.19). The suite named
 * the redirect as Django's APPEND_SLASH, and failed six rules with 80 checks as six findings; it is
 * one now, named as Go's (mutation go-servemux-subtree-pattern-redirects).
 */
import { expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'go-net-http-key-0123456789abcdef'
const { serve, conform } = runsWithKey(KEY)

test('a ServeMux subtree pattern: every rule the redirect fails names Go\'s ServeMux, and the redirect is one finding', async () => {
  const run = await conform(serve(await startCase(MUTATIONS.find((m) => m.name === 'go-servemux-subtree-pattern-redirects')!, { apiKey: KEY })))
  expect(run.code, run.stdout).toBe(1)
  const failed = run.results!.rules.filter((r) => r.status === 'fail')
  expect(failed.map((r) => r.id)).toEqual(expect.arrayContaining(['list-returns-200', 'create-returns-201', 'create-rejects-invalid-json']))
  for (const rule of failed) {
    const words = rule.checks.filter((c) => c.status === 'fail').map((c) => c.failure!.message)
    expect(words.some((w) => /Go's ServeMux redirects a path without its trailing slash/.test(w)), rule.id).toBe(true)
    expect(words.filter((w) => /APPEND_SLASH/.test(w)), rule.id).toEqual([])
  }
  expect(run.stdout).toMatch(new RegExp(`✗ deterministic: \\d+ checks met requests redirected \\(301 to /v1/categories/\\) instead of answered, .*across ${failed.length} rules;`))
  expect(run.stdout.match(/^✗ /gm), run.stdout).toHaveLength(1)
}, 60_000)
