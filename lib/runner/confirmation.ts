/**
 * Failures confirmed before they are reported (--confirm N): a check that failed is run again, up
 * to N times, in a fresh probe scope (its once() probes new, its record names new: another name
 * prefix), so that "fails every time" is told from "failed once". The failed checks of one attempt
 * run together, so a probe several of them await goes out once per attempt. Each failed check then
 * carries its recurrence: deterministic (every attempt failed), intermittent (some passed), or
 * unconfirmed (no attempt could be made: the write budget, --read-only or the deadline). The
 * verdict does not change; the reports say what kind of failure it is (but for a front's block page
 * served when sent again: a rate rule's window, lib/result/front-answered.ts). A passing run sends
 * nothing more.
 */
import type { SkipCause } from '../checks/skip-causes.ts'
import { UNANSWERED_ALONE, type JournalEntry } from '../http/journal.ts'
import { ALONE_CONFIRMATIONS } from '../http/unanswered-alone.ts'
import { refusedTheKey } from '../http/exchange.ts'
import { keyRefused, writesRefused } from '../result/key-refused.ts'
import { freshRunId } from '../result/record-prefixes.ts'
import { frontAnswered } from '../result/front-answered.ts'
import { answeredOnly421, answeredOnlyPages, answeredOnlyRedirects } from '../result/misdirected.ts'
import { failedOnTheCap } from '../result/response-cap.ts'
import { keyRevoked } from '../result/key-revoked.ts'
import { serverGone } from '../result/server-gone.ts'
import { answeredOnly404, notRoutedBehindRefusals, servedNothing } from '../result/served-nothing.ts'
import type { CheckResult, Recurrence } from '../result/run-result.ts'
import { collectChecks, type Suite } from '../suite-kit/check.ts'
import type { ConfirmationWrites } from '../suite-kit/confirmation-writes.ts'
import { newRunScope, within, type RunScope } from '../suite-kit/run-context.ts'
import { runCheck } from './check-runner.ts'
import { keyServedAgain } from './key-recheck.ts'
import type { Exchange } from '../http/exchange.ts'


export interface ConfirmOptions {
  /** --confirm: attempts after the first, per failed check; 0 turns confirmation off. */
  attempts: number
  /** The rules the run selected (--rule): the same checks are collected again. */
  selected: readonly string[]
  /** --max-writes as the user gave it; undefined: the default budget, which includes confirmation. */
  maxWrites?: number
  /** True once the run is past its deadline or cut: no attempt starts. */
  stopped: () => boolean
  /** The run's journal so far (what was sent and created). */
  journal: () => JournalEntry[]
  /**
   * Whether the run's --baseline excuses a failure: such a failure is not probed again. It does not
   * fail the run whatever its recurrence, and a team that baselined a deviation paid for it on every
   * run (122 of 204 POSTs against error-as-problem-details, 89 known failures).
   */
  known?: (ruleId: string, result: CheckResult) => boolean
}

/** A check's result with where its declaration stands among the run's checks (collected again, the same index holds the same check). */
export interface IndexedResult {
  index: number
  result: CheckResult
  /** Its rule, for the baseline (ConfirmOptions.known). */
  ruleId?: string
}

/**
 * Runs the failed checks among `results` again, up to `attempts` times each, and writes each one's
 * recurrence onto its result. Resolves when every attempt has ended (the run's deadline cuts them as it cuts the run).
 */
