/**
 * §7: every error carries the Error record, and §4: as JSON, whatever the client accepts. Every
 * 400 the suite asked for went out with its own Accept: application/json, so a service whose 400s
 * are negotiated (Rails' public exceptions render public/400.html for any format but JSON) and
 * whose 401s come from a gateway in JSON passed under every seed. The empty object now goes out
 * with curl's Accept (any type), and truncated JSON with no Accept header.
 */
import { describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'error-accepts-key-0123456789abcdef'
const { serve, conform } = runsWithKey(KEY)

describe("a 400 to a client that does not ask for JSON", () => {
  test('an HTML page to curl and to no Accept: json-content-type fails on the empty object and on truncated JSON', async () => {
    const run = await conform(serve(await startCase(MUTATIONS.find((m) => m.name === 'bad-request-page-unless-json-accepted')!, { apiKey: KEY })))
    expect(run.code, run.stdout).toBe(1)
    const failed = run.results!.rules.find((r) => r.id === 'json-content-type')!.checks.filter((c) => c.status === 'fail')
    expect(failed.map((c) => `${c.name}: ${c.failure?.code}`).sort()).toEqual([
      'POST /categories with an empty object → the error is application/json: WRONG_CONTENT_TYPE',
      'POST /categories with truncated JSON → the error is application/json: WRONG_CONTENT_TYPE',
    ])
    // what each asked for: curl's Accept, and none
    expect(failed.map((c) => c.exchanges.at(-1)?.request.headers.accept ?? 'none').sort()).toEqual(['*/*', 'none'])
  }, 60_000)
})
