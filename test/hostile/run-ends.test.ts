/**
 * Every way a run can end (issue 18): it always ends by its deadline plus about a second, whatever
 * the server does and whatever the input, with an exit code that says how (0 pass, 1 fail, 2 no
 * verdict, 130/143 interrupted), its reports written and well-formed, never the key, never a
 * stack trace. Child runs: only a process shows its exit, its signals and its timing.
 */
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { DEFAULTS } from '../../lib/config/config.ts'
import { journalEntries, parseJournalLines } from '../../lib/http/journal.ts'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { runConform, type ConformRun, type RunOptions } from '../helpers/run-conform.ts'
import { RUN_TIMEOUT_MS, expectNoStackTrace } from './expect-run.ts'
import { neverAnswers, type HostileServer } from './hostile-servers.ts'
import { stallingFront, tricklesHead } from './stalling-servers.ts'

const KEY = 'run-ends-key-5d2a91c7'
const servers: (HostileServer | RunningServer)[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
})

let reference: Promise<RunningServer> | undefined
/** One conforming server for every case that needs one (each run's names carry its own prefix). */
const conforming = () => (reference ??= startReferenceServer({ apiKey: KEY }).then((server) => (servers.push(server), server)))

/** Resolves once `server` has received a request (looked at every 10 ms). */
function requestReached(server: { requests: readonly unknown[] }): Promise<void> {
  return new Promise((resolve) => {
    const look = setInterval(() => server.requests.length > 0 && (clearInterval(look), resolve()), 10)
  })
}

async function timed(args: string[], options: RunOptions = {}): Promise<{ run: ConformRun; ms: number }> {
  const started = performance.now()
  const run = await runConform(args, { env: { CONFORM_API_KEY: KEY }, killAfterMs: 60_000, ...options })
  runs.push(run)
  return { run, ms: performance.now() - started }
}

/** The four reports and the journal are there and parse, and results.json says what the exit code says; nothing shows the key. */
function expectReports(run: ConformRun, exitCode: number): void {
  expect(Object.keys(run.files).sort()).toEqual(['journal.ndjson', 'junit.xml', 'report.html', 'results.json', 'summary.md'])
  // the process's exit code, an interrupt's included: what results.json records is what the shell saw
  expect(run.results!.exitCode).toBe(exitCode)
  expect(run.files['junit.xml']).toMatch(/^<\?xml[\s\S]*<\/testsuites>\s*$/)
  expect(run.files['report.html']).toMatch(/<\/html>\s*$/)
  for (const text of [run.stdout, run.stderr, ...Object.values(run.files)]) expect(text).not.toContain(KEY)
  expectNoStackTrace(run)
}