export async function confirmFailures(results: readonly IndexedResult[], suites: readonly Suite[], scope: RunScope, options: ConfirmOptions): Promise<void> {
  // a run that failed no check sends nothing more: nor is its journal read, nor its evidence asked whether a front answered it
  if (!results.some(({ result }) => result.status === 'fail')) return
  const known = (ruleId: string | undefined, result: CheckResult) => ruleId !== undefined && options.known?.(ruleId, result) === true
  // an answer past --max-response-bytes would pass it again: such a failure is not verified, and not probed again (response-cap.ts)
  // a gateway that refused the client certificate, or a bot check that challenged requests, would again: a failure whose evidence holds
  // its answer is not probed again; one the service's own answers showed is (front-answered.ts: a front that challenged some paths only)
  const front = frontAnswered(results.flatMap(({ result }) => result.exchanges), false, false, options.journal())
  const ofTheFront = (result: CheckResult) => front !== undefined && result.exchanges.some(front.answered)
  // a POST that went unanswered alone was sent alone three times already, unanswered each time (unanswered-alone.ts): confirmed, not probed again
  const aloneIds = new Set(options.journal().filter((e) => e.answerLost === UNANSWERED_ALONE).map((e) => e.id))
  const confirmedAlone = (result: CheckResult) => result.failure?.code === 'NO_RESPONSE' && result.exchanges.some((e) => aloneIds.has(e.id))
  for (const { result } of results) if (result.status === 'fail' && confirmedAlone(result)) result.recurrence = { attempts: ALONE_CONFIRMATIONS, failures: ALONE_CONFIRMATIONS, kind: 'deterministic' }
  const failed = results.filter(({ result, ruleId }) => result.status === 'fail' && result.failure?.code !== 'CHECK_ERROR' && !failedOnTheCap(result) && !known(ruleId, result) && !ofTheFront(result) && !confirmedAlone(result)).map(({ index, result }, at) => ({ o: { result }, index, at }))
  if (failed.length === 0) return
  // tries: the rounds a check was probed again in (an attempt, or one that could not run): at most options.attempts each
  const counts = new Map(failed.map(({ at }) => [at, { attempts: 1, failures: 1, tries: 0, skipped: undefined as SkipCause | undefined }]))
  // what the reports say if the deadline cuts the confirmation short
  for (const { o } of failed) o.result.recurrence = { attempts: 1, failures: 1, kind: 'unconfirmed' }
  const journal = options.journal()
  const exchanges = results.flatMap(({ result }) => result.exchanges)
  // a key refused on every POST, its GETs served (a key without write permission): every create's
  // re-probe would be refused again. The first such failure is probed again, to tell a refusal that
  // lasts from one of a moment; the others are not, nor are their POSTs sent (a default run sent 44
  // more for them, against the production deployment an acceptance key may read only), while its
  // re-probes are refused: one served, the refusals were of a moment, and the others are probed too
  const spared = new Set<number>()
  let lead: number | undefined
  if (writesRefused(exchanges)) {
    const ofTheKey = failed.filter(({ o }) => o.result.exchanges.length > 0 && o.result.exchanges.every((e) => e.request.method === 'POST' && refusedTheKey(e)))
    lead = ofTheKey[0]?.at
    for (const { at } of ofTheKey.slice(1)) {
      spared.add(at)
      counts.get(at)!.skipped = 'not-needed'
    }
  }
  const leadRefusedAgain = () => lead === undefined || counts.get(lead)!.failures === counts.get(lead)!.attempts
  let writes = confirmationWrites(journal, failed.filter(({ at }) => !spared.has(at)).map(({ o }) => o.result), options.maxWrites, options.attempts)
  // a key the server refuses, or stopped accepting, would only be refused again: no verdict either
  // way, unless a key it had served, asked about once more, is served (key-recheck.ts): then its
  // refusals were the service's. A key refused from the first request on is not asked again: served
  // a second later, it may only just have become valid (a new key still propagating)
  const refusedFromTheStart = keyRefused(exchanges) !== undefined
  let keyGone = refusedFromTheStart || keyRevoked(exchanges, journal) !== undefined
  let askedAboutTheKey = false
  /** Asks about the key once more (key-recheck.ts); served, its refusals are the failures' evidence of the service's fault. Whether it was served. */
  const keyServedWhenAsked = async (evidence: readonly Exchange[]): Promise<boolean> => {
    askedAboutTheKey = true
    const served = await keyServedAgain(evidence, scope, options.stopped)
    if (!served) return false
    const note = `the key was refused from some request on, then served when asked again a second later (${served.request.method} ${new URL(served.request.url).pathname}: ${served.response?.status}): the refusals are the service's (a limiter answering 401, an auth backend down for a moment, a cache in front that answers a URL's 401 to every client), not a revoked key's`
    for (const { o } of failed) {
      if (!o.result.exchanges.some(refusedTheKey)) continue
      o.result.exchanges.push(served)
      o.result.notes.push(note)
    }
    return true
  }
  if (keyGone && !refusedFromTheStart && (await keyServedWhenAsked(exchanges))) keyGone = false
  // a server that answered no request of the run (every answer a 5xx, or none): a second probe would
  // only wait out its 503s again (a run against a server that is down took three times as long)
  // so one that answered every request 404 (a wrong path before /v1), or all but those it refused before routing: a second probe would meet the same 404s
  const answeredNothing = servedNothing(journal) || answeredOnly404(journal) || notRoutedBehindRefusals(journal, exchanges) !== undefined
  // a server that stopped taking connections would refuse them again: its failures are not verified (server-gone.ts)
  const gone = serverGone(exchanges) !== undefined
  // a server that answered every request 421, redirected it or answered a web page would answer so again: nothing of the service to confirm (misdirected.ts)
  const wrongHost = answeredOnly421(journal) + answeredOnlyRedirects(journal) + answeredOnlyPages(exchanges).length > 0
  // an operation stalled by one request past --timeout is probed again: a pause, or a hang (stalled-operations.ts);
  // not when nothing is probed (--confirm 0, a key or server gone): the ledger's last list read waited out a hung list
  if (options.attempts > 0 && !answeredNothing && !keyGone && !gone && !wrongHost) scope.client?.stalls.release()
  // a spared check's attempts start a round late (once the first was served): --confirm 1 left them none (unconfirmed, "not needed")
  const rounds = options.attempts + (lead === undefined ? 0 : 1)
  for (let attempt = 1; attempt <= rounds && !keyGone && !answeredNothing && !gone && !wrongHost && !options.stopped(); attempt++) {
    if (spared.size > 0 && !leadRefusedAgain()) {
      for (const at of spared.keys()) counts.get(at)!.skipped = undefined
      spared.clear()
      writes = confirmationWrites(options.journal(), failed.map(({ o }) => o.result), options.maxWrites, options.attempts)
    }
    // a check that passed once is intermittent: no more attempts are needed to say so
    const pending = failed.filter(({ at }) => {
      const c = counts.get(at)!
      return c.failures === c.attempts && c.tries < options.attempts && !spared.has(at)
    })
    if (pending.length === 0) break
    for (const { at } of pending) counts.get(at)!.tries++
    const attemptScope = newRunScope({ ...scope.context, runId: freshRunId(scope.context.runId, attempt), confirming: writes })
    attemptScope.client = scope.client
    const declared = within(attemptScope, () => collectChecks(suites)).filter((c) => options.selected.length === 0 || options.selected.includes(c.rule.id))
    const attempts = await Promise.all(
      pending.map(async ({ o, index, at }) => {
        const again = declared[index]
        // the same declaration, collected again: the same index holds the same check
        if (!again || !o.result.name.startsWith(again.name)) return { at, result: undefined }
        return { at, result: await within(attemptScope, () => runCheck(again, [])) }
      }),
    )
    for (const { at, result } of attempts) {
      // a check that could not run again (the write budget, --read-only, the deadline, its operation
      // stalled past --timeout) is no attempt; why is kept, for the reports to say
      if (result?.status === 'skip') counts.get(at)!.skipped ??= result.cause
      if (!result || result.status === 'skip') continue
      // the re-probes are evidence of the check too (the ledger names what each one created)
      failed[at]!.o.result.exchanges.push(...result.exchanges)
      const c = counts.get(at)!
      c.attempts++
      if (result.status === 'fail') c.failures++
    }
  }
  // refusals of the key the confirmation added may make it look revoked only now (a cache in front
  // that keeps a URL's 401 refuses its every probe): asked about once more then, as above
  if (!askedAboutTheKey && !refusedFromTheStart && !options.stopped()) {
    const evidence = [...exchanges, ...failed.flatMap(({ o }) => o.result.exchanges)]
    if (keyRevoked(evidence, options.journal()) !== undefined) await keyServedWhenAsked(evidence)
  }
  for (const { o, at } of failed) {
    const { attempts, failures, skipped } = counts.get(at)!
    const recurrence: Recurrence = { attempts, failures, kind: attempts === 1 ? 'unconfirmed' : failures === attempts ? 'deterministic' : 'intermittent', ...(attempts === 1 && skipped ? { cause: skipped } : {}) }
    o.result.recurrence = recurrence
  }
}

