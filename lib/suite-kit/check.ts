/**
 * How suites/ declare their checks: a suite (one area of the interface) is a function that declares
 * checks, each proving one rule of the catalogue, as vitest's describe() and test() do. The runner
 * (lib/runner/check-runner.ts) collects a run's checks by calling the suites inside the run's scope,
 * then runs them (all at once, or one at a time): they await shared once() probes, so each request
 * goes out once however many checks judge it. A probe that compares the run's other requests (the
 * list after the run's POSTs) waits for what the selected checks declared (Gate): whole-run checks
 * do not rely on every check starting in the same tick. What was sent and created is not kept here: the HTTP client's
 * journal (lib/http/journal.ts) has every request.
 */
import type { HttpResult } from '../http/client.ts'
import { findRule, type Rule } from '../spec/rule-catalogue.ts'

export interface CheckTools {
  /** Awaits a probe and keeps its exchanges as evidence; throws (the check not verified, unfinished) once the run's deadline has come. */
  use<T extends HttpResult | HttpResult[]>(probe: () => Promise<T>): Promise<T>
  /** Keeps exchanges as the evidence of this check; throws (the check not verified, unfinished) once the run's deadline has come. */
  evidence(...results: HttpResult[]): void
  /** Advisory rules only: records a note instead of failing. */
  note(message: string): void
  /**
   * Throws (the check not verified, unfinished) once the run's deadline has come or the run has
   * ended (an interrupt): a check that resumes after it, on the answers it had, starts no long
   * work, which would hold the run past its end.
   */
  stillRunning(): void
}

/** A check as a suite declared it: its rule, what it sends and expects (Dredd style), and its body. */
export interface DeclaredCheck {
  rule: Rule
  name: string
  body: (tools: CheckTools) => Promise<void>
  /** Probes that must have ended before a gate opens, if this check is selected (CheckOptions.sentBefore). */
  sentBefore?: readonly GateInput[]
}

/** A probe a gate waits for. */
export interface GateInput {
  gate: Gate
  probe: () => Promise<unknown>
}

export interface CheckOptions {
  /**
   * Probes whose answers this check compares with what a gated probe reads (a refused POST, and the
   * list that must not show it): when the check is selected, the gate waits for them, whatever
   * order the run's checks then run in, all at once or one at a time.
   */
  sentBefore?: readonly GateInput[]
}

/**
 * What a probe that compares the run's other requests waits for (the list read after the run's
 * POSTs): the probes of the selected checks that declared it (check(…, { sentBefore })). The
 * runner opens the declarations once it has selected the checks (lib/runner/check-runner.ts),
 * before any check starts; `passed()` then starts and awaits each of them (a once() probe is sent
 * once, whoever asks first). Nothing is awaited for a check the run does not run.
 */
export class Gate {
  private readonly awaited = new Set<() => Promise<unknown>>()

  /** Called by the runner for each selected check that declared the gate. */
  waitFor(probe: () => Promise<unknown>): void {
    this.awaited.add(probe)
  }

  /** Settles when every probe the selected checks declared has settled; each one's outcome, in declaration order. */
  passed(): Promise<PromiseSettledResult<unknown>[]> {
    return Promise.allSettled([...this.awaited].map((probe) => probe()))
  }
}

/** One area of the interface: `declare` declares its checks with check() when the runner collects a run. */
export interface Suite {
  name: string
  declare: () => void
}

export function suite(name: string, declare: () => void): Suite {
  return { name, declare }
}

let collecting: DeclaredCheck[] | undefined

/**
 * Every check the suites declare, in declaration order. Synchronous, so that no other run's
 * collection can interleave; call it inside the run's scope (lib/suite-kit/run-context.ts).
 */
export function collectChecks(suites: readonly Suite[]): DeclaredCheck[] {
  if (collecting) throw new Error('collectChecks() called while a collection is under way')
  const declared: DeclaredCheck[] = []
  collecting = declared
  try {
    for (const s of suites) s.declare()
  } finally {
    collecting = undefined
  }
  return declared
}

/** Declares a check of rule `ruleId`; `name` says what it sends and expects, Dredd style. */
export function check(ruleId: string, name: string, body: (tools: CheckTools) => Promise<void>, options: CheckOptions = {}): void {
  const rule = findRule(ruleId)
  if (!rule) throw new Error(`check "${name}" names rule ${ruleId}, which spec/rules.yaml does not have`)
  if (!collecting) throw new Error(`check "${name}" is declared outside a suite: declare checks inside suite(name, () => { … })`)
  collecting.push({ rule, name, body, ...(options.sentBefore ? { sentBefore: options.sentBefore } : {}) })
}

/** A probe runs its requests once, however many checks await it. */
export function once<T>(run: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined
  return () => {
    if (!promise) {
      promise = run()
      // every caller awaits it and sees the rejection; none is left unhandled by the probe itself
      promise.catch(() => undefined)
    }
    return promise
  }
}
