/**
 * POSTs that must be refused: 400 for a body that lacks name, holds a value of the wrong type or is
 * not JSON (§4.2 rule 1, §5.4, §7), 401 for a missing or invalid key (§5.3), each with an Error
 * record. And what a refusal means: nothing is created. Every body names itself with the run's
 * prefix, so the list sent after the run's POSTs would show a refused create that was stored.
 */
import { recordsHolding, shownValue } from '../../lib/checks/category.ts'
import { fail, NotApplicable } from '../../lib/checks/failure.ts'
import { statusOrigin } from '../../lib/checks/known-answers.ts'
import { describeStatus, jsonBodyOf, responseOf, statusFailure } from '../../lib/checks/response.ts'
import type { HttpResult } from '../../lib/http/client.ts'
import { check } from '../../lib/suite-kit/check.ts'
import { documentedErrorChecks, errorRecordChecks } from '../../lib/suite-kit/documented-error.ts'
import { createMarker } from '../cases/valid-creates.ts'
import { refusalsOf } from '../cases/valid-create.ts'
import { readableRecords, settledList } from './list-checks.ts'
import { acceptedCreates, keyRefusedOnCreates } from './create-checks.ts'
import type { CategoryProbes, CreateProbe, RefusalProbe } from './probes.ts'
import { refusedTheKey, type RecordedRequest } from '../../lib/http/exchange.ts'

/** The bytes of a request's body, as sent (the key never stands in a POST body). */
const bodyBytes = (request: RecordedRequest) => (request.bodyBase64 !== undefined ? Buffer.from(request.bodyBase64, 'base64').length : Buffer.byteLength(request.body ?? ''))

/**
 * A body that must be refused with 400, answered 413 (content too large): §8 shows no maximum size,
 * so a limit on the body's size that a gateway or a framework checks before reading it (nginx's
 * client_max_body_size) is the service's, and the drawn wrong-type values may exceed it. It holds
 * only when the service accepted no create body as large; one it did take shows no size limit.
 */
async function judgeTooLarge(result: HttpResult, creates: readonly CreateProbe[], t: { evidence(result: HttpResult): void }, status: 400 | 401): Promise<void> {
  if (responseOf(result).status !== 413) return
  const size = bodyBytes(result.exchange.request)
  const accepted = (await acceptedCreates(creates)).map((a) => ({ ...a, bytes: bodyBytes(a.result.exchange.request) }))
  const larger = accepted.find((a) => a.bytes >= size)
  if (!larger) {
    const largest = Math.max(0, ...accepted.map((a) => a.bytes))
    throw new NotApplicable(`not verified: answered 413 to a ${size}-byte body, larger than every create the service accepted (the largest: ${largest} bytes): a limit on the body's size, and maximum sizes are not shown (§8)`, 'length-limit')
  }
  t.evidence(larger.result)
  fail(
    {
      code: 'UNEXPECTED_STATUS',
      message: `POST answered 413 to a ${size}-byte body, yet 201 to a create of ${larger.bytes} bytes: no limit on the body's size, expected ${status}`,
      expected: `status ${status}`,
      actual: `status 413; a ${larger.bytes}-byte create: 201`,
      observed: 'status 413',
    },
    result.exchange,
  )
}

/**
 * A body that must be refused with 400, answered 401 with the key, when every create sent with that
 * key was answered 401 or 403 too (while the run's GETs were not: a key refused everywhere is the
 * run's key-refused problem): the service refused the key on POST before it read any body (a key
 * without write permission, a write route behind another authorizer). create-returns-201 fails
 * for that one fault; the refusals judge nothing of the body, and are not probed again for it.
 */
async function judgeKeyRefusedOnCreates(result: HttpResult, creates: readonly CreateProbe[], status: 400 | 401): Promise<void> {
  if (status !== 400 || !refusedTheKey(result.exchange)) return
  const refused = await keyRefusedOnCreates(creates)
  if (refused) throw new NotApplicable(`not verified: answered ${responseOf(result).status}, as all ${refused.creates} creates sent with the key were answered ${refused.statuses}: the service refused the key on POST before reading the body; create-returns-201 reports it`, 'key-refused')
}

/** What a refusal's answer is judged by before its status: a 413 to a large body, the key refused on every POST, a 415 to a body sent as another media type. */
const judgedFirst = (r: RefusalProbe, creates: readonly CreateProbe[]) => async (result: HttpResult, t: { evidence(result: HttpResult): void }) => {
  await judgeKeyRefusedOnCreates(result, creates, r.status)
  if (r.mayRefuseMediaType && responseOf(result).status === 415) {
    throw new NotApplicable(`not verified: answered 415, refusing the body's media type (${result.exchange.request.headers['content-type']}): the document asks clients for application/json (§4.2, §5.4), and nothing was created`)
  }
  await judgeTooLarge(result, creates, t, r.status)
}

