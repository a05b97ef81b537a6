/**
 * No verdict, grouping or exit code depends on the words of a message: a check's skip carries a
 * cause (lib/checks/skip-causes.ts), a run's problem a kind (lib/result/run-problems.ts), and the
 * words beside them are for people. Real runs of four kinds (a broken server with a write budget,
 * a read-only run, a refused key, a rate limit that outlasts the deadline) have every message of
 * their outcomes rewritten, reversed and wrapped, and are judged again by the same resultOf() a run
 * uses: statuses, causes, kinds, the groups the reports show and the exit code stay as they were.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { headline, notVerifiedByReason, partlyVerified } from '../../lib/reporters/wording.ts'
import type { RunProblem } from '../../lib/result/run-problems.ts'
import { resultOf, type CheckResult, type RunFacts, type RunResult } from '../../lib/result/run-result.ts'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { findCase, startCase } from '../../lib/server/server-cases.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { TRANSPORT_VARIANTS } from '../../lib/server/variants/transport.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'

const KEY = 'outcome-words-key-0123456789'

/** Problems resultOf() adds itself (from the checks, the catalogue, the kept-back requests): given back as facts, not as problems. */
const DERIVED = new Set<RunProblem['kind']>(['stray-answer', 'key-refused', 'no-check-for-rule', 'outlasted', 'stalled'])

/** The checks by rule and the facts a run's result was built from, read back from its results.json. */
function inputsOf(result: RunResult): { byRule: Map<string, CheckResult[]>; facts: RunFacts } {
  const keptBack = result.problems.filter((p) => p.kind === 'outlasted' || p.kind === 'stalled')
  return {
    byRule: new Map(result.rules.map((rule) => [rule.id, rule.checks])),
    facts: {
      tool: result.tool,
      runId: result.runId,
      baseUrl: result.baseUrl,
      embeddedServer: result.embeddedServer,
      startedAt: new Date(result.startedAt),
      durationMs: result.durationMs,
      options: result.options,
      journal: result.journal ?? [],
      problems: result.problems.filter((p) => !DERIVED.has(p.kind)),
      ...(keptBack.length > 0 ? { keptBack } : {}),
      cutShort: result.problems.some((p) => p.kind === 'deadline' || p.kind === 'interrupted'),
    },
  }
}

/** Every string a person reads in an outcome, reversed and wrapped: no prefix, no phrase of it survives. */
const WORDS = new Set(['message', 'skipReason', 'reason', 'detail', 'expected', 'actual', 'notes'])
function reworded<T>(value: T, inWords = false): T {
  if (typeof value === 'string') return (inWords ? `«${[...value].reverse().join('')}»` : value) as T
  if (Array.isArray(value)) return value.map((v) => reworded(v, inWords)) as T
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reworded(v, inWords || WORDS.has(k))])) as T
  }
  return value
}

/** What a rewording must leave as it is: every decision, and how the reports group. */
function decisions(result: RunResult) {
  return {
    verdict: result.verdict,
    exitCode: result.exitCode,
    headline: headline(result),
    rules: result.rules.map((r) => ({ id: r.id, status: r.status, checks: r.checks.map((c) => `${c.status} ${c.cause ?? ''}`) })),
    problems: result.problems.map((p) => p.kind),
    notVerified: result.notVerified.map((n) => `${n.id} ${n.cause}`),
    groups: notVerifiedByReason(result).map((g) => ({ cause: g.cause, words: g.reason, rules: g.rules.map((r) => r.id) })),
    partly: partlyVerified(result).map((p) => ({ rule: p.rule.id, skipped: p.skipped, reasons: p.reasons })),
  }
}

const servers: RunningServer[] = []
const runs: ConformRun[] = []
const outcomes = new Map<string, ConformRun>()

beforeAll(async () => {
  const broken = MUTATIONS.find((m) => m.name === 'error-status-always-400')!
  const limited = findCase(TRANSPORT_VARIANTS, 'rate-limited-10-per-second')!
  const start = async (name: string, server: Promise<RunningServer>, args: string[], key = KEY) => {
    const running = await server
    servers.push(running)
    const run = await runConformInProcess(['--base-url', running.baseUrl, '--seed', '1', ...args], { env: { CONFORM_API_KEY: key } })
    runs.push(run)
    outcomes.set(name, run)
  }
  await Promise.all([
    start('a broken server, within a write budget', startCase(broken, { apiKey: KEY }), ['--max-writes', '4']),
    start('a read-only run', startReferenceServer({ apiKey: KEY }), ['--read-only']),
    start('a refused key', startReferenceServer({ apiKey: KEY }), [], 'not-the-key-0123456789'),
    start('a rate limit that outlasts the deadline', startCase(limited, { apiKey: KEY }), ['--deadline', '2500']),
  ])
}, 60_000)

afterAll(async () => {
  for (const run of runs) run.cleanup()
  await Promise.all(servers.map((s) => s.close()))
})

describe('rewording every message changes no status, cause, kind, group or exit code', () => {
  for (const name of ['a broken server, within a write budget', 'a read-only run', 'a refused key', 'a rate limit that outlasts the deadline']) {
    test(name, () => {
      const run = outcomes.get(name)!
      const result = run.results!
      const { byRule, facts } = inputsOf(result)
      const again = resultOf(byRule, facts, result.options.rules)
      // read back faithfully: the same inputs give the run's own result
      expect(decisions(again)).toEqual(decisions(result))
      expect(again.exitCode).toBe(run.code)

      const words = resultOf(new Map([...byRule].map(([id, checks]) => [id, reworded(checks)])), reworded(facts), result.options.rules)
      expect(decisions(words)).toEqual(decisions(result))
      // and the words did change: every skip reason and problem reads differently now
      const skipped = words.rules.flatMap((r) => r.checks).filter((c) => c.status === 'skip')
      for (const check of skipped) expect(check.skipReason).toMatch(/^«.*»$/)
      for (const problem of words.problems.filter((p) => !DERIVED.has(p.kind))) expect(problem.message).toMatch(/^«.*»$/)
    })
  }

  test('each kind of run shows what it is there for', () => {
    const decided = (name: string) => decisions(outcomes.get(name)!.results!)
    const budget = decided('a broken server, within a write budget')
    expect([budget.verdict, budget.exitCode]).toEqual(['fail', 1])
    expect(budget.rules.flatMap((r) => r.checks)).toContain('skip write-budget')
    const readOnly = decided('a read-only run')
    expect([readOnly.verdict, readOnly.exitCode]).toEqual(['pass', 0])
    expect(readOnly.groups.map((g) => g.cause)).toContain('read-only')
    const refused = decided('a refused key')
    expect([refused.verdict, refused.exitCode, refused.problems[0]]).toEqual(['incomplete', 2, 'key-refused'])
    const limited = decided('a rate limit that outlasts the deadline')
    expect([limited.verdict, limited.exitCode]).toEqual(['incomplete', 2])
    expect(limited.problems.some((kind) => kind === 'outlasted' || kind === 'deadline')).toBe(true)
  })

  test('results.json carries a cause on every skipped check and a kind on every problem', () => {
    for (const run of outcomes.values()) {
      const result = run.results!
      for (const check of result.rules.flatMap((r) => r.checks).filter((c) => c.status === 'skip')) expect(check.cause, check.name).toMatch(/^[a-z]+(-[a-z]+)*$/)
      for (const problem of result.problems) expect(problem.kind).toMatch(/^[a-z]+(-[a-z]+)*$/)
    }
  })
})
