/**
 * Hand-built RunResults for reporter tests: the real rule catalogue, checks as a table, and server
 * text that tries everything (markup, quotes, control characters, bidi overrides, workflow
 * commands, Markdown, invalid XML characters).
 */
import type { RunProblem } from '../../lib/result/run-problems.ts'
import type { FailureDetail } from '../../lib/checks/failure.ts'
import type { Exchange } from '../../lib/http/exchange.ts'
import type { JournalEntry } from '../../lib/http/journal.ts'
import { resultOf, type CheckResult, type RunResult, type Status } from '../../lib/result/run-result.ts'
import { ruleCatalogue } from '../../lib/spec/rule-catalogue.ts'
import type { LedgerEntry } from '../../lib/result/run-result.ts'

export const RUN_ID = '20260101-0000-abcd'
export const BASE_URL = 'https://petstore.example/v1'

/** What a hostile server might put in any text the reports quote. */
export const HOSTILE =
  '</pre></td><script>alert("x")</script><img src=x onerror=alert(1)> & "q" \'s\' \x1b[31mred\x1b[0m \u202Egnp.exe\u202C ]]> \x00\x07 %0A\r\n::error title=forged::forged annotation | *bold* [link](http://evil.example) @someone $x$ `tick`'

let sequence = 0

export function exchange(overrides: Partial<Exchange> = {}, status = 201, body = '{"id":1,"name":"x"}'): Exchange {
  sequence++
  return {
    id: `exchange-${sequence}`,
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 5,
    request: {
      method: 'POST',
      url: `${BASE_URL}/categories`,
      headers: { 'content-type': 'application/json', authorization: 'Bearer $CONFORM_API_KEY' },
      body: `{"name":"conform-${RUN_ID}-plain"}`,
    },
    response: {
      status,
      headers: { 'content-type': 'application/json', 'x-server': HOSTILE },
      body,
      bodyBytes: body.length,
      bodyTruncated: false,
    },
    ...overrides,
  }
}

export function check(name: string, status: Status, extra: Partial<CheckResult> = {}): CheckResult {
  const exchanges = extra.exchanges ?? (status === 'skip' ? [] : [exchange()])
  return {
    name,
    status,
    durationMs: 3,
    notes: [],
    reproduce: status === 'fail' ? exchanges.map(() => `curl -i -X POST '${BASE_URL}/categories' -H "authorization: Bearer $CONFORM_API_KEY"`) : [],
    exchanges,
    ...(status === 'fail' ? { failure: { code: 'UNEXPECTED_STATUS', message: `answered 201: ${HOSTILE}`, expected: 'status 400', actual: `status 201 ${HOSTILE}` } } : {}),
    ...(status === 'skip' ? { cause: 'read-only' as const, skipReason: 'not verified: --read-only sends no request that could create a record' } : {}),
    ...extra,
  }
}

/**
 * A RunResult over the whole catalogue, built by the same resultOf() a real run uses, so that the
 * reporters are tested on the verdicts, counts and ledger the product computes; `checksOf` gives
 * each rule's checks (default: one passing check). Each exchange is journalled as sent, and each
 * `ledger` entry as a POST whose 201 answer named the record.
 */
export function runResult(
  checksOf: (ruleId: string) => CheckResult[] = (id) => [check(`${id} check`, 'pass')],
  extra: { ledger?: LedgerEntry[]; problems?: RunProblem[]; readOnly?: boolean; maxWrites?: number; keptBack?: RunProblem[] } = {},
): RunResult {
  const byRule = new Map(ruleCatalogue().map((rule) => [rule.id, checksOf(rule.id)]))
  const exchanges = new Map([...byRule.values()].flat().flatMap((c) => c.exchanges).map((e) => [e.id, e]))
  const sent: JournalEntry[] = [...exchanges.values()].map((e) => ({
    id: e.id,
    at: e.startedAt,
    method: e.request.method,
    url: e.request.url,
    onWire: true,
    outcome: 'answered',
    ...(e.response ? { status: e.response.status } : {}),
  }))
  const created: JournalEntry[] = (extra.ledger ?? []).map((record) => ({
    id: record.exchangeId,
    at: '2026-01-01T00:00:00.000Z',
    method: 'POST',
    url: `${BASE_URL}/categories`,
    onWire: true,
    outcome: 'answered',
    status: record.status,
    mayHaveCreated: true,
    created: { id: record.id, name: record.name },
  }))
  const ledgerIds = new Set(created.map((e) => e.id))
  return resultOf(
    byRule,
    {
      tool: { name: 'petstore-categories-conformance', version: '0.0.0-test' },
      runId: RUN_ID,
      baseUrl: BASE_URL,
      embeddedServer: false,
      startedAt: new Date('2026-01-01T00:00:00.000Z'),
      durationMs: 1234,
      options: { readOnly: extra.readOnly ?? false, maxWrites: extra.readOnly ? 0 : (extra.maxWrites ?? 23), rules: [], timeoutMs: 10_000 },
      problems: extra.problems ?? [],
      ...(extra.keptBack !== undefined ? { keptBack: extra.keptBack } : {}),
      journal: [...sent.filter((e) => !ledgerIds.has(e.id)), ...created],
    },
    [],
  )
}

