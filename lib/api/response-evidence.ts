/**
 * The answer behind a failed check, for a test failure in a service's own vitest
 * (define-conformance.ts): the status, the headers and the body the check judged, as text that is
 * safe in a terminal (controls and invisible characters as markers, lib/reporters/visible-text.ts)
 * and with credential headers masked as report.html masks them. The curl line shows the request;
 * without this, a vitest user would see "body lacks required property status" and not the body,
 * for there is no report.html unless reportDir is given.
 */
import type { CheckResult } from '../result/run-result.ts'
import { shownHeaderValue } from '../reporters/html-failures.ts'
import { visibleLine } from '../reporters/visible-text.ts'

/** The body is shown up to this many characters; the journal (reportDir) has what the suite kept. */
export const SHOWN_BODY_CHARS = 2_000

/**
 * The lines that show the answer to the request the failure's curl line repeats ('response: HTTP
 * 401', headers, body), or the transport error; none when no exchange was made. The curl lines
 * stand for the check's own exchanges, in order, and the failure shows the last of them; the
 * exchanges of --confirm's probes come after, each with a fresh name, and are not that request.
 */
export function responseEvidence(check: CheckResult, runId: string): string[] {
  const exchange = check.exchanges[(check.reproduce.length > 0 ? check.reproduce.length : check.exchanges.length) - 1]
  if (!exchange) return []
  const { response, error } = exchange
  if (!response) return [`response: none (${error?.code ?? 'NETWORK_ERROR'}: ${visibleLine(error?.message ?? 'no response')})`]
  const headers = Object.entries(response.headers).map(([name, value]) => `  ${visibleLine(name)}: ${visibleLine(shownHeaderValue(name, value, runId))}`)
  const chars = [...response.body]
  const body = chars.length > SHOWN_BODY_CHARS ? `${chars.slice(0, SHOWN_BODY_CHARS).join('')}…` : response.body
  const cut = response.bodyTruncated || chars.length > SHOWN_BODY_CHARS ? ` (the first ${Math.min(chars.length, SHOWN_BODY_CHARS)} characters of ${response.bodyBytes} bytes)` : ''
  return [`response: HTTP ${response.status}`, ...headers, `  body${cut}: ${response.body === '' ? '(empty)' : visibleLine(body)}`]
}
