/**
 * §4.2 createCategory with valid bodies: 201 and a Category record carrying every field sent,
 * unchanged, plus an int64 id. A body with a long string may be refused instead (§8 shows no
 * maximum length): with 400 and an Error record (§7), or 413, a status §7 does not show.
 */
import { expectEchoedFields, expectNewRecord, expectServiceAssignedId, type CategoryRecord, type NewCategory } from '../../lib/checks/category.ts'
import type { HttpResult } from '../../lib/http/client.ts'
import { refusedTheKey, serverFaultStatus } from '../../lib/http/exchange.ts'
import { describeStatus, expectJsonContentType, expectStatus, requireStatus, responseOf, statusFailure } from '../../lib/checks/response.ts'
import { conformingBody, expectSchema } from '../../lib/checks/schema.ts'
import { fail, NotApplicable } from '../../lib/checks/failure.ts'
import { check } from '../../lib/suite-kit/check.ts'
import { expectErrorRecord, expectErrorStatusMatches, expectStatusOfAnyErrorRecordMatches, JUDGED_ERROR_STATUSES } from '../../lib/checks/error-record.ts'
import { readableRecords } from './list-checks.ts'
import { ownNameConflict, takenRepeat, unlistedRepeat } from './repeated-names.ts'
import { characterFaultWords, refusedCharactersOrigin } from '../../lib/checks/sql-store-answers.ts'
import { LENGTH_REFUSED_422 } from '../../lib/checks/php-ruby-answers.ts'
import { awsPolicyCached } from '../../lib/checks/gateway-answers.ts'
import { sameNameToAStore } from '../../lib/checks/collated-names.ts'
import type { CategoryProbes, CreateProbe, LengthFollowUp } from './probes.ts'
import { DESCRIPTION_FLOOR, NAME_FLOOR } from '../cases/valid-creates.ts'
import { REPEATED_NAME_REFUSALS } from '../cases/valid-create.ts'
import { keptAliveCreatesCheck } from './kept-alive-creates.ts'
import { acceptedABodyAsLarge, bodyBytes, byteSizesOf, expectControlTells, graphemes, LENGTH_REFUSALS, utf8Bytes } from './accepted-sizes.ts'
import { CHUNKED_REFUSED, CHUNKED_TO_HTTP_1_0, inPiecesRefused, NO_ACCEPT_REFUSED, unreadBodyRefused } from './refused-sending.ts'

const STATUS_REPORTED = 'create-returns-201 reports the status'
/**
 * The answers whose record §4.2 rule 2 judges: a 201, and a 200, which answers a create with its
 * record as often (create-returns-201 fails it for its status alone): so that a service whose 200
 * is a known deviation (--baseline) still has its records judged, and a new fault in them shows.
 */
const ANSWERED_WITH_A_RECORD = [201, 200]

/** What a create's server fault (5xx but 503, and a gateway's 504 or Cloudflare's 521 to 524: no answer in time, which no value nor a store's refusal explains) says of the service (its case's words, read against the answer; a store's refusal of its characters), or a 422's; '' for any other. */
function faultNote(c: CreateProbe, result: HttpResult): string {
  const { status } = responseOf(result)
  const means = c.case.faultMeans
  const words = characterFaultWords(result.exchange.request.body, result.text ?? '', means === undefined || typeof means === 'string' ? means : means(result.text ?? ''))
  if (serverFaultStatus(status) && status !== 503 && status !== 504 && !(status >= 521 && status <= 524)) return words ? `: ${words}` : ''
  return status === 422 ? `: ${LENGTH_REFUSED_422}` : ownNameConflict(c, status)
}

