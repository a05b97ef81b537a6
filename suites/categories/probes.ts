/**
 * Every request of the run to /categories, built once for suites/areas/categories.ts: the list
 * sent first, every declared POST, and the list that follows them all. Built once per run, by one
 * suite, because the whole-run invariants compare them: probes built apart could not be compared
 * (or would be sent twice). The last list waits for every create, and for what the selected
 * checks that compare it declared (`lastListWaits`): the verdicts do not depend on the order the
 * checks run in (test/runner/checks-one-at-a-time.test.ts runs them one after another).
 */
import { idOf, type CategoryRecord, type NewCategory } from '../../lib/checks/category.ts'
import { conformingBody } from '../../lib/checks/schema.ts'
import { NotApplicable } from '../../lib/checks/failure.ts'
import type { HttpResult } from '../../lib/http/client.ts'
import { Gate, once } from '../../lib/suite-kit/check.ts'
import type { Run } from '../../lib/suite-kit/run-context.ts'
import { CREDENTIAL_CASES, unauthenticatedCreateKey, VALID_AUTHORIZATION } from '../cases/credentials.ts'
import { caseMarker } from '../cases/case-markers.ts'
import { INVALID_BODIES } from '../cases/invalid-bodies.ts'
import { INVALID_JSON_RULE, MALFORMED_BODIES, malformedMarker } from '../cases/malformed-json.ts'
import { postCategory } from '../cases/post-probes.ts'
import { holding, NOTHING_TO_FIND, sameRecord } from '../cases/lost-answers.ts'
import { createText, DESCRIPTION_FLOOR, NAME_FLOOR, textOfLength, VALID_CREATES, type ValidCreate } from '../cases/valid-creates.ts'
import { sameSizeKey, shortFormKey } from '../cases/write-order.ts'
import { carriesMarker, INVALID_VALUES_RULE, wrongTypeCases } from '../cases/wrong-types.ts'
import { wrongTypeBody } from '../cases/wrong-type-values.ts'
import { rereadWaits, waitToReread, type ListLag } from './list-lag.ts'
import { firstOfRepeat, namedAsInTheRun } from './repeated-in-attempts.ts'

/** A valid create: the body sent, and its answer. */
export interface CreateProbe {
  case: ValidCreate
  label: string
  sent: () => Promise<NewCategory>
  probe: () => Promise<HttpResult>
  /** The id the body sends beside the fields (valid-create.ts `sendsId`, `sendsIdOf`), which the record must not take. */
  sentId?: () => Promise<string>
  /** A create with a short form, once refused (400, 413): what plain ASCII of its sizes got, and the short form's answer if that was refused too. Undefined when not refused. */
  lengthFollowUp?: () => Promise<LengthFollowUp | undefined>
  /** A short form: the create it stands for, and the first create, whose lengths (the floor) every short form fits. */
  shortOf?: { long: CreateProbe; floor: CreateProbe }
}

export interface LengthFollowUp {
  sameSize: HttpResult
  /** Sent only when plain ASCII of the same sizes was refused too: the service limits lengths. */
  short?: HttpResult
}

/**
 * Plain ASCII of the UTF-8 sizes of a body's strings, its last string made longer until the body is
 * as long as the refused one: what a refusal for length refuses too, whatever it counts (no count of
 * characters exceeds the UTF-8 bytes, and a body limit counts the JSON's bytes, escapes included:
 * \u0001 is six bytes for one). A body limit answers 413 (Hono's bodyLimit, express.json's limit,
 * a gateway's) or 400 (Go's http.MaxBytesReader, an onError of the service's own); a service that
 * refuses the characters and not their size refuses the class's short form too.
 */