/** The status a refusal must get; a body a conforming parser may take (a byte order mark) may get 201 with its name. */
function refusalStatusCheck(r: RefusalProbe, creates: readonly CreateProbe[]): void {
  const accept = r.mayAcceptAs
  // a gateway's limit on the body's size comes before the key and the body are read: a 413 is judged first, whatever the refusal
  if (!accept) return documentedErrorChecks(r.label, r.probe, r.rule, r.status, r.acceptedMeans, judgedFirst(r, creates))
  check(r.rule, `${r.label} → ${r.status}, or 201 because ${accept.why}`, async (t) => {
    const result = await t.use(r.probe)
    await judgeKeyRefusedOnCreates(result, creates, r.status)
    const response = responseOf(result)
    if (response.status === r.status) return
    if (response.status !== 201) {
      // both answers it may get are named: "expected 400" alone read as though a 201 were wrong too
      const origin = statusOrigin(response, r.status, result.exchange.request)
      fail(
        {
          ...statusFailure(response),
          message: `POST answered ${describeStatus(response)}, expected ${r.status}, or 201 since ${accept.why}${origin ? `: ${origin}` : ''}`,
          expected: `status ${r.status}, or 201 with name ${shownValue(accept.name())}`,
          actual: `status ${describeStatus(response)}`,
        },
        result.exchange,
      )
    }
    const record = jsonBodyOf(result) as { name?: unknown } | null
    if (record?.name === accept.name()) return
    fail(
      {
        code: 'FIELD_CHANGED',
        message: `POST answered 201 but the record does not carry the name sent`,
        expected: `${r.status}, or 201 with name ${shownValue(accept.name())}`,
        actual: `201 with name ${shownValue(record?.name)}`,
      },
      result.exchange,
    )
  })
  errorRecordChecks(r.label, r.probe, r.rule, r.status)
}

/** The failure when the list shows what a refused POST sent. */
function expectNotStored(refused: HttpResult, list: HttpResult, marker: string, rule: string): void {
  const stored = recordsHolding(readableRecords(list), marker)
  if (stored.length === 0) return
  const status = responseOf(refused).status
  fail(
    {
      code: 'REFUSED_CREATE_STORED',
      message: `the POST answered ${status} was stored: the list shows ${stored[0].name === undefined ? `a record without a name holding ${shownValue(marker)}` : shownValue(stored[0].name)}`,
      expected: `no category created by a request answered ${status} (${rule})`,
      actual: `${stored.length} listed ${stored.length === 1 ? 'category holds' : 'categories hold'} ${shownValue(marker)}`,
    },
    refused.exchange,
    list.exchange,
  )
}

/** The answer of a POST when it was refused with `statuses`; otherwise nothing to judge. */
async function refusedWith(probe: () => Promise<HttpResult>, statuses: readonly number[]): Promise<HttpResult> {
  const result = await probe()
  const response = responseOf(result)
  if (!statuses.includes(response.status)) throw new NotApplicable(`answered ${describeStatus(response)}, not a refusal (${statuses.join(' or ')})`)
  return result
}

export function refusalChecks(probes: CategoryProbes): void {
  for (const r of probes.refusals) {
    refusalStatusCheck(r, probes.creates)
    const marker = r.marker
    if (!marker) continue
    // the list must be read after this refusal was answered, whatever order the checks run in
    const sentBefore = [{ gate: probes.lastListWaits, probe: r.probe }]
    check(
      r.rule,
      `${r.label} → refused, so the list that follows does not show it`,
      async (t) => {
        const refused = await t.use(() => refusedWith(r.probe, r.mayRefuseMediaType ? [400, 401, 415] : [400, 401]))
        const { lists, judged } = await settledList(probes)
        t.evidence(...lists)
        expectNotStored(refused, judged, marker(), r.rule)
      },
      { sentBefore },
    )
  }
  // a create may be refused for its lengths (§8), an empty value, a repeated name: each refusal
  // says the create did not happen; one the list then shows was taken, and not answered 201
  for (const c of probes.creates.filter((c) => c.case.mayRefuse)) {
    const refusals = refusalsOf(c.case)
    check('create-returns-201', `${c.label} → if refused (${refusals.join(', ')}), the list that follows does not show it`, async (t) => {
      const refused = await t.use(c.probe)
      if (!refusals.includes(responseOf(refused).status)) return // a claim about refusals, which holds when there is none
      const { lists, judged } = await settledList(probes)
      t.evidence(...lists)
      expectNotStored(refused, judged, createMarker(c.case, await c.sent()), 'create-returns-201')
    })
  }
}
