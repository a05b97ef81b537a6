/**
 * The adapter from vitest to the result model: each finished test of suites/ becomes a check of its
 * rule (the rule id is in its meta and its name), with its status, failure, notes and evidence.
 */
import type { TestCase, TestModule } from 'vitest/node'
import type { FailureDetail } from '../checks/failure.ts'
import { toCurl } from '../http/curl.ts'
import { resultOf, type CheckResult, type RunFacts, type RunResult, type Status } from '../result/run-result.ts'
import type { CheckMeta } from '../suite-kit/check.ts'

const UNFINISHED = "not verified: the check had not finished when the run was cut short (--deadline, or a signal)"
const stripRuleSuffix = (name: string) => name.replace(/ \[[a-z0-9-]+\]$/, '')

function checkOf(test: TestCase, cutShort: boolean): { ruleId: string | undefined; check: CheckResult } {
  const meta = test.meta().conform as CheckMeta | undefined
  const result = test.result()
  const exchanges = meta?.exchanges ?? []
  // a check that neither finished nor said why it does not apply was stopped by the deadline (vitest's
  // own limit, testTimeout, is the deadline too: a check it failed has no failure of the suite's)
  const unfinished =
    cutShort &&
    (result.state === 'pending' || (result.state === 'skipped' && meta?.skipReason === undefined) || (result.state === 'failed' && meta?.failure === undefined))
  let status: Status
  if (result.state === 'failed' && !unfinished) status = 'fail'
  else if (result.state === 'skipped' || result.state === 'pending') status = 'skip'
  else status = meta?.notes.length ? 'warn' : 'pass'
  const failure: FailureDetail | undefined =
    meta?.failure ??
    (result.state === 'failed' && !unfinished
      ? { code: 'CHECK_ERROR', message: result.errors?.[0]?.message?.split('\n')[0] ?? 'failed', expected: '-', actual: result.errors?.[0]?.message ?? '' }
      : undefined)
  const skipReason =
    status !== 'skip' ? undefined : unfinished ? UNFINISHED : (meta?.skipReason ?? (result.state === 'skipped' ? result.note : undefined) ?? 'not run')
  return {
    ruleId: meta?.ruleId ?? /\[([a-z0-9-]+)\]$/.exec(test.name)?.[1],
    check: {
      name: stripRuleSuffix(test.name),
      status,
      durationMs: Math.round(test.diagnostic()?.duration ?? 0),
      ...(failure ? { failure } : {}),
      notes: meta?.notes ?? [],
      ...(skipReason ? { skipReason } : {}),
      reproduce: status === 'fail' ? exchanges.map((e) => toCurl(e.request)) : [],
      exchanges,
    },
  }
}

/** The run's result from vitest's test modules; `selected` is --rule (empty: every rule). */
export function buildRunResult(modules: readonly TestModule[], facts: RunFacts, selected: readonly string[]): RunResult {
  const byRule = new Map<string, CheckResult[]>()
  const problems = [...facts.problems]
  for (const module of modules) {
    for (const error of module.errors()) problems.push(`${module.moduleId}: ${error.message}`)
    for (const test of module.children.allTests()) {
      const { ruleId, check } = checkOf(test, facts.cutShort ?? false)
      if (!ruleId) continue
      if (selected.length > 0 && !selected.includes(ruleId)) continue
      byRule.set(ruleId, [...(byRule.get(ruleId) ?? []), check])
    }
  }
  return resultOf(byRule, { ...facts, problems }, selected)
}