/**
 * The POSTs the failed checks were found on, from the run's journal, and how many confirmation may
 * send: what an explicit --max-writes leaves of its budget, else the default bound's share (the
 * plan line's promise, write-plan.ts defaultWriteBound): `attempts` more for each failed POST.
 */
function confirmationWrites(journal: readonly JournalEntry[], failed: readonly CheckResult[], maxWrites: number | undefined, attempts: number): ConfirmationWrites {
  const probeOf = new Map(journal.filter((e) => e.probe !== undefined).map((e) => [e.id, e.probe!]))
  const probes = new Set(failed.flatMap((r) => r.exchanges.flatMap((e) => (probeOf.has(e.id) ? [probeOf.get(e.id)!] : []))))
  const sent = journal.filter((e) => e.method === 'POST' && e.onWire).length
  const left = maxWrites === undefined ? attempts * probes.size : Math.max(0, maxWrites - sent)
  const exhausted = maxWrites === undefined ? `not confirmed: --confirm ${attempts} allows at most ${attempts} more for each failed POST, all sent` : `not confirmed: --max-writes ${maxWrites} left no write for a second probe`
  const each = maxWrites === undefined ? { each: { most: attempts, sent: new Map<string, number>() } } : {}
  return { probes, left, exhausted, notNeeded: 'not sent: confirming a failure needs only the POSTs it was found on', reprobesFailures: true, ...each }
}
