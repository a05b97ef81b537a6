/**
 * --rate-limit N: the requests of a run start at most N a second, and the run still verifies
 * every rule. Read off the journal of the run (when each request started) against a reference
 * server that counts what it receives.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, expect, test } from 'vitest'
import { Pacer } from '../../lib/http/pacer.ts'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { RUN_TIMEOUT_MS } from '../hostile/expect-run.ts'

const KEY = `rate-${randomBytes(12).toString('hex')}`
const RATE = 40
const servers: RunningServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((r) => r.cleanup())
  await Promise.all(servers.map((s) => s.close()))
})

/** The most arrivals within any one second. */
function busiestSecond(arrivals: number[]): number {
  const sorted = [...arrivals].sort((a, b) => a - b)
  let most = 0
  for (let first = 0, last = 0; last < sorted.length; last++) {
    while (sorted[last] - sorted[first] >= 1000) first++
    most = Math.max(most, last - first + 1)
  }
  return most
}

test(`--rate-limit ${RATE}: no second holds more than ${RATE} starts of requests, and the run passes`, async () => {
  const server = await startReferenceServer({ apiKey: KEY })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl, '--rate-limit', String(RATE)], { env: { CONFORM_API_KEY: KEY } })
  runs.push(run)
  expect(run.code, run.stdout + run.stderr).toBe(0)
  expect(run.results!.options.rateLimit).toBe(RATE)
  // what was sent, and how hard, in every report a person reads
  const posts = server.requests.filter((r) => r.method === 'POST').length
  const sent = `${posts} POSTs sent, of at most ${run.results!.options.maxWrites}`
  const pace = `at most 48 requests in flight (--concurrency 48), at most ${RATE} requests a second (--rate-limit ${RATE})`
  expect(run.stdout).toContain(`Sent: ${sent} of the plan and 2 more for each failed POST to confirm it (--confirm 2); ${pace}`)
  expect(run.files['summary.md']).toContain(`Pacing: ${pace.replace(/[()]/g, (c) => `\\${c}`)}.`)
  expect(run.files['report.html']).toContain(`<dt>Pacing</dt><dd>${pace}</dd>`)
  // when each request started, as the journal of results.json has it
  const starts = run.results!.journal!.map((entry) => Date.parse(entry.at))
  expect(starts.length).toBe(server.requests.length)
  // a turn every 25 ms: the two ends of one second's closed interval can both hold a start
  expect(busiestSecond(starts)).toBeLessThanOrEqual(RATE + 1)
  expect(Math.max(...starts) - Math.min(...starts)).toBeGreaterThanOrEqual(((starts.length - 1) * 1000) / RATE - 50)
}, RUN_TIMEOUT_MS)

test('the pacer gives turns 1000 / N ms apart, in the order asked, without a burst after a pause, and none without a rate', async () => {
  const pacer = new Pacer(20)
  const started = Date.now()
  const turns = await Promise.all(Array.from({ length: 5 }, () => pacer.turn().then(() => Date.now() - started)))
  expect(turns[4]).toBeGreaterThanOrEqual(4 * 50 - 5)
  expect(turns).toEqual([...turns].sort((a, b) => a - b))
  // the event loop held for 300 ms while 3 turns wait: they come 50 ms apart afterwards, not at once
  const waiting = Array.from({ length: 3 }, () => pacer.turn().then(() => Date.now()))
  const until = Date.now() + 300
  while (Date.now() < until) {
    // busy: no timer can fire
  }
  const after = await Promise.all(waiting)
  expect(after[2] - after[0]).toBeGreaterThanOrEqual(2 * 50 - 5)
  const free = new Pacer(undefined)
  const at = Date.now()
  await Promise.all(Array.from({ length: 100 }, () => free.turn()))
  expect(Date.now() - at).toBeLessThan(50)
})

test('past the deadline no turn is waited for: --rate-limit 1 with --deadline 3000 ends the run by its deadline, not one request a second later', async () => {
  const stop = new AbortController()
  const pacer = new Pacer(1, stop.signal)
  const started = Date.now()
  const turns = Array.from({ length: 5 }, () => pacer.turn().then(() => Date.now() - started))
  setTimeout(() => stop.abort(), 100)
  expect(Math.max(...(await Promise.all(turns)))).toBeLessThan(500)

  const server = await startReferenceServer({ apiKey: KEY })
  servers.push(server)
  const at = Date.now()
  const run = await runConformInProcess(['--base-url', server.baseUrl, '--rate-limit', '1', '--deadline', '3000'], { env: { CONFORM_API_KEY: KEY } })
  runs.push(run)
  expect(Date.now() - at).toBeLessThan(10_000)
  // cut before any rule failed: no verdict
  expect(run.code, run.stdout + run.stderr).toBe(2)
  expect(server.requests.length).toBeLessThanOrEqual(5)
  expect(run.stdout).toContain('--deadline')
}, RUN_TIMEOUT_MS)
