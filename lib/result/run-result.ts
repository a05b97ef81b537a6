/**
 * The run's result, grouped by rule: the model every reporter writes (results.json, JUnit,
 * report.html, summary.md, terminal). lib/runner/run-reports.ts builds it from the outcomes of a
 * run's checks; tests build it from tables of checks with the same function, resultOf().
 */
import type { ClientTls } from '../config/client-tls.ts'
import type { WritesFrom } from '../config/write-settings.ts'
import { writesAgain } from './writes-again.ts'
import { keyRefused, withoutChecksOfTheRefusedKey } from './key-refused.ts'
import { frontAnswered, withoutChecksOfTheFront } from './front-answered.ts'
import { keyRevoked, withoutRevokedFailures } from './key-revoked.ts'
import { serverGone, withoutFailuresOfTheGoneServer } from './server-gone.ts'
import { withoutFailuresOfPlainHttp } from './speaks-tls.ts'
import { A_WEB_PAGE, misdirected, withoutChecksOfTheMisdirectedRun } from './misdirected.ts'
import { responseCapProblem, withoutFailuresOfTheCap } from './response-cap.ts'
import { noAnswerInTimeProblem, slowOperations, withoutFailuresOfTheTimeout } from './no-answer-in-time.ts'
import { withoutSuiteErrors } from './suite-errors.ts'
import { answersInDoubt, strayAnswersProblem, withoutFailuresOfStrayAnswers } from './stray-answers.ts'
import type { Samples } from './samples.ts'
import { ENDS_WITHOUT_VERDICT, type RunProblem } from './run-problems.ts'
import { reportedSkip, type SkipCause } from '../checks/skip-causes.ts'
import { observedBehaviour, type ObservedBehaviour } from './observed-behaviour.ts'
import type { FailureDetail } from '../checks/failure.ts'
import type { Exchange } from '../http/exchange.ts'
import { journalTotals, type JournalEntry, type JournalTotals } from '../http/journal.ts'
import { runLedger, type LedgerEntry, type ListsRead } from './ledger-from-list.ts'
import { ruleCatalogue, type Rule } from '../spec/rule-catalogue.ts'
import type { BaselineOutcome } from './baseline-outcome.ts'
export type { BaselineOutcome }
export type { LedgerEntry } from './ledger-from-list.ts'

export type Status = 'pass' | 'fail' | 'skip' | 'warn'

export interface CheckResult {
  name: string
  status: Status
  durationMs: number
  failure?: FailureDetail
  notes: string[]
  /** A skipped check: why, from the closed set of lib/checks/skip-causes.ts (what reports group by). */
  cause?: SkipCause
  /** A skipped check: why, in words (for people; nothing is decided on it). */
  skipReason?: string
  /** curl commands that repeat the exchanges of a failed check, key as $CONFORM_API_KEY. */
  reproduce: string[]
  exchanges: Exchange[]
  /** A failure the baseline names (--baseline): its reason. The check is then a note (warn), not a failure. */
  known?: string
  /** A failure none excuses: what the baseline holds near it (an expired entry, another code …: lib/result/baseline.ts). */
  baselineNote?: string
  /** A failed check, probed again (--confirm): how often it failed (lib/runner/confirmation.ts). */
  recurrence?: Recurrence
}

/** deterministic: every attempt failed; intermittent: some passed; unconfirmed: no second attempt could be made (the write budget, --read-only, the deadline, --confirm 0, or its operation stalled past --timeout: `cause` says which skipped its re-probe). */
export interface Recurrence {
  attempts: number
  failures: number
  kind: 'deterministic' | 'intermittent' | 'unconfirmed'
  cause?: SkipCause
}

export interface RuleResult extends Rule {
  status: Status
  checks: CheckResult[]
  /** --repeat N: in how many rounds the rule ran and failed (lib/result/samples.ts). */
  samples?: Samples
}

/** The exit codes of a run a signal interrupted (lib/cli/conform.ts INTERRUPT_EXIT): 128 + the signal's number. */
export type InterruptExit = 130 | 143