function sameSizeAscii(prefix: string, sent: NewCategory, bodyBytes: number): NewCategory {
  const name = Buffer.byteLength(sent.name)
  const description = sent.description === undefined ? undefined : Buffer.byteLength(sent.description)
  const ascii = (more: number): NewCategory => ({
    name: textOfLength(`${prefix}-size`, name + (description === undefined ? more : 0)),
    ...(description !== undefined ? { description: textOfLength('size', description + more) } : {}),
  })
  // ASCII letters, digits and hyphens take one byte each in JSON, so one step makes the body as long
  return ascii(Math.max(0, bodyBytes - Buffer.byteLength(JSON.stringify(ascii(0)))))
}

/** The bytes a request's body took on the wire. */
const sentBodyBytes = (result: HttpResult): number => {
  const { body, bodyBase64 } = result.exchange.request
  return bodyBase64 !== undefined ? Buffer.from(bodyBase64, 'base64').length : Buffer.byteLength(body ?? '')
}

const refusedMaybeForLength = (result: HttpResult) => result.exchange.response?.status === 400 || result.exchange.response?.status === 413

/** A POST that must be refused: 400 for its body, or 401 for its credential. */
export interface RefusalProbe {
  key: string
  label: string
  /** The rule its status, and what it must not store, belong to. */
  rule: string
  status: 400 | 401
  /** What a stored record's name or description would hold; undefined when the body carries none. */
  marker?: () => string
  /** A 201 that a conforming server may give instead, with the name it must then carry. */
  mayAcceptAs?: { name: () => string; why: string }
  /** What a 201 says of the service, and how it is usually fixed (suites/cases/malformed-json.ts). */
  acceptedMeans?: string
  /** Sent with another Content-Type, so a 415 refuses it for its media type (suites/cases/malformed-json.ts `mayRefuseMediaType`). */
  mayRefuseMediaType?: true
  probe: () => Promise<HttpResult>
  /** A value a store may take and not give back (suites/cases/malformed-json.ts `holds`), and the probe's answer once it came, never sending it (poisoned-list.ts). */
  poison?: { holds: string; answered: () => HttpResult | undefined }
}

export interface CategoryProbes {
  /** The list as the run finds it, sent at once, beside the POSTs. */
  firstList: () => Promise<HttpResult>
  creates: CreateProbe[]
  refusals: RefusalProbe[]
  /**
   * The list sent after every create of the run, and every probe the selected checks declared on
   * `lastListWaits` (a refusal whose check compares it with this list, the first list), have been
   * answered, whatever order the checks run in. `before`: the first list, when one of the run's
   * checks asked for it (poisoned-list.ts reads it).
   */
  lastList: () => Promise<{ list: HttpResult; before?: HttpResult; lastWriteAnsweredAt: number }>
  /** What the last list waits for: check(…, { sentBefore: [{ gate: lastListWaits, probe }] }) adds a probe. */
  lastListWaits: Gate
  /** GET /categories once more, each call a new request: a re-read of a list that lags behind writes. */
  listAgain: () => Promise<HttpResult>
  /** The same, asked for as the first list was (AS_CURL_ASKS): what a cache keyed by its headers kept from before the run's POSTs. */
  listAgainAsFirst: () => Promise<HttpResult>
  /** How long a list that lags behind the writes is waited for (--list-lag), within the run's deadline. */
  listLag: ListLag
  /** The list as a browser asks for a page (its Accept and Accept-Encoding), sent once the run's creates were answered. */
  browserList: () => Promise<HttpResult>
  /** The list asked for with the key and no Accept header (which the document does not ask for), sent beside the others. */
  bareList: () => Promise<HttpResult>
  /** The list asked for without a key, then, once answered, with the key: the second, and the first as its evidence. */
  keyAfterNone: () => Promise<{ none: HttpResult; keyed: HttpResult }>
}

/**
 * The first list's headers, as curl --compressed sends them. The list after the POSTs asks otherwise
 * (Accept: application/json, no coding), so a cache keyed by them (Django's cache_page under a Vary:
 * Accept, Accept-Encoding) answers it fresh: list-checks.ts reads the list as the first was, too.
 */
