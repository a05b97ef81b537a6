/**
 * What went wrong outside any check, as a closed set of kinds. The verdict and the exit code are
 * computed from the kinds (lib/result/run-result.ts); the message beside each is for people, and no
 * decision reads it. A problem whose kind ends the run early leaves it incomplete rather than failed
 * (no verdict was reached); any other fails it, unless the key was refused.
 */
export const PROBLEM_KINDS = [
  /** Every request sent with the key was answered 401 or 403: the run verified nothing (lib/result/key-refused.ts). */
  'key-refused',
  /** A gateway answered requests with its refusal of the client certificate (nginx's "No required SSL certificate was sent"): the service was never reached (lib/result/certificate-refused.ts). */
  'certificate-refused',
  /** A front's bot check (Cloudflare's cf-mitigated: challenge, Vercel's, AWS WAF's) answered requests, or its firewall blocked them all: the service never saw them (lib/result/front-answered.ts). */
  'front-answered',
  /** The key stopped working during the run: from some request on, every request with it was answered 401 or 403 (lib/result/key-revoked.ts). */
  'key-revoked',
  /** The server stopped taking connections during the run: from some request on, every connection was refused (lib/result/server-gone.ts). */
  'server-gone',
  /** A base URL of http:// to a port that speaks TLS: no request got an answer, and a TLS handshake there succeeded (lib/result/speaks-tls.ts). */
  'speaks-tls',
  /** A base URL of http:// to a port that speaks HTTP/2 only, without TLS (h2c): no HTTP/1.1 request got an answer it could read, and the port answered the HTTP/2 connection preface (lib/result/speaks-tls.ts). */
  'speaks-h2c',
  /** A base URL of http:// to a port that closed every connection with no byte of an answer, a GET alone too, and speaks neither TLS nor h2c: nothing behind it answers (lib/result/speaks-tls.ts). */
  'answers-nothing',
  /** Every request the server answered was answered 421 Misdirected Request, or redirected to https://: it does not answer at the base URL (lib/result/misdirected.ts). */
  'misdirected',
  /** Answers larger than --max-response-bytes allows were not read whole: the checks that met them are not verified (lib/result/response-cap.ts). */
  'response-cap',
  /** The server answered no request of the run within --timeout: slower than that, or hung; its timeouts judge nothing (lib/result/no-answer-in-time.ts). */
  'no-answer-in-time',
  /** The run's deadline (--deadline) came before every check had finished. */
  'deadline',
  /** The user (SIGINT, SIGTERM) or the caller stopped the run before it finished. */
  'interrupted',
  /** The server's 429 or 503 outlasted the deadline or the run's resends of POSTs: requests were kept back. */
  'outlasted',
  /** Operations the server let go unanswered past --timeout: their other requests were kept back. */
  'stalled',
  /** The run's journal could not be written to its journal.ndjson (the one in memory is whole). */
  'journal-unwritable',
  /** The server wrote bytes after an answer's end on a kept-alive connection, before the next request: a stray answer, HTTP's fault, no rule's (lib/result/stray-answers.ts). */
  'stray-answer',
  /** An error of the suite itself (a probe nobody awaited that failed), not a verdict on the service. */
  'suite-error',
  /** A rule of the catalogue that no check in suites/ proves. */
  'no-check-for-rule',
] as const

export type ProblemKind = (typeof PROBLEM_KINDS)[number]

export interface RunProblem {
  kind: ProblemKind
  /** In words, for the reports; redacted like every string of the result. */
  message: string
  /**
   * What it showed, in words no run's value changes, as a baseline's knownProblems entry records it
   * (stray answers: `an extra answer`, `answers to an unread body`, `answers to the chunks of a chunked body`).
   */
  observed?: string
}

/** Kinds that mean the run ended before a verdict: without a must-rule failure it is incomplete (exit 2), not failed. */
export const ENDS_WITHOUT_VERDICT: ReadonlySet<ProblemKind> = new Set(['deadline', 'interrupted', 'outlasted', 'stalled', 'key-revoked', 'server-gone', 'speaks-tls', 'speaks-h2c', 'answers-nothing', 'misdirected', 'response-cap', 'no-answer-in-time', 'suite-error'])
