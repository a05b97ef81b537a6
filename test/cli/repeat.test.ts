/**
 * --repeat N (lib/runner/repeat-rounds.ts): the reads and the create-then-list round trip N times
 * over fresh connections; every rule says in how many rounds it failed; an explicit --max-writes
 * too small for the rounds is refused before any request.
 */
import { randomBytes } from 'node:crypto'
import { expect, test } from 'vitest'
import { startReferenceServer, type StoredCategory } from '../../lib/server/reference-server.ts'
import { runConformInProcess, runsWithKey } from '../helpers/run-conform.ts'
import { samplingLine } from '../../lib/result/sampling-line.ts'
import type { RunResult } from '../../lib/result/run-result.ts'

const apiKey = `key-${randomBytes(12).toString('hex')}`
const { serve, conform } = runsWithKey(apiKey)

test('--repeat 10, one list in eleven from a replica on old code (descriptions dropped): exit 1, and the rule it breaks failed in 1 to 9 of 10 rounds', async () => {
  // one in eleven: a round reads the list three times after its create (once more, and as the first list asked), all judged, and one in seven met a judged read in every round
  let lists = 0
  const server = await startReferenceServer({ apiKey, behaviour: { listBody: (store: StoredCategory[]) => (++lists % 11 === 0 ? store.map(({ description: _d, ...r }) => r) : store) } })
  serve(server)
  const run = await conform(server, '--repeat', '10')
  expect(run.code, run.stdout).toBe(1)
  const rule = run.results?.rules.find((r) => r.id === 'created-in-list')
  expect(rule?.status).toBe('fail')
  expect(rule?.samples?.runs).toBe(10)
  expect(rule?.samples?.failed).toBeGreaterThanOrEqual(1)
  expect(rule?.samples?.failed).toBeLessThanOrEqual(9)
  for (const r of run.results?.rules ?? []) expect(r.samples?.runs ?? 0, r.id).toBeLessThanOrEqual(10)
  expect(run.stdout).toMatch(/--repeat 10: rules sampled in up to 10 rounds over fresh connections; .*: \d+ rules? sampled 10 times: 0\.9\^10 = 34\.9 %/)
  expect(run.files['summary.md']).toContain('0.9^')
  // one create a round after the first: the write budget covers every round by default
  expect(run.results?.journal?.filter((e) => e.outcome === 'refused' && e.reason === 'write-budget')).toEqual([])
})

test('the sampling line gives the chance for each count of samples, the rules sampled in every round first, and says "once", never "1 times"', () => {
  const rule = (id: string, runs: number, failed = 0) => ({ id, samples: { runs, failed } })
  const result = { options: { repeat: 10 }, rules: [rule('a', 10), rule('b', 10, 3), rule('c', 1), rule('d', 2)] } as unknown as RunResult
  expect(samplingLine(result)).toBe(
    '--repeat 10: rules sampled in up to 10 rounds over fresh connections; a replica wrong on one request in ten goes unnoticed by a rule with probability 0.9^(times sampled): ' +
      '2 rules sampled 10 times: 0.9^10 = 34.9 %; 1 rule sampled twice: 0.9^2 = 81.0 %; 1 rule sampled once: 0.9^1 = 90.0 %; failed in some rounds only: b (3 of 10)',
  )
})

test('--repeat with an explicit --max-writes too small for its rounds: exit 2 before any request, saying what a round costs', async () => {
  const server = await startReferenceServer({ apiKey })
  serve(server)
  const run = await conform(server, '--repeat', '5', '--max-writes', '20')
  expect(run.code).toBe(2)
  expect(run.stderr).toMatch(/--max-writes 20 is too small for --repeat 5: the first round sends up to \d+ POSTs, and each further round 1 \(a create, then the list\): \d+ in all/)
  // a production engineer who wanted few records is told how to get them, not only to allow more
  expect(run.stderr).toContain('--repeat with --read-only reads in every round and writes nothing, and --max-writes alone (without --repeat) bounds the records')
  expect(server.requests).toEqual([])
})

test('--repeat with CONFORM_MAX_WRITES too small: the refusal names that setting, not a --max-writes nobody typed', async () => {
  const server = await startReferenceServer({ apiKey })
  serve(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl, '--repeat', '5'], { env: { CONFORM_API_KEY: apiKey, CONFORM_MAX_WRITES: '20' } })
  run.cleanup()
  expect(run.code).toBe(2)
  expect(run.stderr).toMatch(/CONFORM_MAX_WRITES=20 in the environment is too small for --repeat 5: .*: \d+ in all\. Raise it to \d+, or take it out there/)
  expect(run.stderr).not.toContain('--max-writes 20')
  expect(server.requests).toEqual([])
})

test('--repeat 3 against the reference server: exit 0, every rule sampled, none failed', async () => {
  const server = await startReferenceServer({ apiKey })
  serve(server)
  const run = await conform(server, '--repeat', '3')
  expect(run.code, run.stdout).toBe(0)
  expect(run.results?.rules.filter((r) => r.samples?.failed)).toEqual([])
  expect(run.results?.rules.find((r) => r.id === 'list-returns-200')?.samples).toEqual({ runs: 3, failed: 0 })
  // the first line counts the further rounds' creates: it said "creating at most 23 records", and the server stored 25
  const [, promised, creating] = /^Writes: at most \d+ POSTs, 1 in each further round \(--repeat 3\), .*?: (\d+) in all, creating at most (\d+) records/m.exec(run.stdout) ?? []
  expect(server.requests.filter((r) => r.method === 'POST').length).toBeLessThanOrEqual(Number(promised))
  expect(server.store.length).toBe(Number(creating))
})
