/**
 * Servers that answer garbage: each scenario must fail the checks concerned with a message that
 * says what came back, and nothing else: no crash, no unhandled rejection, exit 1 (the server is
 * wrong; the run itself was made), no stack trace.
 */
import { afterAll, describe, expect, test } from 'vitest'
import { runConform, type ConformRun } from '../helpers/run-conform.ts'
import {
  contentLengthTooLong,
  contentLengthTooShort,
  htmlInsteadOfJson,
  nestedDeep,
  serverErrors,
  truncatedJson,
  type HostileServer,
} from './hostile-servers.ts'
import { RUN_TIMEOUT_MS, expectCleanFailure, failedChecks } from './expect-run.ts'

const KEY = { CONFORM_API_KEY: 'garbage-test-key-4d8e21' }
const LIST_200 = "GET /categories with a valid key, as curl --compressed asks (Accept: */*, every coding) → 200"
const LIST_ARRAY = "GET /categories with a valid key, as curl --compressed asks (Accept: */*, every coding) → an array of Category records"

interface Scenario {
  name: string
  start: () => Promise<HostileServer>
  /** The check to look at, and what its failure message must say. */
  check: string
  message: RegExp
  /** The one problem beside the checks: its answers together pass what the run keeps (4 × --max-response-bytes), or bytes came after their ends (stray answers). */
  problem?: 'response-cap' | 'stray-answer'
}

// a connection reset on every request answers nothing: the run is incomplete (answers-nothing.test.ts), no failure
const SCENARIOS: Scenario[] = [
  {
    name: 'an HTML page where JSON is due',
    start: htmlInsteadOfJson,
    check: LIST_ARRAY,
    message: /^the 200 body is not valid JSON/,
  },
  { name: '503 to everything', start: serverErrors, check: LIST_200, message: /^GET answered 503 \(a server fault, which the document gives no request it describes; a gateway's limit answers 503 too: try --rate-limit, --concurrency\), expected 200$/ },
  {
    name: 'JSON cut off mid-record',
    start: truncatedJson,
    check: LIST_ARRAY,
    message: /^the 200 body is not valid JSON/,
  },
  {
    name: 'a Content-Length longer than the body, then the connection closes',
    start: contentLengthTooLong,
    check: LIST_200,
    message: /^no complete response: the 200 response's body broke off after 26 bytes of the 526 its Content-Length declared/,
  },
  {
    name: 'a Content-Length shorter than the body (the rest is garbage on the connection)',
    start: contentLengthTooShort,
    check: LIST_ARRAY,
    message: /^the 200 body is not valid JSON/,
    // the body's rest came after the answer's end: read as no answer, it is one problem (lib/result/stray-answers.ts)
    problem: 'stray-answer',
  },
  {
    name: '3 MB of arrays nested 1,500,000 deep (JSON.parse takes about a second on each)',
    start: nestedDeep,
    check: LIST_ARRAY,
    message: /^the 200 body is not JSON this client reads: arrays and objects nested more than 10000 levels deep/,
    // 3 MB an answer passes the 4 × --max-response-bytes the run keeps of all: the later answers are not read whole (response-cap.ts)
    problem: 'response-cap',
  },
  // bytes that are not HTTP to every request: no verdict (exit 2), the port is another service's (test/cli/base-url-not-found.test.ts)
]

const servers: HostileServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
})

describe.concurrent('a server that answers garbage', { timeout: RUN_TIMEOUT_MS }, () => {
  for (const scenario of SCENARIOS) {
    test(`${scenario.name} → the checks concerned fail and say so; exit 1, no crash`, async () => {
      const server = await scenario.start()
      servers.push(server)
      const run = await runConform(['--base-url', server.baseUrl, '--timeout', '5000'], { env: KEY, killAfterMs: 100_000 })
      runs.push(run)
      if (scenario.problem) {
        expectCleanFailure({ ...run, results: { ...run.results!, problems: run.results!.problems.filter((p) => p.kind !== scenario.problem) } })
        expect(run.results!.problems.map((p) => p.kind)).toEqual([scenario.problem])
      } else expectCleanFailure(run)
      // past the cap, which answers were read whole depends on the order they came in: under a full
      // npm test's load the list read with the key was once among those not read (not verified), and
      // the failure is then another check's of the same body (1 run in 3 full runs, 07:05)
      const check = failedChecks(run).find((c) => c.name === scenario.check) ?? (scenario.problem === 'response-cap' ? failedChecks(run).find((c) => scenario.message.test(c.failure?.message ?? '')) : undefined)
      expect(check, `failed checks: ${failedChecks(run).map((c) => c.name).join('\n')}`).toBeDefined()
      expect(check!.failure?.message).toMatch(scenario.message)
      // the evidence goes with the failure: the request, and a curl line with the key as a variable
      expect(check!.reproduce[0]).toContain('$CONFORM_API_KEY')
    })
  }
})