describe.concurrent('a key that cannot be sent is refused before any request; one a secret file left a newline on is trimmed', { timeout: RUN_TIMEOUT_MS }, () => {
  const refused: [string, string, RegExp][] = [
    ['a tab inside', `${KEY.slice(0, 6)}\t${KEY.slice(6)}`, /CONFORM_API_KEY holds a control character \(U\+0009\) at position 7 of 22: a bearer key is visible ASCII/],
    ['a line break inside', `${KEY.slice(0, 6)}\n${KEY.slice(6)}`, /CONFORM_API_KEY holds a control character \(U\+000A\) at position 7/],
    ['characters outside Latin-1', `ключ-${KEY}`, /CONFORM_API_KEY holds a character outside Latin-1 at position 1 of 26/],
    ['whitespace only', ' \n', /CONFORM_API_KEY is empty \(only whitespace\)/],
    ['the header written out', `Bearer ${KEY}`, /CONFORM_API_KEY begins with "Bearer ": give the key alone/],
    // CONFORM_API_KEY="… in .env, its quote not closed: the key went out with it, and the run said only "the server refused the key"
    ['a quote left open', `"${KEY}`, /^conform: CONFORM_API_KEY begins with a quote mark \("\) that is not closed, which no bearer key holds \(RFC 6750 §2\.1\): quotes of a \.env line left in the value/],
    ['quotes kept (docker --env-file)', `'${KEY}'`, /^conform: CONFORM_API_KEY is wrapped in quotes \('…'\), which no bearer key holds/],
  ]
  for (const [what, key, says] of refused) {
    test(`${what}: exit 2 at once, one line that names the problem, not the key, and no request`, async () => {
      const server = await neverAnswers()
      servers.push(server)
      const { run, ms } = await timed(['--base-url', server.baseUrl], { env: { CONFORM_API_KEY: key } })
      expect(run.code, run.stderr).toBe(2)
      const lines = run.stderr.trimEnd().split('\n')
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(says)
      for (const text of [run.stdout, run.stderr, ...Object.values(run.files)]) {
        expect(text).not.toContain(KEY)
        if (key.trim()) expect(text).not.toContain(key.trim())
      }
      expect(server.connections()).toBe(0)
      expect(run.results!.exitCode).toBe(2)
      expectNoStackTrace(run)
      // about 0.1 s on an idle machine; the margin is for two busy cores
      expect(ms).toBeLessThan(10_000)
    })
  }

  test('a trailing newline (kubectl --from-file, Docker secrets): trimmed with a note, the run passes, the key is never shown', async () => {
    const server = await conforming()
    const { run } = await timed(['--base-url', server.baseUrl], { env: { CONFORM_API_KEY: `${KEY}\n` } })
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.stderr).toBe('conform: note: CONFORM_API_KEY ended in whitespace (as a secret file\'s trailing newline does); trimmed before sending\n')
    expectReports(run, 0)
  })
})

/** Deadline of the phase cases: short, and the bound the run must keep (deadline + about a second; half a second more for two busy cores). */
const DEADLINE = 3500
const DEADLINE_BOUND = DEADLINE + 1500

describe.concurrent('a fault in each phase of a run, with a short --deadline: exit 2 (or 1 once a rule failed) by the deadline plus a second, reports written', { timeout: RUN_TIMEOUT_MS }, () => {
  const phases: [string, (method: string, path: string, nth: number) => boolean][] = [
    ['the list first sent never answers', (method, path, nth) => method === 'GET' && path === '/v1/categories' && nth === 1],
    ['every create hangs', (method, path) => method === 'POST' && path === '/v1/categories'],
    ['the list after the creates (the whole-run invariants) never answers', (method, path, nth) => method === 'GET' && path === '/v1/categories' && nth >= 3],
    ['the pets and store operations never answer', (_method, path) => path.startsWith('/v1/pets') || path.startsWith('/v1/store')],
  ]
  for (const [phase, stalls] of phases) {
    test(`${phase} → ends by --deadline + 1 s, the unfinished checks not verified, the rest judged`, async () => {
      const front = await stallingFront((await conforming()).baseUrl.replace(/\/v1$/, ''), stalls)
      servers.push(front)
      const { run } = await timed(['--base-url', front.baseUrl, '--timeout', '60000', '--deadline', String(DEADLINE)])
      expect([1, 2], run.stdout + run.stderr).toContain(run.code)
      expectReports(run, run.code as number)
      // the process's own measure of the run: the child's start (vitest's loading) is not the run's to cut
      expect(run.results!.durationMs).toBeLessThan(DEADLINE_BOUND)
      expect(run.results!.problems).toEqual([{ kind: 'deadline', message: `the run did not finish within ${DEADLINE} ms (--deadline); checks that had not finished are not verified` }])
      const checks = run.results!.rules.flatMap((r) => r.checks)
      // on two busy cores vitest may not have collected the checks by the deadline: every rule is then not verified
      if (checks.length === 0) expect(run.results!.rules.every((r) => r.status === 'skip')).toBe(true)
      else expect(checks.filter((c) => c.status === 'skip').length).toBeGreaterThan(0)
      if (run.code === 2) {
        expect(run.results!.verdict).toBe('incomplete')
        expect(run.stdout).toContain('Verdict: INCOMPLETE (exit 2)')
      }
    })
  }

  test('a server that hangs every answer, --deadline 3000: exit 2 within 4 s of its start, reports written', async () => {
    const server = await neverAnswers()
    servers.push(server)
    const { run } = await timed(['--base-url', server.baseUrl, '--timeout', '60000', '--deadline', '3000'])
    expect(run.code, run.stdout + run.stderr).toBe(2)
    expectReports(run, 2)
    expect(run.results!.durationMs).toBeLessThan(4000)
    expect(run.stdout).toContain('Verdict: INCOMPLETE (exit 2)')
  })
})

describe.concurrent('a server that stalls, or dies mid-run', { timeout: RUN_TIMEOUT_MS }, () => {
  test('status line and headers a byte at a time: one --timeout per operation, not one per check; no verdict (slower than --timeout, or hung), its requests over within 2 × --timeout + 1 s of the first', async () => {
    const server = await tricklesHead()
    servers.push(server)
    const timeout = 1500
    const { run } = await timed(['--base-url', server.baseUrl, '--timeout', String(timeout)])
    // no answer came whole within --timeout: a server slower than that is no fault of a rule (lib/result/no-answer-in-time.ts)
    expect(run.code, run.stdout + run.stderr).toBe(2)
    expectReports(run, 2)
    expect(run.results!.problems[0]?.kind).toBe('no-answer-in-time')
    // the span of its requests in the journal, from the first written to the last ended: about
    // --timeout and BEHIND_MS (2.5 s, 2.6 s beside three busy loops); a timeout per check is a wave
    // of requests after another (8.7 s with the stalled operations' requests sent all the same).
    // The whole run's time also counts its start and its reports, which a loaded machine makes
    // slower: 5.1 s in all beside a full npm test, over the 5 s this test asked of it before
    const journal = run.files['journal.ndjson']!.trim().split('\n').map((line) => JSON.parse(line) as { phase: string; at: string })
    const at = (phase: string) => journal.flatMap((entry) => (entry.phase === phase ? [Date.parse(entry.at)] : []))
    expect(Math.max(...at('ended')) - Math.min(...at('on-wire'))).toBeLessThan(2 * timeout + 1000)
    const checks = run.results!.rules.flatMap((r) => r.checks)
    // the first request of an operation waits out its timeout; the rest of it are not sent
    expect(checks.some((c) => new RegExp(`^not verified: no response within ${timeout} ms, and (GET|POST) /categories( without the key)? answered no request of the run in time \\(slower than --timeout, or hung\\)$`).test(c.skipReason ?? ''))).toBe(true)
    expect(checks.some((c) => /^not verified: the server had answered no request when (GET|POST) \/\S+ got no answer within 1500 ms \(--timeout\), so this one was not sent$/.test(c.skipReason ?? ''))).toBe(true)
    expect(run.results!.summary.refused?.stalled).toBeGreaterThan(0)
    // fewer requests went out than the run declares (about 130): those in flight when the first
    // timeout fell, at most --concurrency of them (the key and its case-swapped form on their own
    // connection share one slot: lib/http/named-slots.ts); the stalled operations' other requests were kept back
    expect(server.requests.length).toBeLessThanOrEqual(DEFAULTS.concurrency)
  })

  test('the server is killed in the middle of the run: exit 2 (INCOMPLETE, server-gone), no rule failed for the refused connections after it, reports written', async () => {
    const upstream = await startReferenceServer({ apiKey: KEY })
    let front: HostileServer | undefined
    let killed = false
    front = await stallingFront(upstream.baseUrl.replace(/\/v1$/, ''), () => {
      if (!killed && front && front.requests.length >= 30) {
        killed = true
        void front.close()
        void upstream.close()
      }
      return killed
    })
    servers.push(front)
    const { run } = await timed(['--base-url', front.baseUrl, '--timeout', '3000'])
    expect(run.code, run.stdout + run.stderr).toBe(2)
    expectReports(run, 2)
    expect(killed).toBe(true)
    // the connections refused after it are no rule's fault (lib/result/server-gone.ts)
    expect(run.results!.problems[0]?.kind).toBe('server-gone')
    expect(run.results!.rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
  })
})

describe.concurrent('the user stops the run, or its reports cannot be written', { timeout: RUN_TIMEOUT_MS }, () => {
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    test(`${signal} while requests are in flight: reports written (verdict incomplete), then exit ${code}, within a few seconds`, async () => {
      const server = await neverAnswers()
      servers.push(server)
      // once the server holds a request: the first line comes before any, and a loaded machine's
      // start-up (npm test beside two busy loops) let the signal come before the checks began
      const { run, ms } = await timed(['--base-url', server.baseUrl, '--timeout', '60000', '--deadline', '60000'], { interrupt: { signal, when: requestReached(server) } })
      expect(run.code, run.stdout + run.stderr).toBe(code)
      expectReports(run, code)
      expect(run.results!.verdict).toBe('incomplete')
      expect(run.stdout).toContain(`Verdict: INCOMPLETE (exit ${code})`)
      expect(run.results!.problems).toEqual([{ kind: 'interrupted', message: `the run was interrupted (${signal}) before it finished; checks that had not finished are not verified` }])
      expect(run.stderr).toBe(`conform: ${signal}: stopping; the reports will say what ran (${signal} again: exit at once, without them)\n`)
      // what the user did, not the deadline, ended the requests in flight and kept the rest unsent:
      // each said "no response before the run's deadline (--deadline)", 60 s away
      const skipped = run.results!.rules.flatMap((r) => r.checks).filter((c) => c.status === 'skip')
      expect(skipped.some((c) => c.skipReason?.includes(`before the run was interrupted (${signal})`))).toBe(true)
      expect(skipped.filter((c) => c.skipReason?.includes('--deadline')).map((c) => c.skipReason)).toEqual([])
      expect(run.stdout).not.toContain('--deadline')
      expect(run.stdout).toContain('the run was interrupted before an answer that could be judged')
      expect(ms).toBeLessThan(20_000)
    })
  }

  test('killed (SIGKILL) while requests are in flight: no report, but journal.ndjson holds every request that went out', async () => {
    const server = await neverAnswers()
    servers.push(server)
    // killed 2 s after the server holds a request, not after a time from the start: 5 s, then 10 s,
    // was not long enough for a start-up on a machine as loaded as a full test run makes it (no
    // request had gone out). Not at once: a request's on-wire line is written after its head has
    // left, and a kill between the two leaves a request the server read marked as never sent
    const afterFirstRequest = requestReached(server).then(() => new Promise((resolve) => setTimeout(resolve, 2_000)))
    const { run } = await timed(['--base-url', server.baseUrl, '--timeout', '60000', '--deadline', '60000'], { interrupt: { signal: 'SIGKILL', when: afterFirstRequest } })
    expect(run.code).toBe(null)
    expect(run.results).toBeUndefined()
    const journal = journalEntries(parseJournalLines(run.files['journal.ndjson'] ?? ''))
    const sent = journal.filter((e) => e.onWire)
    expect(server.requests.length).toBeGreaterThan(0)
    // every request the server received is there, as sent with no end: what was on its way when the
    // process died (a line is written before its request: some may not have reached the server)
    expect(sent.length).toBeGreaterThanOrEqual(server.requests.length)
    expect(sent.every((e) => e.outcome === 'no-end-recorded')).toBe(true)
    expect(run.files['journal.ndjson']).not.toContain(KEY)
  })

  test('a report folder that cannot be written: exit 2 before any request, one line', async () => {
    const server = await neverAnswers()
    servers.push(server)
    const run0 = await timed(['--version'])
    const file = join(run0.run.reportDir, 'a-file')
    writeFileSync(file, '')
    const { run } = await timed(['--base-url', server.baseUrl, '--report-dir', join(file, 'reports')])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^conform: cannot write the reports to .*a-file\/reports: a file stands where a folder is needed; give a writable folder with --report-dir\n$/)
    expect(server.connections()).toBe(0)
    expectNoStackTrace(run)
  })

  // Node's recursive mkdir retries for ever under a pseudo file system (each mkdir answers ENOENT)
  test.skipIf(!existsSync('/proc/self'))('a report folder under /proc: exit 2 at once, one line, not a hang', async () => {
    const server = await neverAnswers()
    servers.push(server)
    const { run, ms } = await timed(['--base-url', server.baseUrl, '--report-dir', '/proc/conform-reports/here'])
    expect(run.code).toBe(2)
    expect(run.stderr).toBe('conform: cannot write the reports to /proc/conform-reports/here: no folder can be made there; give a writable folder with --report-dir\n')
    // a hang is killed at killAfterMs (code null); the start-up alone took 5.4 s in a full test run under load
    expect(ms).toBeLessThan(20_000)
    expect(server.connections()).toBe(0)
  })
})