const AS_CURL_ASKS = { accept: '*/*', 'accept-encoding': 'gzip, deflate, br' }

/** Chrome's Accept for a page: a server that negotiates on it may pick XML or HTML over JSON. */
export const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'

// on the critical path: the last list waits for the first, and the re-reads for the last. The
// first goes before everything else, the creates that gate other requests included: it is the
// store as the run finds it, which a list broken after the creates is compared with
// every list read is handed to the run (RunContext.listsRead): the run's records in it that no answer announced go in the ledger
const listCategories = (run: Run, headers: Record<string, string> = {}, critical: boolean | 'gates' = true) =>
  run.client().send({ method: 'GET', path: '/categories', headers: { authorization: VALID_AUTHORIZATION, ...headers }, critical }).then((list) => (run.context.listsRead?.note(list), list))
/** How long the list of `run` may lag behind its writes (--list-lag), and its deadline. */
const lagOf = (run: Run): ListLag => ({
  waits: rereadWaits(run.context.listLagMs),
  msLeft: () => run.context.run?.msLeft() ?? Infinity,
  seen: () => {
    if (run.context.listsRead) run.context.listsRead.lagSeen = true
  },
})

/**
 * The list read once more after the run's last POSTs, for the ledger alone (no check judges it):
 * lib/runner/after-checks.ts. A list the run saw lag shows a record stored by the last of them only
 * once --list-lag has passed since its answer: read then, unless the run's deadline is too near.
 */
export async function listForLedger(run: Run, lastWriteAnsweredAt: number): Promise<HttpResult> {
  const wait = lastWriteAnsweredAt + run.context.listLagMs - Date.now()
  if (run.context.listsRead?.lagSeen && wait > 0) await waitToReread(wait, lagOf(run))
  return listCategories(run)
}
const post = (label: string) => `POST /categories with ${label}`
/** When a request's answer came, by the run's clock (its start and how long it took). */
export const answeredAt = (r: HttpResult) => Date.parse(r.exchange.startedAt) + r.exchange.durationMs
const isPost = (value: unknown): boolean => (value as Partial<HttpResult>)?.exchange?.request.method === 'POST'

