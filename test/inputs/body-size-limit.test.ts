/**
 * A service with a limit on the size of a create body (§8: maximum sizes are not shown), answered 413
 * before the body is read: nginx's client_max_body_size, a framework's body-parser limit. Measured
 * with nginx in front of a conforming service, client_max_body_size 100: the wrong-type bodies whose
 * drawn array or object made them longer (up to 816 bytes over 2,000 seeds) got 413, and
 * create-rejects-invalid-values failed (413, expected 400) for the seeds that drew them long.
 * - Such a service passes: a 413 to a body larger than every create it accepted is its size limit.
 * - A service that answers 413 to a value of the wrong type, whatever its size, still fails: it
 *   accepted larger creates, so the 413 is no size limit.
 */
import { describe, expect, test } from 'vitest'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { failedRules, runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'body-size-limit-key-0123456789'
const { serve, conform } = runsWithKey(KEY)

/** Above every create the suite requires 201 for (76 bytes), below two wrong-type bodies of seed 1 (106 and 146 bytes). */
const LIMIT = 100

describe('a limit on the size of a create body', () => {
  test(`of ${LIMIT} bytes, answered 413: the wrong-type bodies over it are not verified, and the run passes`, async () => {
    const server = serve(await startReferenceServer({ apiKey: KEY, maxRequestBytes: LIMIT }))
    const run = await conform(server)
    expect(failedRules(run), run.stdout).toEqual([])
    const skipped = run.results!.rules.find((r) => r.id === 'create-rejects-invalid-values')!.checks.filter((c) => c.status === 'skip').map((c) => c.name)
    expect(skipped).toContainEqual(expect.stringContaining('name as an object'))
  }, 60_000)

  test('413 to a value of the wrong type, whatever its size: create-rejects-invalid-values fails, the object name included', async () => {
    const server = serve(
      await startReferenceServer({
        apiKey: KEY,
        behaviour: {
          finish: (reply, request) => (request.operation === 'createCategory' && reply.status === 400 && /"(name|description)":[{[]/.test(request.rawBody ?? '') ? { ...reply, status: 413 } : reply),
        },
      }),
    )
    const run = await conform(server)
    expect(failedRules(run), run.stdout).toEqual(['create-rejects-invalid-values'])
    const failed = run.results!.rules.find((r) => r.id === 'create-rejects-invalid-values')!.checks.filter((c) => c.status === 'fail').map((c) => c.name)
    expect(failed).toContainEqual(expect.stringContaining('name as an object'))
  }, 60_000)
})