export interface RunResult {
  tool: { name: string; version: string }
  runId: string
  /** The W3C trace id every request of the run carried in its traceparent (absent in runs that could not be made). */
  traceId?: string
  baseUrl: string
  embeddedServer: boolean
  startedAt: string
  durationMs: number
  /** `seed`: of the generated inputs (--seed repeats them). rateLimit: --rate-limit, when given (requests a second); concurrency: --concurrency (requests in flight at most). */
  /** maxWritesGiven: --max-writes was given (maxWrites is then the bound of every POST, else of the plan's, confirmation adding --confirm more for each failed one). */
  /** keyFrom: where the key came from (a flag or a variable's name, never the key), named when the server refuses it. */
  /** listLagMs: --list-lag, how long a created record was given to appear in the list (absent from files of older runs). */
  /** writesFrom: where read-only or the budget came from when no flag set them (`CONFORM_READ_ONLY in .env.production`), named where the reports name the setting. */
  options: { readOnly: boolean; maxWrites: number; maxWritesGiven?: boolean; writesFrom?: WritesFrom; keyFrom?: string; tls?: Pick<ClientTls, 'caCert' | 'clientCertificate'>; rules: string[]; timeoutMs: number; seed?: number; rateLimit?: number; concurrency?: number; confirm?: number; repeat?: number; listLagMs?: number }
  /** incomplete: the run was cut (--deadline, a signal) before any must-rule failed, so no verdict was reached (exit 2). */
  verdict: 'pass' | 'fail' | 'incomplete'
  /** The process's: 0, 1, 2 by the verdict, or 130 / 143 when a signal (SIGINT, SIGTERM) interrupted the command line's run (the verdict then says what it reached, most often incomplete). */
  exitCode: 0 | 1 | 2 | InterruptExit
  summary: {
    rules: Record<Status, number> & { total: number }
    checks: Record<Status, number> & { total: number }
    /** Requests that went out, every attempt (from the journal). */
    requests: number
    /** POSTs that went out, every attempt (from the journal). */
    writes?: number
    /** Of them, resends of a POST answered 429 or 503 that the list did not show stored (none under --max-writes). */
    resentWrites?: number
    /** Of them, resends of a POST whose connection closed before any answer, which the list showed was not stored. */
    resentLostWrites?: number
    /** Of them, POSTs of the plan sent again: to confirm a failure (--confirm) or in a further round (--repeat); lib/result/writes-again.ts. */
    writesAgain?: number
    /** POSTs that went out and got no complete answer, and (absent when none) those answered with a server fault, a 5xx but 503: each may have created a record (see the journal). */
    unansweredWrites?: number; faultAnsweredWrites?: number
    /** Of those two, how many the lists the run read showed stored (ledger rows, lib/result/ledger-from-list.ts); absent when no list was read. */
    unansweredFound?: number; faultAnsweredFound?: number
    /** Records the lists gained during the run that carry none of its prefixes, no ledger row: another client's, or the run's stored in a form that lost the prefix (lib/result/ledger-from-list.ts). */
    unprefixedNew?: { count: number; records: { id: string; name?: string }[] }
    recordsCreated: number
    /** Requests not sent, by why (read-only, write-budget, not-needed, deadline). */
    refused?: JournalTotals['refused']
    /** How often and for how long the server's Retry-After made the run wait. */
    waits?: JournalTotals['waits']
    /** Answers that came compressed although the client asked for identity, by coding. */
    encodedAnswers?: JournalTotals['encodedAnswers']
  }
  /** Must-rules that no check verified (skipped), with why. */
  notVerified: { id: string; cause: SkipCause; reason: string }[]
  rules: RuleResult[]
  /** Every record this run created: as its answer said (a 2xx to a POST), then those of the run's prefixes a list it read showed and no answer announced (`foundInList`: stored though refused or failed). A POST with no answer is in summary.unansweredWrites, one answered with a server fault in summary.faultAnsweredWrites, whether found or not. */
  ledger: LedgerEntry[]
  /** Every request the run sent or refused to send, as the HTTP client journalled it. (The journal's fields are optional only so that results built by hand in tests stay short.) */
  journal?: JournalEntry[]
  /** What went wrong outside any check (deadline, crashes), each with its kind (lib/result/run-problems.ts): the kinds decide the verdict. */
  problems: RunProblem[]
  /** What the deployment did where the document leaves it free: notes, never verdicts. */
  observed?: ObservedBehaviour
  /** --baseline: the known failures it excused, and its entries that expired, changed or are fixed. */
  baseline?: BaselineOutcome
}

