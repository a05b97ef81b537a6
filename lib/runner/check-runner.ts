/**
 * Runs a run's checks: collected from the suites inside the run's scope, then all at once (they
 * await shared once() probes, so the requests go out as soon as a check needs them and a slow
 * server costs about its critical path; the HTTP client bounds how many are in flight). Each check
 * ends as a CheckResult of the result model: passed, failed with the suite's failure (or
 * CHECK_ERROR for an error of the suite itself), a note of an advisory rule, or not applicable.
 * A conformance run needs no more of a test runner than this; lib/runner/conform-run.ts says why
 * it does not go through vitest's (measured in docs/performance.md).
 */
import { ConformanceFailure, NotApplicable, type FailureDetail } from '../checks/failure.ts'
import type { Exchange } from '../http/exchange.ts'
import { toCurl } from '../http/curl.ts'
import type { CheckResult } from '../result/run-result.ts'
import { collectChecks, type CheckTools, type DeclaredCheck, type Suite } from '../suite-kit/check.ts'
import { currentRunClock, within, type RunScope } from '../suite-kit/run-context.ts'

const UNFINISHED = 'not verified: the check had not finished when the run was cut short (--deadline, or a signal)'

/** A check's result with the rule it proves. */
export interface CheckOutcome {
  ruleId: string
  result: CheckResult
}

/** A run's checks under way: `outcomes()` is, at any moment, each finished check's result and each unfinished one's as not verified. */
export interface RunningChecks {
  /** Settles when every check has finished. */
  done: Promise<void>
  outcomes(): CheckOutcome[]
}

/**
 * The checks of the suites, those of the selected rules only (empty: every rule), started in
 * `scope`: all at once (a run), or one after another in declaration order (`oneAtATime`, as a test
 * runner such as vitest runs them by default; the whole-run checks must give the same verdicts).
 */
export function startChecks(suites: readonly Suite[], scope: RunScope, selected: readonly string[], options: { oneAtATime?: boolean } = {}): RunningChecks {
  const declared = within(scope, () => collectChecks(suites)).filter((c) => selected.length === 0 || selected.includes(c.rule.id))
  // what the selected checks declared a gated probe must wait for, known before any check starts
  for (const c of declared) for (const { gate, probe } of c.sentBefore ?? []) gate.waitFor(probe)
  const finished: (CheckResult | undefined)[] = declared.map(() => undefined)
  const evidence: Exchange[][] = declared.map(() => [])
  const run = (i: number) =>
    within(scope, () => runCheck(declared[i], evidence[i])).then((result) => {
      finished[i] = result
    })
  const done = options.oneAtATime
    ? declared.reduce<Promise<void>>((previous, _c, i) => previous.then(() => run(i)), Promise.resolve())
    : Promise.all(declared.map((_c, i) => run(i))).then(() => undefined)
  return {
    done,
    outcomes: () =>
      declared.map((c, i) => ({
        ruleId: c.rule.id,
        result: finished[i] ?? { name: c.name, status: 'skip', durationMs: 0, notes: [], cause: 'unfinished', skipReason: UNFINISHED, reproduce: [], exchanges: evidence[i] },
      })),
  }
}

/** Runs one check to its result, inside its run's scope; `kept` collects its evidence as it comes (an unfinished check shows what it had). */
export async function runCheck(declared: DeclaredCheck, kept: Exchange[]): Promise<CheckResult> {
  const started = performance.now()
  // by the clock: the deadline's timer waits for whatever runs when it falls, and every check a
  // probe's answer resumes runs before it (a list of 1,000,000 records held a run 10 s past its
  // deadline, measured). An interrupt is no deadline: the checks it cut judge their answers as
  // interrupted, which costs nothing, and the long loops ask stillRunning(), which it ends too
  const clock = currentRunClock()
  const pastDeadline = () => {
    if (clock !== undefined && clock.msLeft() <= 0) throw new NotApplicable(UNFINISHED, 'unfinished')
  }
  const stillRunning = () => {
    if (clock?.signal.aborted) throw new NotApplicable(UNFINISHED, 'unfinished')
    pastDeadline()
  }
  const notes: string[] = []
  const seen = new Set<string>()
  const keep = (exchange: Exchange) => {
    if (seen.has(exchange.id)) return
    seen.add(exchange.id)
    kept.push(exchange)
  }
  const tools: CheckTools = {
    use: async (probe) => {
      const result = await probe()
      for (const r of Array.isArray(result) ? result : [result]) keep(r.exchange)
      pastDeadline()
      return result
    },
    evidence: (...results) => {
      results.forEach((r) => keep(r.exchange))
      pastDeadline()
    },
    note: (message) => {
      if (declared.rule.level !== 'advisory') throw new Error(`note() is for advisory rules; ${declared.rule.id} is ${declared.rule.level}`)
      notes.push(message)
    },
    stillRunning,
  }
  const ended = (fields: Pick<CheckResult, 'status'> & Partial<CheckResult>): CheckResult => ({
    name: declared.name,
    durationMs: Math.round(performance.now() - started),
    notes,
    reproduce: fields.status === 'fail' ? kept.map((e) => toCurl(e.request)) : [],
    exchanges: kept,
    ...fields,
  })
  try {
    await declared.body(tools)
    return ended({ status: notes.length > 0 ? 'warn' : 'pass' })
  } catch (error) {
    if (error instanceof NotApplicable) return ended({ status: 'skip', cause: error.skipCause, skipReason: error.reason })
    if (error instanceof ConformanceFailure) {
      // the failure's exchanges last, in its order: the last is the one the check judged, which
      // the reports repeat ("Reproduce"), not a comparison or the list the check read after it
      for (const exchange of error.exchanges) {
        if (seen.has(exchange.id)) kept.splice(kept.findIndex((e) => e.id === exchange.id), 1)
        seen.add(exchange.id)
        kept.push(exchange)
      }
      return ended({ status: 'fail', failure: error.detail() })
    }
    // an error of the suite itself, not a verdict on the service: shown as such, never hidden
    const message = error instanceof Error ? error.message : String(error)
    const failure: FailureDetail = { code: 'CHECK_ERROR', message: message.split('\n')[0] ?? 'failed', expected: '-', actual: message }
    return ended({ status: 'fail', failure })
  }
}
