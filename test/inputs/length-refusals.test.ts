/**
 * A create refused for its lengths (§8 shows none, so 400 is free) is still an error answer: §7's
 * Error record, declared application/json (§4). A service whose length errors are written apart
 * from its other errors (Go's http.Error(w, text, 400), which declares text/plain) showed only on
 * these refusals: every other 400 and 401 of the run was application/json, and the run passed.
 */
import { describe, expect, test } from 'vitest'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { errorReply, findCase } from '../../lib/server/server-cases.ts'
import { columnLimits } from '../../lib/server/variants/inputs.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { failedRules, runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'length-refusals-key-0123456789'
const { serve, conform } = runsWithKey(KEY)

describe('creates refused for their lengths with 400', () => {
  test('declared text/plain: json-content-type fails on those refusals, each a create the service limits', async () => {
    const mutation = findCase(MUTATIONS, 'length-refusals-declared-text-plain')!
    const server = serve(await startReferenceServer({ apiKey: KEY, behaviour: mutation.behaviour }))
    const run = await conform(server)
    expect(failedRules(run), run.stdout).toEqual(['json-content-type'])
    const failed = run.results!.rules.find((r) => r.id === 'json-content-type')!.checks.filter((c) => c.status === 'fail').map((c) => c.name)
    expect(failed.length).toBeGreaterThan(0)
    for (const name of failed) expect(name).toMatch(/^POST \/categories with .* → if refused with 400, the error is application\/json$/)
  }, 60_000)
})

describe('creates refused for their lengths with 422', () => {
  // measured: a Python service on http.server and sqlite3 answering 422 past a 32-character name said
  // "POST answered 422, expected 201 (or a refusal for length: 400, 413)" and nothing of why
  test('create-returns-201 fails on those refusals, naming 422 as the validation status of the stacks that answer it so', async () => {
    const limits = columnLimits(32, 255)
    const server = serve(
      await startReferenceServer({
        apiKey: KEY,
        behaviour: {
          validate: limits.validate,
          finish: (reply) => (reply.status === 400 && JSON.stringify(reply.body).includes('value too long') ? errorReply(422, 'too_long', 'The name is too long.') : reply),
        },
      }),
    )
    const run = await conform(server)
    expect(failedRules(run), run.stdout).toEqual(['create-returns-201'])
    const failures = run.results!.rules.find((r) => r.id === 'create-returns-201')!.checks.filter((c) => c.status === 'fail')
    expect(failures.length).toBeGreaterThan(0)
    for (const c of failures) expect(c.failure!.message, c.name).toMatch(/^POST answered 422, expected 201 \(or a refusal.*\): 422 is the validation status of FastAPI .*§4\.2 rule 1 and §7 answer a refusal 400/)
  }, 60_000)
})