export interface RunFacts {
  tool: { name: string; version: string }
  runId: string
  traceId?: string
  baseUrl: string
  embeddedServer: boolean
  startedAt: Date
  durationMs: number
  options: RunResult['options']
  problems: RunProblem[]
  /** The HTTP client's journal of the run (lib/http/journal.ts): counts and ledger come from it. */
  journal: JournalEntry[]
  /** The lists the run read, its records in them: the ledger's records that no answer announced. */
  listsRead?: Pick<ListsRead, 'sightings' | 'prefixes' | 'redact'> & Partial<Pick<ListsRead, 'gained'>>
  /** The run's deadline (or a signal) ended it: checks that had not finished are not verified, and unless a must-rule failed the verdict is incomplete. */
  cutShort?: boolean
  /**
   * Requests the client kept back although the run finished: a 429 or 503 it could not wait out,
   * or a stall (both, when both happened). Without a must-rule failure the run is incomplete, and
   * these say why.
   */
  keptBack?: RunProblem[]
  /** --repeat N: each rule's rounds (lib/runner/repeat-rounds.ts). `certificateAsked`: a handshake of the run was asked for a client certificate (certificate-refused.ts). */
  samples?: ReadonlyMap<string, Samples>
  certificateAsked?: boolean
}

/** A rule's status from its checks: any failure fails it, all skipped is not verified, a note warns. */
export function ruleStatus(checks: CheckResult[]): Status {
  if (checks.some((c) => c.status === 'fail')) return 'fail'
  if (checks.every((c) => c.status === 'skip')) return 'skip'
  if (checks.some((c) => c.status === 'warn')) return 'warn'
  return 'pass'
}

/**
 * Every record name a run sends starts with this: short, because services limit names (a
 * VARCHAR(16) column must still hold the prefix and what a check sends after it; §8 shows no
 * limit), and the run's own (the last part of its id), so its records can be found afterwards.
 */
export function namePrefix(runId: string): string {
  return `cf-${runId.slice(runId.lastIndexOf('-') + 1)}`
}
export const PREFIX = /cf-[0-9a-z]+-/ // a run's name prefix (namePrefix and its `-`), where a body or a name carries one

/**
 * The result of a run from its checks grouped by rule (whatever ran them) and the facts around
 * them: rules in catalogue order, statuses, counts and ledger from the journal, the verdict.
 */
