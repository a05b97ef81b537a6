/**
 * Two runs at once with one reportDir (two test files of a service's vitest that declare the suite
 * with the same reportDir, run at once as vitest does by default): the later one deleted the
 * earlier one's journal while it was written and replaced its reports, and neither said so. Now
 * the second is refused before any request, naming the folder and the way out, and the first keeps
 * a whole journal; the folder is free again when the first ends, and a claim left by a process
 * that ended does not hold it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { threadId } from 'node:worker_threads'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { CLAIM_FILE } from '../../lib/api/report-dir-claim.ts'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { mainEntry } from './api-entry.ts'

const API_KEY = 'report-dir-claim-key-6e1b93'
let server: RunningServer
let work: string

beforeAll(async () => {
  server = await startReferenceServer({ apiKey: API_KEY })
  work = mkdtempSync(join(tmpdir(), 'conform-claim-'))
})
afterAll(async () => {
  await server?.close()
  if (work) rmSync(work, { recursive: true, force: true })
})

const options = () => ({ baseUrl: server.baseUrl, apiKey: API_KEY, reportDir: 'reports', cwd: work, environment: {}, rule: ['list-returns-200', 'auth-missing-key-401'] })

test('a second run in the folder while the first writes there is refused, and the first keeps its whole journal', async () => {
  const { runConformance, ConformanceRunError } = await mainEntry()
  const before = server.requests.length
  const [first, second] = await Promise.allSettled([runConformance(options()), runConformance(options())])
  expect(first.status).toBe('fulfilled')
  expect(second.status).toBe('rejected')
  const error = (second as PromiseRejectedResult).reason as Error
  expect(error).toBeInstanceOf(ConformanceRunError)
  expect(error.message).toMatch(/^reportDir "reports" is in use by another run in this process, which writes its journal there: two test files that declare the suite and run at once need a reportDir each/)
  // every request the server received is in the one journal
  const journal = readFileSync(join(work, 'reports', 'journal.ndjson'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { id: string; phase: string })
  const ended = new Set(journal.filter((e) => e.phase === 'ended').map((e) => e.id))
  expect(ended.size).toBe(server.requests.length - before)
  expect(readdirSync(join(work, 'reports'))).not.toContain(CLAIM_FILE)
  // free again once the first has ended
  await expect(runConformance(options())).resolves.toMatchObject({ verdict: 'pass' })
}, 60_000)

test('a claim left by a process that ended does not hold the folder', async () => {
  const { runConformance } = await mainEntry()
  writeFileSync(join(work, 'reports', CLAIM_FILE), `${JSON.stringify({ pid: 2 ** 22 + 12345, since: '2026-01-01T00:00:00.000Z' })}\n`)
  await expect(runConformance(options())).resolves.toMatchObject({ verdict: 'pass' })
  expect(readdirSync(join(work, 'reports'))).not.toContain(CLAIM_FILE)
}, 60_000)

test("a claim left with this process's id, which it does not hold (a container gives its processes the same ids run after run), does not hold the folder", async () => {
  const { runConformance } = await mainEntry()
  writeFileSync(join(work, 'reports', CLAIM_FILE), `${JSON.stringify({ pid: process.pid, thread: threadId, since: '2026-01-01T00:00:00.000Z' })}\n`)
  await expect(runConformance(options())).resolves.toMatchObject({ verdict: 'pass' })
  expect(readdirSync(join(work, 'reports'))).not.toContain(CLAIM_FILE)
}, 60_000)

test("a claim of this process's id by another of its threads (vitest's threads pool) holds the folder", async () => {
  const { runConformance, ConformanceRunError } = await mainEntry()
  writeFileSync(join(work, 'reports', CLAIM_FILE), `${JSON.stringify({ pid: process.pid, thread: threadId + 1, since: new Date().toISOString() })}\n`)
  await expect(runConformance(options())).rejects.toBeInstanceOf(ConformanceRunError)
  rmSync(join(work, 'reports', CLAIM_FILE))
}, 60_000)
