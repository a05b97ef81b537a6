/**
 * The baseline file --update-baseline writes is committed to the service's repository, and is
 * written from the run's result before redaction (lib/runner/run-reports.ts). Its entries record
 * what each failure observed, which for WRONG_CONTENT_TYPE is server text, the media type: it stays
 * keyless only because the checks judge the headers as the client recorded them, redacted. This
 * guards that, with a server that echoes the key as its list's media type.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import type { RunningServer } from '../../lib/server/reference-server.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { keyLeaks } from '../helpers/key-leaks.ts'
import { RUN_TIMEOUT_MS } from '../hostile/expect-run.ts'

const KEY = 'baseline-echo-key-7c41d9e2b05a'
const dir = mkdtempSync(join(tmpdir(), 'conform-baseline-key-'))
const servers: RunningServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
  rmSync(dir, { recursive: true, force: true })
})

test('a key a server echoes in what a failure observed stays out of the baseline file', { timeout: RUN_TIMEOUT_MS }, async () => {
  // the list declared with the key as its media type (a gateway that reflects the credential into a header)
  const server = await startCase(
    {
      name: 'key-as-media-type',
      description: '',
      behaviour: { finish: (reply, request) => (request.operation === 'listCategories' && reply.status === 200 ? { ...reply, headers: { ...reply.headers, 'content-type': `${KEY}; charset=utf-8` } } : reply) },
    },
    { apiKey: KEY },
  )
  servers.push(server)
  const file = join(dir, 'known.json')
  const run = await runConformInProcess(['--base-url', server.baseUrl, '--baseline', file, '--update-baseline', '--read-only'], { env: { CONFORM_API_KEY: KEY } })
  runs.push(run)
  expect(run.code, run.stdout).toBe(0)
  const written = readFileSync(file, 'utf8')
  // the failure was recorded, with what it observed
  expect(written).toContain('WRONG_CONTENT_TYPE')
  expect(written).toContain('"observed"')
  expect(keyLeaks({ [file]: written }, [KEY])).toEqual([])
})
