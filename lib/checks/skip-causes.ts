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
  /** The server refused the key on every request sent with it (wrong, expired, another environment's): the refusals judge nothing (lib/result/key-refused.ts). */
  'key-refused',
  /** The key's shape rules this credential case out (too short, no letters …). */
  'key-unusable',
  /** The answer was lost in transit (the connection race), though the list shows the record was created: nothing of the answer to judge. */
  'answer-lost',
  /** The answer was lost in transit and the list does not show the record; the POST was not sent again (--max-writes, or the run's bound of such resends), so it may or may not have created one. */
  'not-sent-again',
  /** The service limits lengths below what the suite's create needs (§8 shows no limit): the create was refused, and nothing longer was taken. */
  'length-limit',
  /** The exchange gave the check nothing to judge; another rule reports what went wrong, or the service used a freedom. */
  'not-applicable',
] as const

export type SkipCause = (typeof SKIP_CAUSES)[number]

/** Every reason the client refuses a request for is a cause of the skips it leaves (the compiler keeps it so). */
export const REFUSALS_ARE_CAUSES: RefusalReason extends SkipCause ? true : never = true

/** Skips that leave nothing unverified: the run did not need the request. */
export const LEAVES_NOTHING_UNVERIFIED: ReadonlySet<SkipCause> = new Set(['not-needed'])