/** A create with a short form: a refusal (400, 413) holds only if plain ASCII of the same sizes is refused too (§8: a length limit, not the characters). */
function refusedForLengthCheck(c: CreateProbe, creates: readonly CreateProbe[]): void {
  check('create-returns-201', `${c.label} → 201, or 400 or 413 for its lengths, which plain ASCII of the same sizes then gets too`, async (t) => {
    const result = await t.use(c.probe)
    const { status } = responseOf(result)
    if (status === 201) return
    await expectKeyServedOnCreates(result, creates)
    if (!LENGTH_REFUSALS.includes(status)) {
      fail(
        { ...statusFailure(responseOf(result)), message: `POST answered ${describeStatus(responseOf(result))}, expected 201 (or a refusal for length: 400, 413)${faultNote(c, result)}`, expected: 'status 201, or 400 or 413 because lengths are not shown (§8)', actual: `status ${describeStatus(responseOf(result))}` },
        result.exchange,
      )
    }
    const followUp = (await c.lengthFollowUp!()) as LengthFollowUp
    const control = responseOf(followUp.sameSize)
    t.evidence(followUp.sameSize)
    expectControlTells(followUp.sameSize, result)
    if (control.status !== 201) return
    const sent = await c.sent()
    const byteSizes = (values: NewCategory) => `a ${Buffer.byteLength(values.name)}-byte name${values.description === undefined ? '' : ` and a ${Buffer.byteLength(values.description)}-byte description`}`
    // the control's body was made as long as the refused one (probes.ts sameSizeAscii): a body limit counts the body
    const controlText = followUp.sameSize.exchange.request.body ?? ''
    const controlValues = JSON.parse(controlText) as NewCategory
    const last = (values: NewCategory) => Buffer.byteLength(values.description ?? values.name)
    const like =
      last(controlValues) > last(sent)
        ? `plain ASCII at least as long (${byteSizes(controlValues)}, in a body of ${Buffer.byteLength(controlText)} bytes, the refused one's ${Buffer.byteLength(result.exchange.request.body ?? '')})`
        : `plain ASCII of the same sizes (${byteSizes(sent)})`
    const whyRefused = refusedCharactersOrigin(sent, responseOf(result).body)
    // the control goes whole: a refusal of the body in pieces may be of how it came
    const { splitAt } = result.exchange.request
    const early = splitAt !== undefined && result.exchange.answeredBeforeWritten === true // answered on the first piece: how it came, not what it holds
    fail(
      {
        code: 'REFUSED_FOR_CONTENT',
        // the control goes as JSON.stringify writes it: a create written otherwise may be refused for its layout
        message: early ? `POST answered ${status} to these values, yet 201 to ${like}: ${inPiecesRefused(splitAt, true)}` : `POST answered ${status} to these values, yet 201 to ${like}: the service refused their characters${c.case.writtenAs ? `, or how the body was written (${c.case.writtenAs})` : ''}, not their lengths${splitAt !== undefined ? `, or how the body was sent: ${inPiecesRefused(splitAt)}` : ''}${whyRefused ? `; ${whyRefused}` : ''}`,
        expected: 'status 201: the values are valid strings (§4.2 rule 2), and a length the service accepts',
        actual: `status ${status}; plain ASCII at least as long: 201`,
      },
      // the refused POST last: the evidence's last exchange is the one the check judged, which reports repeat
      followUp.sameSize.exchange,
      result.exchange,
    )
  })
}

/** Printable ASCII only: a refusal of such values can be of their lengths, not of their characters. */
const PLAIN_ASCII = /^[\x20-\x7e]*$/
/** Characters (code points): in plain ASCII every count (graphemes, UTF-16 units, UTF-8 bytes) gives as many; an accepted value is measured in graphemes, the fewest (accepted-sizes.ts). */
const characters = (text: string | undefined) => [...(text ?? '')].length
const sizesOf = (sent: NewCategory) => `a ${characters(sent.name)}-character name${sent.description === undefined ? '' : ` and a ${characters(sent.description)}-character description`}`

/** The run's creates the service answered 201, with what each sent; those not sent (--max-writes, --rule) are left out. */
export async function acceptedCreates(creates: readonly CreateProbe[]): Promise<{ sent: NewCategory; result: HttpResult }[]> {
  const answered = await Promise.allSettled(creates.map(async (c) => ({ sent: await c.sent(), result: await c.probe() })))
  return answered.flatMap((a) => (a.status === 'fulfilled' && a.value.result.exchange.response?.status === 201 ? [a.value] : []))
}

/** Fewer creates than this, every one refused the key, say too little (a --rule run of one check). */
const ENOUGH_CREATES = 3

