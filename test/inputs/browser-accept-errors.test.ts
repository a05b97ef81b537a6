/**
 * §4 and §7: every error is the JSON Error record, whatever the client accepts. A browser's Accept
 * prefers application/xml (q=0.9) to any type (q=0.8), and Falcon's default error serializer
 * answers it with HTTPError.to_xml(), which reads none of the to_dict that made the JSON the
 * Error record (measured: Falcon 3.1.1). Every error the suite asked for went out with JSON, any
 * type or no Accept, so such a service passed under every seed; the list is now asked for with
 * no key and a browser's Accept (one GET, no write).
 */
import { describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'browser-accept-key-0123456789abcdef'
const { serve, conform } = runsWithKey(KEY)

describe("an error to a browser's Accept", () => {
  test('XML: json-content-type and error-body-is-error-record fail on the 401 asked for with it, and only there', async () => {
    const run = await conform(serve(await startCase(MUTATIONS.find((m) => m.name === 'xml-errors-when-xml-preferred')!, { apiKey: KEY })))
    expect(run.code, run.stdout).toBe(1)
    const failedOf = (rule: string) => run.results!.rules.find((r) => r.id === rule)!.checks.filter((c) => c.status === 'fail').map((c) => `${c.name}: ${c.failure?.code}`)
    expect(failedOf('json-content-type')).toEqual(["GET /categories with no Authorization header and a browser's Accept → the error is application/json: WRONG_CONTENT_TYPE"])
    expect(failedOf('error-body-is-error-record')).toHaveLength(1)
    expect(run.results!.rules.filter((r) => r.status === 'fail').map((r) => r.id).sort()).toEqual(['error-body-is-error-record', 'json-content-type'])
  }, 60_000)
})