/**
 * Every check of every rule fails, ten per rule, with hostile text everywhere. Each failure reads
 * differently (#i in its actual), so no two share a cause: the most entries any report can get.
 */
export function everythingFails(): RunResult {
  return runResult(
    (id) =>
      Array.from({ length: 10 }, (_, i) =>
        check(`POST /categories ${HOSTILE} #${i} [${id}]`, 'fail', { failure: { code: 'UNEXPECTED_STATUS', message: `answered 201: ${HOSTILE}`, expected: 'status 400', actual: `status 201 ${HOSTILE} #${i}` } }),
      ),
    { problems: [{ kind: 'suite-error', message: `the server hung: ${HOSTILE}` }] },
  )
}

/** The failure of issue 11: a server that says status 400 in the Error record of every 401. */
export const STATUS_400_IN_401: FailureDetail = { code: 'ERROR_STATUS_MISMATCH', message: 'the Error record says status 400 in a 401 response', expected: '"status": 401', actual: '"status": 400' }

/** The way an unauthenticated request is made, for `n` differently named checks of one cause. */
export const ASKED_WITHOUT_KEY = [
  'GET /categories with no Authorization header',
  'GET /categories with an empty bearer token',
  'GET /categories with a wrong key',
  'POST /categories with the key under the Basic scheme',
  'GET /store/orders with the key without its last character',
]

/**
 * error-status-matches-http failed by `n` checks with one cause (STATUS_400_IN_401), one check
 * with another, and two passing; every other rule passes.
 */
export function oneCauseManyChecks(n: number, extra: Partial<CheckResult> = {}): RunResult {
  return runResult((id) =>
    id === 'error-status-matches-http'
      ? [
          check('GET /categories with a valid key → Error.status equals the HTTP status', 'pass'),
          ...Array.from({ length: n }, (_, i) =>
            check(`${ASKED_WITHOUT_KEY[i % ASKED_WITHOUT_KEY.length]}${i >= ASKED_WITHOUT_KEY.length ? ` (${i})` : ''} → Error.status equals the HTTP status`, 'fail', {
              failure: STATUS_400_IN_401,
              exchanges: [exchange({}, 401, '{"code":"unauthorized","message":"no key","status":400}')],
              ...extra,
            }),
          ),
          check('POST /categories with an array body → Error.status equals the HTTP status', 'fail', {
            failure: { code: 'ERROR_STATUS_MISMATCH', message: 'the Error record says status 401 in a 400 response', expected: '"status": 400', actual: '"status": 401' },
          }),
          check('POST /categories with no body → Error.status equals the HTTP status', 'pass'),
        ]
      : [check(`${id} check`, 'pass')],
  )
}

/** The failure of issue 11 whose difference is two leading and two trailing spaces. */
export const PADDED_NAME: FailureDetail = {
  code: 'FIELD_CHANGED',
  message: 'the created record changed "name"',
  expected: `name: "  conform-${RUN_ID}-padded  " (as sent)`,
  actual: `name: "conform-${RUN_ID}-padded"`,
}

/** create-echoes-fields fails with `failure` (default PADDED_NAME); every other rule passes. */
export function oneFailure(failure: FailureDetail = PADDED_NAME, ruleId = 'create-echoes-fields'): RunResult {
  return runResult((id) =>
    id === ruleId
      ? [check('POST /categories with a name with leading and trailing spaces → every field sent comes back unchanged', 'fail', { failure }), check('plain name', 'pass')]
      : [check(`${id} check`, 'pass')],
  )
}
