/**
 * The body with a UTF-8 byte order mark may get either of two answers: 400 (not JSON), or 201 with
 * the name sent (RFC 8259 §8.1 lets a parser ignore the mark). Any other answer fails, and the
 * failure names both: "expected 400" alone read as though a 201 were wrong too (a Spring MVC
 * handler without @ResponseStatus(HttpStatus.CREATED), whose Jackson skips the mark, answers 200).
 */
import { expect, test } from 'vitest'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'byte-order-mark-key-0123456789'
const { serve, conform } = runsWithKey(KEY)

test('a 200 to the body with a byte order mark fails, naming 400 and 201', async () => {
  const server = serve(
    await startReferenceServer({
      apiKey: KEY,
      behaviour: {
        decodeBody: (bytes) => new TextDecoder('utf-8', { fatal: true }).decode(bytes),
        finish: (reply, request) => (reply.status === 201 && request.rawBody?.startsWith('\ufeff') ? { ...reply, status: 200 } : reply),
      },
    }),
  )
  const run = await conform(server, '--rule', 'create-rejects-invalid-json')
  expect(run.code, run.stdout).toBe(1)
  const failed = run.results!.rules.find((r) => r.id === 'create-rejects-invalid-json')!.checks.filter((c) => c.status === 'fail')
  expect(failed.map((c) => [c.failure?.code, c.failure?.message, c.failure?.observed])).toEqual([
    ['UNEXPECTED_STATUS', 'POST answered 200, expected 400, or 201 since RFC 8259 §8.1 lets a parser ignore a byte order mark', 'status 200'],
  ])
})