/**
 * When every create sent with the key was refused it (401 or 403), and enough were sent to say so:
 * how many, and "401" or "401 or 403"; undefined otherwise.
 */
export async function keyRefusedOnCreates(creates: readonly CreateProbe[]): Promise<{ creates: number; statuses: string } | undefined> {
  const answered = (await Promise.allSettled(creates.map((c) => c.probe()))).flatMap((a) => (a.status === 'fulfilled' && a.value.exchange.response ? [a.value.exchange] : []))
  if (answered.length < ENOUGH_CREATES || !answered.every(refusedTheKey)) return undefined
  return { creates: answered.length, statuses: [...new Set(answered.map((e) => e.response!.status))].join(' or ') }
}

/**
 * create-returns-201's one finding for a key refused on every POST, its GETs served: the same words
 * for every create, whatever else its check allows (a refusal for length, a short form), so that
 * the reports show one cause.
 */
async function expectKeyServedOnCreates(result: HttpResult, creates: readonly CreateProbe[]): Promise<void> {
  const refused = refusedTheKey(result.exchange) ? await keyRefusedOnCreates(creates) : undefined
  if (!refused) return
  fail(
    {
      ...statusFailure(responseOf(result)),
      message: `POST answered ${describeStatus(responseOf(result))}, expected 201: the key may read but not create (all of ${refused.creates} creates sent with the key were answered ${refused.statuses}, its other requests were served): ${awsPolicyCached(responseOf(result))?.concat('.') ?? 'a key without write permission, or a write route behind another authorizer?'} Give a key that may create, or --read-only to judge the rest without writes`,
      expected: 'status 201 (§5: the issued key gives access to every operation)', actual: `status ${describeStatus(responseOf(result))}`,
    },
    result.exchange,
  )
}

/**
 * A create no freedom lets the service refuse: 201. Lengths are not shown (§8), so a refusal (400,
 * 413) is a length limit the suite cannot verify below, unless the service took another create whose
 * name and description were each at least as long, in graphemes, as these are in UTF-8 bytes (review47:
 * an emoji makes a 12-character name 13 UTF-16 units and 15 bytes, past Java's @Size(max = 12)): then not. A service that took no create at all cannot be told from one that refuses every create: it fails.
 */
function plainCreateCheck(c: CreateProbe, creates: readonly CreateProbe[], lastList: CategoryProbes['lastList']): void {
  const earlierRun = earlierRunAllowance(c)
  const chunked = c.case.chunked === true
  check('create-returns-201', `${c.label} → 201${chunked ? ', or 411 Length Required (RFC 9110 §15.5.12: a server may demand a Content-Length)' : ''}${earlierRun}`, async (t) => {
    const result = await t.use(c.probe)
    const { status } = responseOf(result)
    if (chunked && status === 411) return
    // RFC 9112 §6.1: a client must not send Transfer-Encoding to a server it does not know to handle
    // HTTP/1.1, and one that answers in HTTP/1.0 (Python's http.server by default) need not read it
    if (chunked && status !== 201 && responseOf(result).httpVersion === '1.0') throw new NotApplicable(`not verified: answered ${status} in HTTP/1.0: ${CHUNKED_TO_HTTP_1_0}`)
    if (await excusedAsRepeat(c, result, creates, lastList, t)) return
    await expectKeyServedOnCreates(result, creates)
    const sent = await c.sent()
    if (status === 201 || !LENGTH_REFUSALS.includes(status)) return expectStatus(result, 201, undefined, status >= 500 ? faultNote(c, result) : ownNameConflict(c, status))
    const ascii = PLAIN_ASCII.test(sent.name + (sent.description ?? ''))
    const [most, refused] = ascii ? [characters, `${sizesOf(sent)} in plain ASCII`] : [utf8Bytes, `${byteSizesOf(sent)}, not plain ASCII`]
    const accepted = await acceptedCreates(creates)
    // as long by the fewest count a service may use (graphemes: Ecto's) as the sent by the most (UTF-8 bytes: Oracle's), and a body as large (a body limit)
    const longer = acceptedABodyAsLarge(accepted, result) ? accepted.find((a) => graphemes(a.sent.name) >= most(sent.name) && graphemes(a.sent.description) >= most(sent.description)) : undefined
    if (longer) {
      fail(
        {
          ...statusFailure(responseOf(result)),
          message: `POST answered ${describeStatus(responseOf(result))} to ${refused}, yet 201 to ${sizesOf(longer.sent)}: not a length limit but what the values hold (${c.label.replace(/^POST \/categories with /, '')}), which §2 leaves any string${chunked && status === 400 ? `, or how they were sent: ${CHUNKED_REFUSED}` : ''}${c.case.sentAs?.accept === '' ? `, or how they were sent: ${NO_ACCEPT_REFUSED}` : ''}${c.case.writtenAs ? `, or how the body was written: ${c.case.writtenAs}` : ''}; expected 201`,
          expected: 'status 201: the values are valid (§4.2 rule 2), and no longer than values the service accepted',
          actual: `status ${describeStatus(responseOf(result))}; ${sizesOf(longer.sent)}: 201`,
        },
        longer.result.exchange,
        result.exchange,
      )
    }
    const unread = accepted.length === 0 && status === 400 ? unreadBodyRefused(result.exchange.request, responseOf(result).body, { chunked, ...(c.case.writtenAs ? { writtenAs: c.case.writtenAs } : {}) }) : undefined
    if (unread) fail({ ...statusFailure(responseOf(result)), message: `POST answered 400, expected 201: ${unread}`, expected: 'status 201', actual: 'status 400' }, result.exchange)
    if (accepted.length === 0) return expectStatus(result, 201)
    throw new NotApplicable(
      `not verified: the service refused ${refused} (${status}) and accepted only shorter values or smaller bodies: a length limit, and lengths are not shown (§8)`,
      'length-limit',
    )
  })
}

