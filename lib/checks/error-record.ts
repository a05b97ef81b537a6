/** Checks on the Error record that every documented error response carries (§7, §2). */
import type { HttpResult } from '../http/client.ts'
import { fail, NotApplicable } from './failure.ts'
import { jsonBodyOf, requireStatus } from './response.ts'
import { errorBodyOrigin } from './known-answers.ts'
import { expectSchema } from './schema.ts'

/** The error statuses the document shows; other statuses are "not shown" and judged by nobody. */
export const DOCUMENTED_ERROR_STATUSES = [400, 401] as const

export function expectErrorRecord(result: HttpResult): void {
  requireStatus(result, DOCUMENTED_ERROR_STATUSES, 'the Error record is documented for 400 and 401')
  expectSchema(result, 'Error', 'an Error record (code, message, status)', errorBodyOrigin)
}

export function expectErrorStatusMatches(result: HttpResult): void {
  const response = requireStatus(result, DOCUMENTED_ERROR_STATUSES, 'the Error record is documented for 400 and 401')
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
  if (status === response.status) return
  fail(
    {
      code: 'ERROR_STATUS_MISMATCH',
      message: `the Error record says status ${status} in a ${response.status} response`,
      expected: `"status": ${response.status}`,
      actual: `"status": ${status}`,
      observed: `"status": ${status} in a ${response.status}`,
    },
    result.exchange,
  )
}