export function resultOf(judged: ReadonlyMap<string, CheckResult[]>, facts: RunFacts, selected: readonly string[]): RunResult {
  // a check that failed inside the suite judged nothing of the service (suite-errors.ts)
  const { byRule, problem: suiteError } = withoutSuiteErrors(judged)
  const stray = strayAnswersProblem(facts.journal) // bytes after an answer no request asked for: HTTP's fault, no rule's
  const problems = [...facts.problems, ...(suiteError ? [suiteError] : []), ...(stray ? [stray] : [])]
  // a key that stopped working mid-run: the failures its refusals caused are not verified (key-revoked.ts)
  const exchanges = [...byRule.values()].flat().flatMap((c) => c.exchanges)
  const revoked = keyRevoked(exchanges, facts.journal)
  // refused from the start: nothing verified, and no rule reads as broken for it; a gateway that refused the run's client certificate, or a bot check that challenged it: the service was never reached (certificate-refused.ts, front-answered.ts)
  const front = frontAnswered(exchanges, facts.options.tls?.clientCertificate !== undefined, facts.certificateAsked === true, facts.journal, [...byRule.values()].flat())
  const refused = front?.problem ?? (revoked ? undefined : keyRefused(exchanges, facts.options.keyFrom))
  // a server that stopped taking connections: the failures its refused connections caused are not verified (server-gone.ts)
  const gone = serverGone(exchanges)
  // http:// to a port that speaks TLS or HTTP/2 only (h2c), a host the server answers 421 for, or every request redirected to https://: the address is wrong, not a rule (speaks-tls.ts, misdirected.ts)
  const tlsPort = problems.find((p) => p.kind === 'speaks-tls' || p.kind === 'speaks-h2c' || p.kind === 'answers-nothing')
  // a port that speaks TLS or h2c answers nothing that is HTTP/1.1 either: said once, as what it speaks
  const wrongHost = tlsPort ? undefined : misdirected(facts.journal, facts.baseUrl, exchanges)
  // an operation that answered nothing within --timeout may only be slower: its timeouts judge nothing (no-answer-in-time.ts)
  const slow = slowOperations([...byRule.values()].flat(), facts.baseUrl, facts.options.timeoutMs)
  const inDoubt = answersInDoubt(facts.journal) // answers that may have been stray ones (stray-answers.ts)
  const rules: RuleResult[] = []
  for (const rule of ruleCatalogue()) {
    if (selected.length > 0 && !selected.includes(rule.id)) continue
    const declared = byRule.get(rule.id) ?? []
    const kept = front ? withoutChecksOfTheFront(declared, front) : revoked ? withoutRevokedFailures(declared, revoked) : refused ? withoutChecksOfTheRefusedKey(declared, refused) : declared
    // answers the suite's own cap kept it from reading whole judge nothing (response-cap.ts), nor do a slow operation's timeouts
    const uncapped = withoutFailuresOfStrayAnswers(withoutFailuresOfTheCap(slow.size > 0 ? withoutFailuresOfTheTimeout(kept, slow, facts.baseUrl) : kept), inDoubt)
    const checks = tlsPort ? withoutFailuresOfPlainHttp(uncapped, facts.baseUrl, tlsPort.kind as 'speaks-tls' | 'speaks-h2c' | 'answers-nothing') : wrongHost ? withoutChecksOfTheMisdirectedRun(uncapped, facts.baseUrl, wrongHost.message.startsWith(A_WEB_PAGE)) : gone ? withoutFailuresOfTheGoneServer(uncapped, gone) : uncapped
    if (checks.length === 0) {
      // a run cut before its checks were collected has none: not verified, not a fault of the suite
      if (facts.cutShort) rules.push({ ...rule, status: 'skip', checks: [] })
      else problems.push({ kind: 'no-check-for-rule', message: `rule ${rule.id} has no check in suites/` })
      continue
    }
    const samples = facts.samples?.get(rule.id)
    rules.push({ ...rule, status: ruleStatus(checks), checks, ...(samples ? { samples } : {}) })
  }
  const count = <T extends { status: Status }>(items: T[]) => {
    const counts = { total: items.length, pass: 0, fail: 0, skip: 0, warn: 0 }
    for (const item of items) counts[item.status]++
    return counts
  }
  const mustFailed = rules.some((r) => r.level === 'must' && r.status === 'fail')
  // a refused key verified nothing: no verdict on the service (exit 2), and the reason comes first
  if (refused ?? revoked) problems.unshift(refused ?? revoked!.problem)
  if (gone) problems.unshift(gone.problem)
  if (tlsPort) problems.splice(problems.indexOf(tlsPort), 1), problems.unshift(tlsPort)
  for (const first of [wrongHost, responseCapProblem([...byRule.values()].flat()), slow.size > 0 ? noAnswerInTimeProblem(slow, facts.options.timeoutMs) : undefined]) if (first) problems.unshift(first)
  // a failure already seen is the verdict, however the run ended; without one, a cut run has none
  if (!mustFailed && !refused) problems.push(...(facts.keptBack ?? []))
  // decided on the problems' kinds, never on their words; a front that answered some requests only: the service's own answers failed a rule
  const keyWasRefused = problems.some((p) => p.kind === 'key-refused' || p.kind === 'certificate-refused' || (p.kind === 'front-answered' && !mustFailed))
  const endedEarly = facts.cutShort === true || problems.some((p) => ENDS_WITHOUT_VERDICT.has(p.kind))
  const verdict = keyWasRefused ? 'incomplete' : mustFailed ? 'fail' : endedEarly ? 'incomplete' : problems.length > 0 ? 'fail' : 'pass'
  const allChecks = rules.flatMap((r) => r.checks)
  const totals = journalTotals(facts.journal)
  const { ledger, found, unprefixedNew } = runLedger(facts.journal, facts.listsRead)
  return {
    tool: facts.tool,
    runId: facts.runId,
    ...(facts.traceId ? { traceId: facts.traceId } : {}),
    baseUrl: facts.baseUrl,
    embeddedServer: facts.embeddedServer,
    startedAt: facts.startedAt.toISOString(),
    durationMs: facts.durationMs,
    options: facts.options,
    verdict,
    exitCode: verdict === 'pass' ? 0 : verdict === 'fail' ? 1 : 2,
    summary: {
      rules: count(rules),
      checks: count(allChecks),
      requests: totals.requests,
      writes: totals.writes,
      resentWrites: totals.resentWrites,
      ...(totals.resentLostWrites > 0 ? { resentLostWrites: totals.resentLostWrites } : {}),
      writesAgain: writesAgain(facts.journal, (body) => PREFIX.test(body) && !body.includes(`${namePrefix(facts.runId)}-`)),
      unansweredWrites: totals.unansweredWrites, ...(totals.faultAnsweredWrites > 0 ? { faultAnsweredWrites: totals.faultAnsweredWrites } : {}),
      ...(unprefixedNew ? { unprefixedNew } : {}),
      ...(found && totals.unansweredWrites > 0 ? { unansweredFound: found.unanswered } : {}), ...(found && totals.faultAnsweredWrites > 0 ? { faultAnsweredFound: found.faultAnswered } : {}),
      recordsCreated: ledger.length,
      refused: totals.refused,
      waits: totals.waits,
      encodedAnswers: totals.encodedAnswers,
    },
    notVerified: rules
      .filter((r) => r.level === 'must' && r.status === 'skip')
      .map((r) => {
        // what the run met (a server gone, a key refused) before what the user chose (the write budget), as the reports group them
        const skipped = reportedSkip(r.checks)
        return { id: r.id, cause: skipped?.cause ?? 'unfinished', reason: skipped?.skipReason ?? 'not run' }
      }),
    rules,
    ledger,
    journal: facts.journal,
    problems,
    observed: observedBehaviour(facts.journal, rules.flatMap((r) => r.checks.flatMap((c) => c.exchanges)), facts.options.listLagMs),
  }
}

