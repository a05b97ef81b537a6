/**
 * Built responses for unit tests of lib/checks (Schemathesis' make_response): an HttpResult as the
 * HTTP client would hand it over, without a server or a child process, so a check is proven in
 * milliseconds on exactly the bytes that matter.
 */
import type { HttpResult } from '../../lib/http/client.ts'
import { ConformanceFailure, NotApplicable } from '../../lib/checks/failure.ts'
import type { FailureCode } from '../../lib/spec/failure-codes.ts'

export interface Built {
  status?: number
  headers?: Record<string, string>
  /** The body text; a value that is not a string is sent as JSON.stringify(value). */
  body?: unknown
  method?: 'GET' | 'POST'
  path?: string
  /** The request's headers (none by default). */
  requestHeaders?: Record<string, string>
}

let sequence = 0

export function makeResponse({ status = 200, headers = { 'content-type': 'application/json' }, body = '', method = 'GET', path = '/categories', requestHeaders = {} }: Built = {}): HttpResult {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  return {
    exchange: {
      id: `built-${++sequence}`,
      startedAt: '2026-01-01T00:00:00.000Z',
      durationMs: 1,
      request: { method, url: `http://127.0.0.1:1/v1${path}`, headers: requestHeaders },
      response: { status, headers, body: text, bodyBytes: Buffer.byteLength(text), bodyTruncated: false },
    },
    text,
  }
}

/** A request that got no response: what the client hands over after a timeout or a reset. */
export function makeTransportError(code: 'TIMEOUT' | 'CONNECTION_RESET' = 'TIMEOUT'): HttpResult {
  return {
    exchange: {
      id: `built-${++sequence}`,
      startedAt: '2026-01-01T00:00:00.000Z',
      durationMs: 1,
      request: { method: 'GET', url: 'http://127.0.0.1:1/v1/categories', headers: {} },
      error: { code, message: 'no response within 10 ms' },
    },
  }
}

export type Verdict = { pass: true } | { code: FailureCode; message: string } | { notApplicable: string }

/** What a check made of a response: passed, failed with a code, or found nothing to judge. */
export function verdictOf(check: () => unknown): Verdict {
  try {
    check()
    return { pass: true }
  } catch (error) {
    if (error instanceof ConformanceFailure) return { code: error.code, message: error.message }
    if (error instanceof NotApplicable) return { notApplicable: error.reason }
    throw error
  }
}

/** The failure code, 'pass', or 'not-applicable': short enough for tables of cases. */
export function outcomeOf(check: () => unknown): FailureCode | 'pass' | 'not-applicable' {
  const verdict = verdictOf(check)
  if ('pass' in verdict) return 'pass'
  if ('notApplicable' in verdict) return 'not-applicable'
  return verdict.code
}
