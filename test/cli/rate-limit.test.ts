/**
 * --rate-limit N: the requests of a run start at most N a second, and the run still verifies
 * every rule. Read off the journal of the run (when each request started) against a reference
 * server that counts what it receives.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, expect, test, vi } from 'vitest'
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
  expect(run.stdout).toContain(`Sent: ${sent} of the plan and 2 more for each failed POST to confirm it (--confirm 2), answered `)
  expect(run.stdout).toContain(`; ${pace}`)
  expect(run.files['summary.md']).toContain(`Pacing: ${pace.replace(/[()]/g, (c) => `\\${c}`)}.`)
  expect(run.files['report.html']).toContain(`<dt>Pacing</dt><dd>${pace}</dd>`)
  // when each request started, as the journal of results.json has it
  const starts = run.results!.journal!.map((entry) => Date.parse(entry.at))
  expect(starts.length).toBe(server.requests.length)
  // a turn every 25 ms: the two ends of one second's closed interval can both hold a start
  expect(busiestSecond(starts)).toBeLessThanOrEqual(RATE + 1)
  expect(Math.max(...starts) - Math.min(...starts)).toBeGreaterThanOrEqual(((starts.length - 1) * 1000) / RATE - 50)
}, RUN_TIMEOUT_MS)

// on a fake clock (Date and setTimeout): the turns are the pacer's own, whatever the load of the
// machine does to the test's callbacks (turns 56 ms apart against 95 under a load of 18, measured by the wall clock)
test('the pacer gives turns 1000 / N ms apart, in the order asked, without a burst after a pause, and none without a rate', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] })
  try {
    const pacer = new Pacer(20)
    const started = Date.now()
    const given: number[] = []
    const turns = Array.from({ length: 5 }, (_, i) => pacer.turn().then(() => (given[i] = Date.now() - started)))
    await vi.runAllTimersAsync()
    await Promise.all(turns)
    expect(given).toEqual([0, 50, 100, 150, 200])
    // the event loop held for 300 ms while 3 turns wait (the clock moves on, no timer fires): they come 50 ms apart afterwards, not at once
    const after: number[] = []
    const waiting = Array.from({ length: 3 }, (_, i) => pacer.turn().then(() => (after[i] = Date.now())))
    await Promise.resolve()
    vi.setSystemTime(Date.now() + 300)
    await vi.runAllTimersAsync()
    await Promise.all(waiting)
    expect([after[1]! - after[0]!, after[2]! - after[1]!]).toEqual([50, 50])
    const free = new Pacer(undefined)
    const at = Date.now()
    await Promise.all(Array.from({ length: 100 }, () => free.turn()))
    expect(Date.now() - at).toBe(0)
    expect(vi.getTimerCount()).toBe(0)
  } finally {
    vi.useRealTimers()
  }
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
