/**
 * The checks every documented error exchange gets: the status its rule demands, then what §7 and
 * §4 say of any 400 or 401 (an Error record whose status matches, declared as application/json),
 * and for 401 the advisory WWW-Authenticate note.
 */
import { expectErrorRecord, expectErrorStatusMatches, DOCUMENTED_ERROR_STATUSES } from '../checks/error-record.ts'
import { wwwAuthenticateNote } from '../checks/headers.ts'
import { expectJsonContentType, expectStatus, requireStatus } from '../checks/response.ts'
import type { HttpResult } from '../http/client.ts'
import { check, type CheckTools } from './check.ts'

/**
 * `acceptedMeans`: what a 2xx instead says of the service, and how it is usually fixed (the failure
 * says it). `judgeFirst`: what the answer is judged by before its status (a 413 to a body larger
 * than any the service took: suites/categories/refusal-checks.ts).
 */
export function documentedErrorChecks(
  label: string,
  probe: () => Promise<HttpResult>,
  statusRule: string,
  status: 400 | 401,
  acceptedMeans?: string,
  judgeFirst?: (result: HttpResult, t: CheckTools) => Promise<void>,
): void {
  check(statusRule, `${label} → ${status}`, async (t) => {
    const result = await t.use(probe)
    await judgeFirst?.(result, t)
    expectStatus(result, status, acceptedMeans)
  })
  errorRecordChecks(label, probe, statusRule, status)
}

/** What §7 and §4 say of a 400 or 401 answer, for a probe whose status check is its own. */
export function errorRecordChecks(label: string, probe: () => Promise<HttpResult>, statusRule: string, status: 400 | 401): void {
  check('error-body-is-error-record', `${label} → the error body is an Error record`, async (t) => {
    expectErrorRecord(await t.use(probe))
  })
  check('error-status-matches-http', `${label} → Error.status equals the HTTP status`, async (t) => {
    expectErrorStatusMatches(await t.use(probe))
  })
  check('json-content-type', `${label} → the error is application/json`, async (t) => {
    const result = await t.use(probe)
    requireStatus(result, DOCUMENTED_ERROR_STATUSES, `${statusRule} reports the status`)
    expectJsonContentType(result)
  })
  if (status === 401) {
    check('advisory-www-authenticate', `${label} → 401 names the Bearer scheme`, async (t) => {
      const result = await t.use(probe)
      requireStatus(result, [401], `${statusRule} reports the status`)
      const note = wwwAuthenticateNote(result)
      if (note) t.note(note)
    })
  }
}