/** A short form: 201, unless the service refuses even the first create's lengths, which every short form fits (valid-creates.ts, NAME_FLOOR). */
function shortFormCheck(c: CreateProbe, shortOf: NonNullable<CreateProbe['shortOf']>, creates: readonly CreateProbe[]): void {
  check('create-returns-201', `${c.label} → 201`, async (t) => {
    const result = await t.use(c.probe)
    const { status } = responseOf(result)
    if (status === 201) return
    await expectKeyServedOnCreates(result, creates)
    const floor = await t.use(shortOf.floor.probe)
    if (floor.exchange.response?.status !== 201) {
      throw new NotApplicable(`not verified: the service refused even the first create's ${NAME_FLOOR}-character name and ${DESCRIPTION_FLOOR}-character description, the lengths every short form fits`, 'length-limit')
    }
    if (LENGTH_REFUSALS.includes(status) && !acceptedABodyAsLarge(await acceptedCreates(creates), result)) {
      throw new NotApplicable(`not verified: the service refused a ${bodyBytes(result)}-byte body (${status}) and accepted none as large: a size limit, and sizes are not shown (§8)`, 'length-limit')
    }
    const whyRefused = status === 400 || status === 422 ? refusedCharactersOrigin(await c.sent(), responseOf(result).body) : undefined
    const { splitAt } = result.exchange.request
    const early = splitAt !== undefined && result.exchange.answeredBeforeWritten === true // answered on the first piece: no store is why
    const causes = early ? [inPiecesRefused(splitAt, true)] : [...(splitAt !== undefined && status === 400 ? [inPiecesRefused(splitAt)] : []), ...(whyRefused ? [whyRefused] : [])]
    fail(
      {
        ...statusFailure(responseOf(result)),
        message: `POST answered ${describeStatus(responseOf(result))} to values that fit the lengths the service accepted (a ${NAME_FLOOR}-character name and a ${DESCRIPTION_FLOOR}-character description, in the first create), expected 201${causes.length > 0 ? `: ${causes.join('; or ')}` : ''}`,
        expected: 'status 201',
        actual: `status ${describeStatus(responseOf(result))}`,
      },
      floor.exchange,
      result.exchange,
    )
  })
}

/** What a create whose name every run sends alike may be answered besides, in a check's name. */
const earlierRunAllowance = (c: CreateProbe): string => (c.case.nameOfEveryRun ? `, or ${REPEATED_NAME_REFUSALS.join(' or ')} when the list shows an earlier run's record of this name` : '')

