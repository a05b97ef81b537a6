/** Checks on the Error record that every documented error response carries (§7, §2). */
import type { HttpResult } from '../http/client.ts'
import { fail } from './failure.ts'
import { requireStatus } from './response.ts'
import { expectSchema } from './schema.ts'

/** The error statuses the document shows; other statuses are "not shown" and judged by nobody. */
export const DOCUMENTED_ERROR_STATUSES = [400, 401] as const

export function expectErrorRecord(result: HttpResult): void {
  requireStatus(result, DOCUMENTED_ERROR_STATUSES, 'the Error record is documented for 400 and 401')
  expectSchema(result, 'Error', 'an Error record (code, message, status)')
}

export function expectErrorStatusMatches(result: HttpResult): void {
  const response = requireStatus(result, DOCUMENTED_ERROR_STATUSES, 'the Error record is documented for 400 and 401')
  const body = expectSchema(result, 'Error', 'an Error record (code, message, status)') as { status: number }
  if (body.status === response.status) return
  fail(
    {
      message: `the Error record says status ${body.status} in a ${response.status} response`,
      expected: `"status": ${response.status}`,
      actual: `"status": ${body.status}`,
    },
    result.exchange,
  )
}
