/**
 * How suites/ declare a check: one vitest test that proves one rule of the catalogue. The rule id
 * is in the test's name and meta (reporters group by it); the exchanges behind the verdict and any
 * advisory note travel to the reporters in the meta as well. What was sent and created is not
 * kept here: the HTTP client's journal (lib/http/journal.ts) has every request.
 */
import { test } from 'vitest'
import { ConformanceFailure, NotApplicable, type FailureDetail } from '../checks/failure.ts'
import type { Exchange } from '../http/exchange.ts'
import type { HttpResult } from '../http/client.ts'
import { findRule } from '../spec/rule-catalogue.ts'

/** A record the run created, as the answer to its POST said, read from the journal (lib/http/journal.ts). */
export interface LedgerEntry {
  id: string
  name: string
  /** The answer's status (2xx). */
  status: number
  exchangeId: string
  /** The body sent, redacted. */
  body?: string
}

export interface CheckMeta {
  ruleId: string
  exchanges: Exchange[]
  notes: string[]
  failure?: FailureDetail
  skipReason?: string
}

declare module 'vitest' {
  interface TaskMeta {
    conform?: CheckMeta
  }
}

export interface CheckTools {
  /** Awaits a probe and keeps its exchanges as evidence. */
  use<T extends HttpResult | HttpResult[]>(probe: () => Promise<T>): Promise<T>
  /** Keeps exchanges as the evidence of this check. */
  evidence(...results: HttpResult[]): void
  /** Advisory rules only: records a note instead of failing. */
  note(message: string): void
}

/** Registers a check of rule `ruleId`; `name` says what it sends and expects, Dredd style. */
export function check(ruleId: string, name: string, body: (tools: CheckTools) => Promise<void>): void {
  const rule = findRule(ruleId)
  if (!rule) throw new Error(`check "${name}" names rule ${ruleId}, which spec/rules.yaml does not have`)
  test.concurrent(`${name} [${ruleId}]`, async ({ task, skip }) => {
    const meta: CheckMeta = { ruleId, exchanges: [], notes: [] }
    task.meta.conform = meta
    const seen = new Set<string>()
    const keep = (exchange: Exchange) => {
      if (seen.has(exchange.id)) return
      seen.add(exchange.id)
      meta.exchanges.push(exchange)
    }
    const tools: CheckTools = {
      use: async (probe) => {
        const result = await probe()
        for (const r of Array.isArray(result) ? result : [result]) keep(r.exchange)
        return result
      },
      evidence: (...results) => results.forEach((r) => keep(r.exchange)),
      note: (message) => {
        if (rule.level !== 'advisory') throw new Error(`note() is for advisory rules; ${ruleId} is ${rule.level}`)
        meta.notes.push(message)
      },
    }
    try {
      await body(tools)
    } catch (error) {
      if (error instanceof NotApplicable) {
        meta.skipReason = error.reason
        skip(error.reason)
        return
      }
      if (error instanceof ConformanceFailure) {
        error.exchanges.forEach(keep)
        meta.failure = error.detail()
        throw new Error(`${error.message}\n  expected: ${error.expected}\n  actual:   ${error.actual}`)
      }
      throw error
    }
  })
}

/** A probe runs its requests once, however many checks await it. */
export function once<T>(run: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined
  return () => (promise ??= run())
}
