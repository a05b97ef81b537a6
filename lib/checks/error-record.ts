/** Checks on the Error record that every documented error response carries (§7, §2). */
import type { HttpResult } from '../http/client.ts'
import { fail, NotApplicable } from './failure.ts'
import { jsonBodyOf, requireStatus, responseOf } from './response.ts'
import { errorBodyOrigin } from './known-answers.ts'
import { expectSchema } from './schema.ts'

/** The error statuses the document shows (§7's table); 409 and 422, not shown, are judged too (JUDGED_ERROR_STATUSES), and other statuses by nobody. */
export const DOCUMENTED_ERROR_STATUSES = [400, 401] as const

/**
 * The statuses §7's "All error responses carry the Error record" is judged on: those it shows, and
 * the refusals only the application itself gives for what a request holds, 409 Conflict (a name
 * taken) and 422 Unprocessable Content (a framework's validation). Not the statuses fronts, gateways
 * and routers answer with bodies of their own before the request reaches the service (nginx's 413
 * and 414 pages, 431, 429 and 408, 403 from a WAF, 404 and 405 from a router, AWS API Gateway's 415
 * {"message": …}, 5xx): a verdict on those would fail a correct service behind them.
 */
export const JUDGED_ERROR_STATUSES = [...DOCUMENTED_ERROR_STATUSES, 409, 422] as const

export function expectErrorRecord(result: HttpResult): void {
  const { status } = requireStatus(result, JUDGED_ERROR_STATUSES, 'the Error record is judged for 400 and 401, and for the 409 and 422 only the service gives')
  const what = status === 409 || status === 422 ? `an Error record (code, message, status), which §7 asks of all error responses, a ${status} too` : 'an Error record (code, message, status)'
  expectSchema(result, 'Error', what, errorBodyOrigin)
}

export function expectErrorStatusMatches(result: HttpResult): void {
  statusOfRecordMatches(result, requireStatus(result, JUDGED_ERROR_STATUSES, 'the Error record is judged for 400 and 401, and for the 409 and 422 only the service gives').status)
}

/**
 * A refusal in another status the document does not show (413, 415 …), which a front may answer
 * with a body of its own: whether its body is an Error record is not judged, but one that is (code and message strings, an
 * integer status) says the HTTP status of its response (§2), as a 400's does: a shared error
 * builder that writes 400 into a 409 or a 413 is what this catches. Any other body holds, unjudged.
 */
export function expectStatusOfAnyErrorRecordMatches(result: HttpResult): void {
  const response = responseOf(result)
  let body: unknown
  try {
    body = jsonBodyOf(result)
  } catch {
    return
  }
  const record = body as { code?: unknown; message?: unknown; status?: unknown } | null
  if (typeof record?.code !== 'string' || typeof record.message !== 'string' || typeof record.status !== 'number' || !Number.isInteger(record.status)) return
  statusOfRecordMatches(result, response.status)
}

function statusOfRecordMatches(result: HttpResult, httpStatus: number): void {
  let body: unknown
  try {
    body = jsonBodyOf(result)
  } catch {
    throw new NotApplicable('the body is not JSON; error-body-is-error-record reports it')
  }
  const status = (body as { status?: unknown } | null)?.status
  // a missing or non-integer status is the Error record's shape, which error-body-is-error-record judges
  if (typeof status !== 'number' || !Number.isInteger(status)) {
    throw new NotApplicable('the body has no integer status field; error-body-is-error-record reports it')
  }
  if (status === httpStatus) return
  fail(
    {
      code: 'ERROR_STATUS_MISMATCH',
      message: `the Error record says status ${status} in a ${httpStatus} response`,
      expected: `"status": ${httpStatus}`,
      actual: `"status": ${status}`,
      observed: `"status": ${status} in a ${httpStatus}`,
    },
    result.exchange,
  )
}