/** The probes of `run`, declared in its scope (suites/areas/categories.ts). */
export function categoryProbes(run: Run): CategoryProbes {
  const recordPrefix = () => run.prefix()
  // refusals are sent by their own checks; the last list waits for those of the selected checks
  // that compare it with them (they declare it: lastListWaits), and for no other
  const lastListWaits = new Gate()

  // the creates other requests wait for (the first, which the list's path sent without a key
  // waits for; the first of a name sent again): sent before every other POST, so that what
  // waits for them goes in the next round trip, beside the other POSTs (docs/performance.md)
  const gating = new Set([VALID_CREATES[0]?.key, ...VALID_CREATES.map((c) => c.repeats), ...VALID_CREATES.map((c) => c.sendsIdOf)])
  const creates: CreateProbe[] = VALID_CREATES.map((c) => {
    const sent = once(async () => namedAsInTheRun(run, c, c.body(recordPrefix())))
    return {
      case: c,
      label: post(c.label),
      sent,
      ...(c.sendsId ? { sentId: async () => c.sendsId!(run.context.seed) } : {}),
      probe: once(async () => postCategory(run, c.key, createText(c, await sent(), run.context.seed, recordPrefix()), VALID_AUTHORIZATION, sameRecord(await sent()), { ...(c.sentAs ? { sentAs: c.sentAs } : {}), gates: gating.has(c.key), inPieces: c.inPieces === true, chunked: c.chunked === true })),
    }
  })
  // a name sent again goes out once the first create with it was answered, whatever it got (a confirmation attempt's: the run's name, repeated-in-attempts.ts)
  for (const again of creates.filter((c) => c.case.repeats)) {
    const [first, send] = [creates.find((c) => c.case.key === again.case.repeats) as CreateProbe, again.probe]
    again.probe = once(async () => (await firstOfRepeat(run, first), send()))
  }
  // the id of an earlier record goes out once that one was answered with it (the body's text: the id first, as createText writes one)
  for (const own of creates.filter((c) => c.case.sendsIdOf)) {
    const first = creates.find((c) => c.case.key === own.case.sendsIdOf) as CreateProbe
    own.sentId = once(async () => {
      // a confirmation attempt sends the id the run's record was answered with (a further round's, --repeat, is another): creating that one again is a write no failure was found on
      if (run.context.confirming?.reprobesFailures && run.context.createdIds?.has(first.case.key)) return run.context.createdIds.get(first.case.key)!
      const earlier = await first.probe()
      const status = earlier.exchange.response?.status
      if (status !== 201) throw new NotApplicable(`not sent: the create whose id it sends was answered ${status ?? 'nothing'}, not 201 with a record`)
      const id = idOf(conformingBody(earlier, 'Category', 'create-returns-category') as CategoryRecord)
      return (run.context.confirming ? undefined : run.context.createdIds?.set(first.case.key, id), id)
    })
    own.probe = once(async () => {
      const [id, body] = [await own.sentId!(), await own.sent()]
      return postCategory(run, own.case.key, `{"id":${id},${JSON.stringify(body).slice(1)}`, VALID_AUTHORIZATION, sameRecord(body))
    })
  }
  // §8: a create refused for length, then plain ASCII of its sizes refused too, is sent again in
  // its short form, so that the class of strings it carries still reaches the service
  const floor = creates[0] as CreateProbe
  for (const long of creates.filter((c) => c.case.shortForm)) {
    const shortCase: ValidCreate = {
      key: shortFormKey(long.case.key),
      label: `${long.case.label}, in values short enough for a ${NAME_FLOOR}-character name and a ${DESCRIPTION_FLOOR}-character description (the long ones were refused for length)`,
      body: long.case.shortForm!,
      ...(long.case.text ? { text: long.case.text } : {}),
      ...(long.case.inPieces ? { inPieces: long.case.inPieces } : {}),
    }
    const shortSent = once(async () => shortCase.body(recordPrefix()))
    const sendShort = once(async () => postCategory(run, shortCase.key, createText(shortCase, await shortSent(), run.context.seed, recordPrefix()), VALID_AUTHORIZATION, sameRecord(await shortSent()), { inPieces: shortCase.inPieces === true }))
    long.lengthFollowUp = once(async () => {
      const refused = await long.probe()
      if (!refusedMaybeForLength(refused)) return undefined
      const ascii = sameSizeAscii(recordPrefix(), await long.sent(), sentBodyBytes(refused))
      const sameSize = await postCategory(run, sameSizeKey(long.case.key), JSON.stringify(ascii), VALID_AUTHORIZATION, sameRecord(ascii))
      if (!refusedMaybeForLength(sameSize) || run.context.confirming?.reprobesFailures) return { sameSize } // a confirmation judges the long create by its control: its short form goes again only as a failure of its own
      return (run.context.shortFormsSent?.add(long.case.key), { sameSize, short: await sendShort() })
    })
    creates.push({
      case: shortCase,
      label: post(shortCase.label),
      sent: shortSent,
      probe: once(async () => {
        // a confirmation attempt sends the short form the run sent: the long create and its plain ASCII, refused again, are writes no failure was found on
        if (run.context.confirming?.reprobesFailures && run.context.shortFormsSent?.has(long.case.key)) return sendShort()
        const followUp = await long.lengthFollowUp!()
        if (followUp?.short) return followUp.short
        const control = followUp?.sameSize.exchange.response?.status // answered otherwise (a gateway's 502), plain ASCII shows no length limit, and create-returns-201 judges it (review51)
        throw new NotApplicable(`not needed: ${!followUp ? 'the long values were accepted' : control === 201 ? 'plain ASCII of the same sizes was accepted, so the long values were not refused for length' : `plain ASCII of the same sizes ${control === undefined ? 'got no answer' : `was answered ${control}`}, which does not show the long values refused for length`}`, 'not-needed')
      }),
      shortOf: { long, floor },
    })
  }
  const refusals: RefusalProbe[] = []
  for (const c of INVALID_BODIES) {
    const marker = c.marker ? () => c.marker!(recordPrefix()) : undefined
    const send = () => postCategory(run, c.key, c.body(recordPrefix()), VALID_AUTHORIZATION, marker ? holding(marker()) : NOTHING_TO_FIND, { ...(c.sentAs ? { sentAs: c.sentAs } : {}), ...(c.query ? { query: c.query(recordPrefix()) } : {}) })
    const probe = once(async () => {
      const result = await send()
      const status = result.exchange.response?.status
      if (c.notServed && status !== undefined && c.notServed.statuses.includes(status)) throw new NotApplicable(`not verified: answered ${status}: ${c.notServed.why}`)
      return result
    })
    refusals.push({ key: c.key, label: post(c.label), rule: c.rule, status: 400, marker, ...(c.acceptedMeans ? { acceptedMeans: c.acceptedMeans } : {}), probe })
  }
  for (const c of MALFORMED_BODIES) {
    let answered: HttpResult | undefined
    const probe = once(async () => (answered = await postCategory(run, c.key, c.body(recordPrefix()), VALID_AUTHORIZATION, holding(malformedMarker(recordPrefix(), c.key)), c.sentAs ? { sentAs: c.sentAs } : {})))
    refusals.push({
      key: c.key,
      label: post(c.label),
      rule: INVALID_JSON_RULE,
      status: 400,
      marker: () => malformedMarker(recordPrefix(), c.key),
      ...(c.mayAcceptAs ? { mayAcceptAs: { name: () => c.mayAcceptAs!.name(recordPrefix()), why: c.mayAcceptAs.why } } : {}),
      ...(c.acceptedMeans ? { acceptedMeans: c.acceptedMeans } : {}),
      ...(c.mayRefuseMediaType ? { mayRefuseMediaType: c.mayRefuseMediaType } : {}),
      ...(c.holds ? { poison: { holds: c.holds, answered: () => answered } } : {}),
      probe,
    })
  }
  wrongTypeCases().forEach((c, index) => {
    const marker = () => caseMarker(recordPrefix(), 't', index)
    refusals.push({
      key: c.key,
      label: post(`${c.label} (generated)`),
      rule: INVALID_VALUES_RULE,
      status: 400,
      // a body that is null, a boolean or a number has nowhere to carry it
      ...(carriesMarker(c) ? { marker } : {}),
      ...(c.acceptedMeans ? { acceptedMeans: c.acceptedMeans } : {}),
      probe: once(() => postCategory(run, c.key, wrongTypeBody(c, marker(), run.context.seed, index), VALID_AUTHORIZATION, carriesMarker(c) ? holding(marker()) : NOTHING_TO_FIND)),
    })
  })
  for (const [index, credential] of CREDENTIAL_CASES.entries()) {
    if (credential.readsOnly) continue
    const key = unauthenticatedCreateKey(credential.key)
    const marker = () => caseMarker(recordPrefix(), 'k', index)
    refusals.push({
      key,
      label: post(credential.label),
      rule: credential.rule,
      status: 401,
      marker,
      probe: once(async () => {
        const unusable = credential.unusableWith?.(run.context.apiKey)
        if (unusable) throw new NotApplicable(`not verified: ${unusable}`, 'key-unusable')
        return postCategory(run, key, JSON.stringify({ name: marker() }), credential.authorization(run.context.runId), holding(marker()))
      }),
    })
  }

  // as curl --compressed asks: Accept: */* (§4: every payload is JSON, whatever the client
  // accepts) and every coding; a coded body must say so in Content-Encoding
  let firstListStarted = false
  const firstList = once(() => ((firstListStarted = true), listCategories(run, AS_CURL_ASKS, 'gates')))
  const lastList = once(async () => {
    // every create, and what the selected checks declared (refusals they compare, the first list):
    // a list one of the run's checks compares with this one is answered before this one goes out.
    // Both at once: run one check at a time, the refusals would otherwise go only once the creates
    // were answered, and a list behind the writes that shows the creates could still hide them
    const [made, waited] = await Promise.all([Promise.allSettled(creates.map((c) => c.probe())), lastListWaits.passed()])
    const settled: PromiseSettledResult<unknown>[] = [...made, ...waited]
    const sentPost = (s: PromiseSettledResult<unknown>) => s.status === 'fulfilled' && isPost(s.value) && (s.value as HttpResult).exchange.sent !== false
    if (!settled.some(sentPost)) {
      // why none was sent (--read-only, the write budget …) is why the whole-run checks are not verified
      const why = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected' && s.reason instanceof NotApplicable)?.reason as NotApplicable | undefined
      throw new NotApplicable('no POST was sent in this run', why?.skipCause ?? 'not-applicable')
    }
    // the first list, when a check of the run asked for it: answered before this one goes out, so the two compare
    const before = firstListStarted ? await firstList() : undefined
    // when the last write it follows was answered: a list behind the writes must be read that long after it (list-checks.ts settledList)
    const lastWriteAnsweredAt = Math.max(0, ...settled.flatMap((s) => (s.status === 'fulfilled' && isPost(s.value) && (s.value as HttpResult).exchange.response ? [answeredAt(s.value as HttpResult)] : [])))
    return { list: await listCategories(run), before, lastWriteAnsweredAt }
  })
  // a browser's Accept-Encoding too, once the run's creates were answered: a service that starts
  // empty answers the first list "[]", which a compressor with a threshold (compression()'s 1 KiB,
  // Go's gziphandler's 1,400 bytes, Spring Boot's 2 KiB) sends as it is, and every other list is
  // asked for without a coding; the list the creates made long is the one whose compressed
  // answer a client that accepts gzip gets
  const browserList = once(async () => (await Promise.allSettled(creates.map((c) => c.probe())), listCategories(run, { accept: BROWSER_ACCEPT, 'accept-encoding': 'gzip, deflate, br' }, false)))
  // §5.2 asks a client for the Authorization header alone, and some send no Accept (.NET's
  // HttpClient unless told to; with none, any media type is acceptable, RFC 9110 §12.5.1), where
  // every other request carries the suite's: a service that assumes one (a handler that reads
  // req.headers.accept.includes(…), a negotiation that answers 406) passed. Its User-Agent and
  // trace context stay, as on every request of a run (a request without a User-Agent goes against
  // RFC 9110 §10.1.5's SHOULD, and firewalls refuse it: AWS WAF's NoUserAgent_HEADER), and so does
  // its Accept-Encoding: identity (with none, any coding is acceptable, which the run's notes
  // would count as a coding the run did not ask for)
  const bareList = once(() => listCategories(run, { accept: '' }, false))
  // §4.1 for the key right after a request without one: a cache in front keyed by the URL alone
  // that keeps the 401 it answered (nginx's proxy_cache_valid any) answers it to the key too. One
  // after the other, whatever order the checks run in: among the run's other lists, one with the
  // key follows one without only by chance
  const keyAfterNone = once(async () => {
    const none = await run.client().send({ method: 'GET', path: '/categories', critical: false })
    return { none, keyed: await listCategories(run, {}, false) }
  })
  const listLag = lagOf(run)
  return { firstList, creates, refusals, lastList, lastListWaits, listAgain: () => listCategories(run), listAgainAsFirst: () => listCategories(run, AS_CURL_ASKS), listLag, browserList, bareList, keyAfterNone }
}