/**
 * A 409 or a 400 to a create whose name every run sends alike (valid-create.ts, nameOfEveryRun) is a
 * repeated name's, which a service may refuse as create-repeated-name's may be, when the list shows
 * a record of that name (as a store's collation compares names: "0 " is "0" to MariaDB's default)
 * that this create did not make (its description is another run's or another client's), and the
 * service refused this run's own repeated name (create-repeated-name) with the same status, when
 * that one was answered and the first of its name taken: a service that took it (or, when it says nothing, another
 * name every run sends where the list shows one: repeated-names.ts) refuses no repeats, and its 400 to "0" is PHP's empty().
 */
async function excusedAsRepeat(
  c: CreateProbe,
  result: HttpResult,
  creates: readonly CreateProbe[],
  lastList: CategoryProbes['lastList'],
  t: { evidence(result: HttpResult): void },
): Promise<boolean> {
  const { status } = responseOf(result)
  if (!c.case.nameOfEveryRun || !REPEATED_NAME_REFUSALS.includes(status)) return false
  const [sent, { list }] = await Promise.all([c.sent(), lastList()])
  t.evidence(list)
  // the same name as the store compares names (collated-names.ts): MariaDB's default collation refuses "0" where another client stored "0 "
  // listed with this create's own description alone: the refused create was stored, no repeat of another's (review54)
  const listed = readableRecords(list).filter((record) => typeof record.name === 'string' && sameNameToAStore(record.name, sent.name))
  if (!listed.some((record) => record.description !== sent.description)) return listed.length === 0 && unlistedRepeat(c, result, creates, t)
  const repeats = creates.find((p) => p.case.repeats)
  const [repeated, first] = await Promise.all([repeats, creates.find((p) => p.case.key === repeats?.case.repeats)].map((p) => p?.probe().catch(() => undefined)))
  const again = repeated?.exchange.response?.status
  // a name refused the first time (a name column of 12) was never repeated: its second answer says nothing of repeats; another name every run sends, taken where one was listed, may
  const inconclusive = repeated === undefined || again === undefined || (first?.exchange.response !== undefined && first.exchange.response.status !== 201)
  const other = inconclusive ? await takenRepeat(c, creates, list) : undefined
  if (other === undefined && (inconclusive || again === status)) return true
  t.evidence(other?.result ?? repeated!)
  return fail(
    {
      ...statusFailure(responseOf(result)),
      message: `POST answered ${describeStatus(responseOf(result))}, expected 201: the list shows an earlier run's record of this name, but ${other ? `this run's ${JSON.stringify(other.name)} got 201, though the list shows an earlier record of that name` : `this run's own repeated name (create-repeated-name) got ${again}, not ${status}`}: the service refused the name itself, not a repeat`,
      expected: 'status 201: the values are valid (§4.2 rule 2); a repeated name may be refused as the service refuses repeats',
      actual: `status ${describeStatus(responseOf(result))}`,
    },
    result.exchange,
  )
}

/** The status a create was answered; NotApplicable when it was not answered. */
function answeredStatus(result: HttpResult): number {
  if (!result.exchange.response) throw new NotApplicable(`no response to judge: ${result.exchange.error?.message ?? 'transport error'}`)
  return result.exchange.response.status
}