/**
 * The result with `redact` applied to every string in it. Reporters escape text for their format
 * (XML, HTML, Markdown), after which a key could no longer be found in their output, so they are
 * handed this one. Only what a secret was found in is copied (and the objects above it): the rest
 * is the result's own, each object walked once however many checks share it (an exchange is the
 * evidence of every check that judged it). A full copy had cost a full run ~18 MiB of heap at once.
 */
export function redactedResult(result: RunResult, redact: (text: string) => string): RunResult {
  // a key of a map whose keys come from the server (header names, content codings, statuses) is
  // text like any other; a property of the result model (camelCase: `rules`, `checks`, `name`) is
  // the model's own word, and redacting it (a key that happens to be "rule") broke the result
  const shownKeyOf = (key: string, inServerMap: boolean) => (inServerMap || !/^[a-z][A-Za-z0-9]*$/.test(key) ? redact(key) : key)
  const walked = new Map<object, unknown>()
  // a text met again (a header value, a rule's id, a body every check of it quotes) redacted once: a redactor gives one text one answer
  const seen = new Map<string, string>()
  const walk = (value: unknown, inServerMap = false): unknown => {
    if (typeof value === 'string') return seen.get(value) ?? seen.set(value, redact(value)).get(value)
    if (value === null || typeof value !== 'object') return value
    if (walked.has(value)) return walked.get(value)
    let shown: unknown = value
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined
      for (let i = 0; i < value.length; i++) {
        const inner = walk(value[i])
        if (inner !== value[i]) (copy ??= value.slice())[i] = inner
      }
      if (copy) shown = copy
    } else {
      const record = value as Record<string, unknown>
      let copy: Record<string, unknown> | undefined
      const keys = Object.keys(record)
      for (const key of keys) {
        const shownKey = shownKeyOf(key, inServerMap)
        const inner = walk(record[key], SERVER_KEYED_MAPS.has(key))
        if (copy === undefined && (shownKey !== key || inner !== record[key])) {
          // the entries before this one as they were, this one and the rest as shown
          copy = {}
          for (const before of keys) {
            if (before === key) break
            copy[before] = record[before]
          }
        }
        if (copy) copy[shownKey] = inner
      }
      if (copy) shown = copy
    }
    walked.set(value, shown)
    return shown
  }
  return walk(result) as RunResult
}

/** The maps of the result whose keys the server chose: header names, content codings, statuses. */
const SERVER_KEYED_MAPS: ReadonlySet<string> = new Set(['headers', 'encodedAnswers', 'compression', 'answers'])

/**
 * How often and for how long the server made the run wait (429 or 503), in words: the run's time
 * during which a request waited, and the waits added up (they run side by side, so the sum can
 * pass the run's length). Without --rate-limit, the way to spare a limiter the resends is named.
 */
export function serverWaits(result: RunResult): string {
  const waits = result.summary.waits ?? { count: 0, totalMs: 0, heldMs: 0 }
  if (waits.count === 0) return 'the server made the run wait: never'
  const spare = result.options.rateLimit === undefined ? '; --rate-limit or --concurrency under its limits spares it the resends' : ''
  // a results.json of an earlier version has no heldMs
  const held = waits.heldMs === undefined ? '' : `${(waits.heldMs / 1000).toFixed(1)} s of the run spent waiting (`
  return `the server made the run wait ${waits.count} ${waits.count === 1 ? 'time' : 'times'} (429 or 503): ${held}${(waits.totalMs / 1000).toFixed(1)} s of waits added up, side by side${held ? ')' : ''}${spare}`
}
