/**
 * Why a check ended without a verdict: a closed set of kebab-case ids, declared once. A check that
 * does not apply throws NotApplicable with one of them (lib/checks/failure.ts); results.json
 * carries it as the skipped check's `cause`, and the reports group skips by it. The words beside it
 * (`skipReason`) are for people: no verdict, grouping or exit code reads them.
 */
import type { RefusalReason } from '../http/journal.ts'

export const SKIP_CAUSES = [
  /** --read-only: the POST was not sent. */
  'read-only',
  /** --max-writes: the POST was over the write budget. */
  'write-budget',
  /** The run did not need the request: no selected rule (--rule) judges it, or what the service answered made it unnecessary. */
  'not-needed',
  /** The run's deadline (--deadline), or a 429/503 the run could not wait out before it, came first; or the user interrupted the run (SIGINT, SIGTERM), which ends it as its deadline does. */
  'deadline',
  /** The operation had let a request go unanswered past --timeout: this one was kept back. */
  'stalled',
  /** A header no HTTP request can carry: the request was not sent. */
  'unsendable',
  /** The check had not finished when the run was cut short (--deadline, or a signal). */
  'unfinished',
  /** The key stopped working during the run (revoked, rotated, expired): the refusals it met judge nothing (lib/result/key-revoked.ts). */
  'key-revoked',
  /** The server stopped taking connections during the run: the connections it refused judge nothing (lib/result/server-gone.ts). */
  'server-gone',
  /** The base URL was http:// to a port that speaks TLS: the request got no answer (lib/result/speaks-tls.ts). */
  'speaks-tls',
  /** The base URL was http:// to a port that speaks HTTP/2 only (h2c): the HTTP/1.1 request got no answer it could read (lib/result/speaks-tls.ts). */
  'speaks-h2c',
  /** The port closed every connection with no byte of an answer, a GET alone too: the request got none (lib/result/speaks-tls.ts). */
  'answers-nothing',
  /** The server answered every request 421 Misdirected Request, or redirected every request to https://: it does not answer at the base URL (lib/result/misdirected.ts). */
  'misdirected',
  /** An answer passed --max-response-bytes and was not read whole (lib/result/response-cap.ts). */
  'response-cap',
  /** The answer read may have been a stray one, written for an earlier request on its connection (lib/result/stray-answers.ts). */
  'stray-answer',
  /** The server refused the key on every request sent with it (wrong, expired, another environment's): the refusals judge nothing (lib/result/key-refused.ts). */
  'key-refused',
  /** A gateway refused the request for its client certificate (mutual TLS), so the service never saw it (lib/result/certificate-refused.ts). */
  'certificate-refused',
  /** A front's bot check challenged the request (Cloudflare's cf-mitigated: challenge), or its firewall blocked every request of the run, so the service never saw it (lib/result/front-answered.ts). */
  'front-answered',
  /** The key's shape rules this credential case out (too short, no letters …). */
  'key-unusable',
  /** The answer was lost in transit (the connection race), though the list shows the record was created: nothing of the answer to judge. */
  'answer-lost',
  /** The answer was lost in transit and the list does not show the record; the POST was not sent again (--max-writes, or the run's bound of such resends), so it may or may not have created one. */
  'not-sent-again',
  /** The service limits lengths below what the suite's create needs (§8 shows no limit): the create was refused, and nothing longer was taken. */
  'length-limit',
  /**
   * A name every run sends was refused as the service refuses a repeated name, and the key's list shows no record of it:
   * another account's record holds it, under names unique across accounts (suites/categories/repeated-names.ts).
   */
  'name-held-elsewhere',
  /** The check failed inside the suite itself (CHECK_ERROR): it judged nothing of the service (lib/result/suite-errors.ts). */
  'suite-error',
  /** The exchange gave the check nothing to judge; another rule reports what went wrong, or the service used a freedom. */
  'not-applicable',
] as const

export type SkipCause = (typeof SKIP_CAUSES)[number]

/** Every reason the client refuses a request for is a cause of the skips it leaves (the compiler keeps it so). */
export const REFUSALS_ARE_CAUSES: RefusalReason extends SkipCause ? true : never = true

/** Skips that leave nothing unverified: the run did not need the request. */
export const LEAVES_NOTHING_UNVERIFIED: ReadonlySet<SkipCause> = new Set(['not-needed'])

/**
 * Skips the run met, not ones the user asked for (--read-only, --max-writes, --rule): a server
 * that stopped taking connections, a key refused or revoked, the deadline, an operation stalled.
 * Where a rule's checks were skipped for both, these are what kept it unverified: under
 * --max-writes 10 against a server that stopped as the run began, create-returns-201 read "not
 * verified: over the write budget", its commonest cause, as if more writes would have judged it.
 */
// (and a POST of the rule that went and may have created a record, not-sent-again: reported under
// the budget, the rule read as if no POST of it had been sent)
const MET_BY_THE_RUN: ReadonlySet<SkipCause> = new Set(['server-gone', 'speaks-tls', 'speaks-h2c', 'answers-nothing', 'misdirected', 'response-cap', 'key-refused', 'certificate-refused', 'front-answered', 'key-revoked', 'deadline', 'unfinished', 'stalled', 'not-sent-again'])

/** The commonest of the causes (the first of equals); undefined when none is given. */
function commonest(causes: readonly SkipCause[]): SkipCause | undefined {
  const counts = new Map<SkipCause, number>()
  for (const cause of causes) counts.set(cause, (counts.get(cause) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0]
}

/** Of a wholly skipped rule's causes, the commonest the run met (MET_BY_THE_RUN), which it is reported under; undefined when the run met none. */
function causeMetByTheRun(causes: readonly SkipCause[]): SkipCause | undefined {
  return commonest(causes.filter((cause) => MET_BY_THE_RUN.has(cause)))
}

/**
 * Of a wholly skipped rule's checks, the one whose cause and words the rule is reported under, in
 * its group and on its own line of every report and in results.json's notVerified alike: of the
 * cause the run met (causeMetByTheRun), else of its commonest cause. A check recorded without a
 * cause counts as not applicable.
 */
export function reportedSkip<C extends { cause?: SkipCause }>(checks: readonly C[]): C | undefined {
  const causeOf = (check: C) => check.cause ?? 'not-applicable'
  const causes = checks.map(causeOf)
  const cause = causeMetByTheRun(causes) ?? commonest(causes)
  return checks.find((check) => causeOf(check) === cause)
}