export function createChecks(creates: readonly CreateProbe[], lastList: CategoryProbes['lastList']): void {
  for (const c of creates) {
    const refusable = c.case.mayRefuse
    if (c.shortOf) shortFormCheck(c, c.shortOf, creates)
    else if (c.lengthFollowUp) refusedForLengthCheck(c, creates)
    else if (refusable) {
      const refusals = c.case.refusals ?? LENGTH_REFUSALS
      const earlierRun = earlierRunAllowance(c)
      check('create-returns-201', `${c.label} → 201, or ${refusals.join(' or ')} because ${refusable}${earlierRun}`, async (t) => {
        const result = await t.use(c.probe)
        const { status } = responseOf(result)
        if (status === 201 || refusals.includes(status)) return
        await expectKeyServedOnCreates(result, creates)
        if (await excusedAsRepeat(c, result, creates, lastList, t)) return
        fail(
          {
            ...statusFailure(responseOf(result)),
            message: `POST answered ${describeStatus(responseOf(result))}, expected 201 (or a refusal: ${refusals.join(', ')})${faultNote(c, result)}`,
            expected: `status 201, or ${refusals.join(' or ')} because ${refusable}`,
            actual: `status ${describeStatus(responseOf(result))}`,
          },
          result.exchange,
        )
      })
    } else plainCreateCheck(c, creates, lastList)
    // conditional claims, on every create (a plain one may be refused for its lengths too): they
    // judge a refusal, and hold when there is none (a 409 or 422, statuses §7 does not show, is the
    // service's own all the same: its body is an Error record too, JUDGED_ERROR_STATUSES; a 413 may be a front's). No answer is no verdict, not a pass: create-returns-201 says that one, once;
    // passed, these made error-body-is-error-record a rule "passed" against a server that answered
    // no request of the run. A 400 is declared application/json as every other error is (§4): a
    // length refusal is often written apart from the service's other errors (Go's http.Error with
    // the record's text, which declares text/plain)
    check('error-body-is-error-record', `${c.label} → if refused with 400, 409 or 422, the body is an Error record`, async (t) => {
      const result = await t.use(c.probe)
      if (JUDGED_ERROR_STATUSES.some((s) => s !== 401 && s === answeredStatus(result))) expectErrorRecord(result)
    })
    // and a refusal in another status (413) that carries an Error record all the same: the
    // record's status is the HTTP status of its response (§2), whatever that status is
    check('error-status-matches-http', `${c.label} → if refused, an Error record says the status of its response`, async (t) => {
      const result = await t.use(c.probe)
      const status = answeredStatus(result)
      if (status !== 401 && JUDGED_ERROR_STATUSES.some((s) => s === status)) expectErrorStatusMatches(result)
      else if (status > 401 && status < 500) expectStatusOfAnyErrorRecordMatches(result)
    })
    check('json-content-type', `${c.label} → if refused with 400, the error is application/json`, async (t) => {
      const result = await t.use(c.probe)
      if (answeredStatus(result) === 400) expectJsonContentType(result)
    })
    const repeated = c.case.repeats
    if (repeated) {
      check('ids-unique', `${c.label} → if created, a new record: its id is not the first one's`, async (t) => {
        const result = await t.use(c.probe)
        if (result.exchange.response?.status !== 201) throw new NotApplicable(`not verified: the repeated name was refused (${describeStatus(responseOf(result))}), as a service may`)
        const first = creates.find((other) => other.case.key === repeated) as CreateProbe
        const earlier = await t.use(first.probe)
        if (earlier.exchange.response?.status !== 201) throw new NotApplicable('not verified: the first create with this name was not answered 201')
        expectNewRecord(result, earlier)
      })
    }
    check('create-returns-category', `${c.label} → a Category record with an int64 id`, async (t) => {
      const result = await t.use(c.probe)
      requireStatus(result, ANSWERED_WITH_A_RECORD, STATUS_REPORTED)
      expectSchema(result, 'Category')
    })
    check('create-echoes-fields', `${c.label} → every field sent comes back unchanged`, async (t) => {
      const result = await t.use(c.probe)
      requireStatus(result, ANSWERED_WITH_A_RECORD, STATUS_REPORTED)
      expectEchoedFields(await c.sent(), result)
    })
    const sentId = c.sentId
    if (sentId) {
      check('create-returns-category', `${c.label} → the record's id is one the service assigned, not the one sent`, async (t) => {
        const result = await t.use(c.probe)
        requireStatus(result, ANSWERED_WITH_A_RECORD, STATUS_REPORTED)
        const record = conformingBody(result, 'Category', 'create-returns-category') as CategoryRecord
        expectServiceAssignedId(await sentId(), record, result, c.case.idTakenMeans)
      })
    }
    check('json-content-type', `${c.label} → the record is application/json`, async (t) => {
      const result = await t.use(c.probe)
      requireStatus(result, ANSWERED_WITH_A_RECORD, STATUS_REPORTED)
      expectJsonContentType(result)
    })
  }
  keptAliveCreatesCheck(creates, lastList)
}
