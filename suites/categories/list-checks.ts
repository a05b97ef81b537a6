/**
 * §4.1 listCategories, twice: the list as the run finds it, and the list after every POST of the
 * run. The second holds every created category, once, with the fields sent (§4.1 "all categories",
 * §4.2 rule 2); ids are unique in each (§2) and across the creations.
 */
import { CREATED_RECORDS, expectDistinctIds, expectListed, idOf, missingFromList, type CategoryRecord, type Creation } from '../../lib/checks/category.ts'
import { ConformanceFailure, fail, NotApplicable } from '../../lib/checks/failure.ts'
import { answeredAnothersRecord } from '../../lib/checks/held-by-another-key.ts'
import { describeStatus, expectJsonContentType, expectStatus, jsonBodyOf, requireStatus, responseOf, statusFailure } from '../../lib/checks/response.ts'
import { conformingBody, expectSchema } from '../../lib/checks/schema.ts'
import type { HttpResult } from '../../lib/http/client.ts'
import { check } from '../../lib/suite-kit/check.ts'
import { thisRun } from '../../lib/suite-kit/run-context.ts'
import { listedAfterLag, readAsFirstAsked, readOnceMore, readPastTheLag, settleAfterSlowCreate, waitToReread, wholeAsRead, withLagSaid, type LaggedList } from './list-lag.ts'
import { cutOf, withPageSaid } from './paged-list.ts'
import { withCacheSaid } from './cached-list.ts'
import { expectListNotPoisoned, expectListShapeNotPoisoned } from './poisoned-list.ts'
import { answeredAt, type CategoryProbes, type CreateProbe } from './probes.ts'

const LIST_STATUS_REPORTED = 'list-returns-200 reports the status'

/** What a 401 to the key right after a 401 to the same request without it most often says of the service. */
const KEY_REFUSED_AFTER_NONE =
  "the key was refused right after the same URL was asked for without one: a cache in front keyed by the URL alone keeps the 401 it answered and answers it to every client, the key's too " +
  "(nginx: proxy_cache_valid any, or 401, under a proxy_cache_key without $http_authorization): keep 4xx answers out of the cache (proxy_cache_valid 200 only), or put the Authorization header in its key"

/** The list's records when it is a 200 with a CategoryList; otherwise another check reports it. */
export function listedRecords(list: HttpResult): CategoryRecord[] {
  requireStatus(list, [200], LIST_STATUS_REPORTED)
  return conformingBody(list, 'CategoryList', 'list-returns-category-array') as CategoryRecord[]
}

/**
 * The list's records as far as they can be read, for a check that looks in it for what a create
 * stored (a name, a marker), not at its shape: the objects of a 200 JSON array, whatever the schema
 * says of them. A description written as null (Perl's DBI, DRF's ModelSerializer, Rails' to_json)
 * or an id as text is list-returns-category-array's to report, and must not hide a create refused
 * for its name or a refused body that was stored. Anything else holds no records to look in.
 */
export function readableRecords(list: HttpResult): CategoryRecord[] {
  let records = readable.get(list)
  if (records === undefined) readable.set(list, (records = readIn(list)))
  return records
}

/** The records of each list read, once: every refused POST's check looks in the same list (60 passes over a list of 1,000,000 records took 8 s, measured). Read-only. */
const readable = new WeakMap<HttpResult, CategoryRecord[]>()

function readIn(list: HttpResult): CategoryRecord[] {
  requireStatus(list, [200], LIST_STATUS_REPORTED)
  let body: unknown
  try {
    body = jsonBodyOf(list)
  } catch {
    throw new NotApplicable('the list is not JSON; list-returns-category-array reports it')
  }
  if (!Array.isArray(body)) throw new NotApplicable('the list is not an array; list-returns-category-array reports it')
  return body.filter((record): record is CategoryRecord => record !== null && typeof record === 'object' && !Array.isArray(record))
}

/** The list's records, or undefined when another check reports it (not a 200 CategoryList). */
export function usableRecords(list: HttpResult): CategoryRecord[] | undefined {
  try {
    return listedRecords(list)
  } catch {
    return undefined
  }
}

/** The records created and answered as Category records; the rest is other rules' business. */
export async function createdRecords(creates: readonly CreateProbe[]): Promise<{ creations: Creation[]; results: HttpResult[] }> {
  const settled = await Promise.allSettled(creates.map(async (c) => ({ sent: await c.sent(), result: await c.probe(), sentId: await c.sentId?.() })))
  const done = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
  const creations: Creation[] = []
  for (const { sent, result, sentId } of done) {
    // the connection race lost the answer, and the list showed the record: it counts as created
    const found = result.answerLost?.record
    if (found) {
      creations.push({ sent, record: found.value as CategoryRecord, foundInList: true })
      continue
    }
    // a 200 answers the create with its record as a 201 does (create-checks.ts): the record was made
    if (result.exchange.response?.status !== 201 && result.exchange.response?.status !== 200) continue
    try {
      const record = conformingBody(result, 'Category', 'create-returns-category') as CategoryRecord
      creations.push({ sent, record, ...(sentId !== undefined && sentId === idOf(record) ? { idTaken: true as const } : {}) })
    } catch {
      // not a Category: create-returns-category reports it
    }
  }
  return { creations, results: done.map((d) => d.result) }
}

/** How a list's status and shape are judged; the list after the run's POSTs also names the creates that may have broken it (poisoned-list.ts). */
interface ListJudge {
  status(result: HttpResult): Promise<void> | void
  shape(result: HttpResult): Promise<void> | void
}

/** A list judged by itself. */
const JUDGED_ALONE: ListJudge = {
  status: (result) => expectStatus(result, 200),
  shape: (result) => {
    requireStatus(result, [200], LIST_STATUS_REPORTED)
    expectSchema(result, 'CategoryList', 'an array of Category records')
  },
}

function listShapeChecks(label: string, list: () => Promise<HttpResult>, judge: ListJudge = JUDGED_ALONE): void {
  check('list-returns-200', `${label} → 200`, async (t) => {
    await judge.status(await t.use(list))
  })
  check('list-returns-category-array', `${label} → an array of Category records`, async (t) => {
    await judge.shape(await t.use(list))
  })
  check('json-content-type', `${label} → the list is application/json`, async (t) => {
    const result = await t.use(list)
    requireStatus(result, [200], LIST_STATUS_REPORTED)
    expectJsonContentType(result)
  })
  check('ids-unique', `${label} → no two listed categories share an id`, async (t) => {
    const result = await t.use(list)
    expectDistinctIds(listedRecords(result), label.replace(/^GET \/categories/, 'the list'), result)
  })
}

/**
 * §4.1 holds for every list, not only those the run judges first: the list after the run's POSTs is
 * read again (once at once, and while created records are missing from it: list-lag.ts), and each
 * of those re-reads is a list answered to the key like the others. A replica that fails one read in
 * a few, or a cache in front that answers a list asked again without its Content-Type, showed only
 * there. No request of their own: the re-reads are created-in-list's (settledList), sent only after
 * a last list that was a whole array.
 */
function rereadChecks(probes: CategoryProbes): void {
  // judged alone: the list is read again only when the last list was a whole array (a list broken
  // after the creates is judged, and named, there), so a re-read that breaks was not broken by them
  const judge = JUDGED_ALONE
  const label = "GET /categories read again after the run's POSTs"
  const rereads = async (t: { evidence(...results: HttpResult[]): void }, statusOnly = false): Promise<HttpResult[]> => {
    const { lists, askedAsFirstFrom } = await settledList(probes)
    // the reads asked as the first list was ask for the browser list's codings: a fault of a coded
    // list is the browser list's to report, once (they judge what the list holds: created-in-list);
    // but not one answered with another status than the first list, asked alike (a replica failing one list in four)
    const first = statusOnly && askedAsFirstFrom !== undefined ? (await probes.firstList()).exchange.response?.status : undefined
    const again = [...lists.slice(1, askedAsFirstFrom), ...(first === undefined ? [] : lists.slice(askedAsFirstFrom).filter((l) => l.exchange.response?.status !== first))]
    if (again.length === 0) throw new NotApplicable('not needed: the list after the run\'s POSTs was not read again (no record was created, or --list-lag 0)', 'not-needed')
    t.evidence(...again)
    return again
  }
  check('list-returns-200', `${label} → 200, each time`, async (t) => {
    for (const list of await rereads(t, true)) await judge.status(list)
  })
  check('list-returns-category-array', `${label} → an array of Category records, each time`, async (t) => {
    for (const list of await rereads(t)) {
      // a read that is not a 200 is list-returns-200's to report
      if (list.exchange.response?.status === 200) await judge.shape(list)
    }
  })
  check('json-content-type', `${label} → application/json, each time`, async (t) => {
    for (const list of await rereads(t)) if (list.exchange.response?.status === 200) expectJsonContentType(list)
  })
  check('ids-unique', `${label} → no two listed categories share an id, each time`, async (t) => {
    for (const list of await rereads(t)) {
      const records = usableRecords(list)
      if (records !== undefined) expectDistinctIds(records, 'the list read again', list)
    }
  })
}

export function listChecks(probes: CategoryProbes): void {
  // whether the run judges a rule (--rule selects some; none selected: all)
  const { rules } = thisRun().context
  const judged = (rule: string) => rules.length === 0 || rules.includes(rule)
  listShapeChecks("GET /categories with a valid key, as curl --compressed asks (Accept: */*, every coding)", probes.firstList)
  // §4: every payload is JSON, whatever the client accepts; a server that negotiates (Spring with an
  // XML converter on its class path, Rails) may pick XML or HTML for a browser's Accept
  const browser = "GET /categories with a valid key and a browser's Accept (text/html first, application/xml, */* last) and Accept-Encoding, after the run's creates"
  check('list-returns-200', `${browser} → 200`, async (t) => expectStatus(await t.use(probes.browserList), 200))
  check('json-content-type', `${browser} → the list is application/json`, async (t) => {
    const result = await t.use(probes.browserList)
    requireStatus(result, [200], LIST_STATUS_REPORTED)
    expectJsonContentType(result)
  })
  // the same list in another shape for a browser (Spring HATEOAS's HAL for text/html, a debug envelope)
  check('list-returns-category-array', `${browser} → an array of Category records`, async (t) => JUDGED_ALONE.shape(await t.use(probes.browserList)))
  // §5.2: the key is all a client must send; §4: the answer is JSON whatever else it sends
  const bare = "GET /categories with a valid key and no Accept header, as .NET's HttpClient sends it"
  check('list-returns-200', `${bare} → 200`, async (t) => expectStatus(await t.use(probes.bareList), 200))
  check('json-content-type', `${bare} → the list is application/json`, async (t) => {
    const result = await t.use(probes.bareList)
    requireStatus(result, [200], LIST_STATUS_REPORTED)
    expectJsonContentType(result)
  })
  check('list-returns-category-array', `${bare} → an array of Category records`, async (t) => JUDGED_ALONE.shape(await t.use(probes.bareList)))
  check('list-returns-200', 'GET /categories with a valid key, right after the same request without one was answered → 200', async (t) => {
    const keyed = await t.use(async () => (await probes.keyAfterNone()).keyed)
    const { none } = await probes.keyAfterNone()
    t.evidence(none)
    const response = responseOf(keyed)
    if (response.status !== 401 || none.exchange.response?.status !== 401) return expectStatus(keyed, 200)
    fail({ ...statusFailure(response), message: `GET answered ${describeStatus(response)}, expected 200: ${KEY_REFUSED_AFTER_NONE}`, expected: 'status 200', actual: `status ${describeStatus(response)}` }, keyed.exchange)
  })
  const lastList = async () => (await probes.lastList()).list
  // a list broken after the run's creates names the creates of values a store may not give back (poisoned-list.ts)
  const before = async () => (await probes.lastList()).before
  listShapeChecks("GET /categories after the run's POSTs", lastList, {
    // the browser's list is read once every create has settled: whole, it shows that no stored value breaks the list
    status: async (list) => expectListNotPoisoned(list, await before(), probes.creates, probes.refusals, probes.browserList),
    shape: async (list) => expectListShapeNotPoisoned(list, await before(), probes.creates, LIST_STATUS_REPORTED, probes.refusals, probes.browserList),
  })
  rereadChecks(probes)
  // §2: ids are unique in every list, however it is asked for (a view for one Accept that joins a table repeats a row)
  const keyed = async () => (await probes.keyAfterNone()).keyed
  for (const [label, where, list] of [[browser, "with a browser's Accept", probes.browserList], [bare, 'with no Accept header', probes.bareList], ['GET /categories with a valid key, right after the same request without one', 'right after one without a key', keyed]] as const) {
    check('ids-unique', `${label} → no two listed categories share an id`, async (t) => {
      const result = await t.use(list)
      expectDistinctIds(listedRecords(result), `the list asked for ${where}`, result)
    })
  }

  check('ids-unique', 'POST /categories twice or more → each creation gets its own id', async (t) => {
    const { creations, results } = await createdRecords(probes.creates)
    t.evidence(...results)
    if (creations.length < 2) throw new NotApplicable(`needs two created records, got ${creations.length}`)
    expectDistinctIds(
      // a record that took the id its body sent is create-returns-category's failure (CLIENT_ID_ACCEPTED), and the id it shares with the record whose id was sent that one fault again
      // (unless the run does not judge create-returns-category: --rule ids-unique alone)
      // and a create answered with another create's record under another name (the newest row read back) is create-echoes-fields' failure, the id the two answers share that fault again
      creations.filter((c) => !(c.idTaken && judged('create-returns-category')) && !(judged('create-echoes-fields') && answeredAnothersRecord(c, creations))).map((c) => c.record),
      CREATED_RECORDS,
      ...results,
    )
  })

  check('created-in-list', "GET /categories after the run's POSTs → every created category is listed once, with the fields sent", async (t) => {
    const { creations: answered, results } = await createdRecords(probes.creates)
    // a field changed as answered and an id shared are other rules' findings, when the run judges them
    const told = { ...(judged('create-echoes-fields') ? {} : { changeToldHere: true as const }), ...(judged('ids-unique') && judged('create-returns-category') ? {} : { sharedIdToldHere: true as const }) }
    const creations = answered.map((c) => ({ ...c, ...told }))
    t.evidence(...results)
    if (creations.length === 0) throw new NotApplicable('no category was created and answered as a Category record (create-returns-201 or create-returns-category reports why)')
    // a list that lags behind the writes is read again before a record counts as missing (list-lag.ts)
    const read = await settledList(probes)
    t.evidence(...read.lists)
    // every other read that lists them all lists them as sent too (a fleet: one replica on old code)
    const whole = read.lists.filter((l) => {
      const records = l === read.judged ? undefined : usableRecords(l)
      return records !== undefined && missingFromList(creations, records).length === 0
    })
    try {
      for (const list of [read.judged, ...whole]) expectListed(creations, listedRecords(list), ...results, ...read.lists)
    } catch (error) {
      const listed = usableRecords(read.judged) ?? []
      const reads = read.lists.flatMap((l) => usableRecords(l)?.length ?? [])
      const cut = cutOf(listed.map((r) => r.id), missingFromList(creations, listed).map((c) => c.record.id), creations.map((c) => c.record.id), reads)
      throw withCacheSaid(withPageSaid(withLagSaid(error, read, probes.listLag), read.judged, listed.length, cut), read.judged, missingFromList(creations, listed).length < creations.length)
    }
    await expectListedAlikeWhateverAsked(creations, results, read.judged, probes)
  })
}

/** The run's lists asked for otherwise than its own (headers, the request before), each with how. */
const LISTS_ASKED_OTHERWISE: readonly { how: string; list: (probes: CategoryProbes) => Promise<HttpResult> }[] = [
  { how: 'as curl --compressed asks (Accept: */*, every coding)', list: (p) => p.firstList() },
  { how: "with a browser's Accept (text/html first) and Accept-Encoding (gzip, deflate, br)", list: (p) => p.browserList() },
  { how: 'with no Accept header', list: (p) => p.bareList() },
  { how: 'right after the same request without a key', list: async (p) => (await p.keyAfterNone()).keyed },
]

/**
 * §4.1 "all categories" are the same categories whatever else the request says: a created record
 * that a list asked for otherwise (a browser's Accept, gzip, no Accept) shows, it shows as sent, as
 * the run's own list does. A list behind the writes may lack a record, never change one, so only
 * the records it shows are judged (a record it shows under another id, rounded to a double on that
 * path, is one it shows, changed: lib/checks/listed-under-another-id.ts); a list that is not a 200 array is its own checks' to report. A
 * serialiser or a compressor on one path of content negotiation only (an HTML-escaping view for
 * browsers, a gzip path that writes UTF-8 as Latin-1) showed nowhere else: the run's own lists
 * accept JSON alone and no coding.
 */
async function expectListedAlikeWhateverAsked(creations: Creation[], results: HttpResult[], asSent: HttpResult, probes: CategoryProbes): Promise<void> {
  for (const { how, list } of LISTS_ASKED_OTHERWISE) {
    const other = await list(probes).catch(() => undefined)
    const records = other === undefined ? undefined : usableRecords(other)
    if (other === undefined || records === undefined) continue
    const missing = new Set(missingFromList(creations, records))
    const shown = creations.filter((c) => !missing.has(c))
    try {
      expectListed(shown, records, ...results, asSent, other)
    } catch (error) {
      if (!(error instanceof ConformanceFailure)) throw error
      const message = `in the list asked for ${how}, ${error.message}; the list asked for with Accept: application/json and Accept-Encoding: identity shows it as the create answered it: what the list holds depends on how it is asked for`
      throw new ConformanceFailure({ ...error.detail(), message }, error.exchanges)
    }
  }
}

const settledLists = new WeakMap<CategoryProbes, Promise<LaggedList>>()

/**
 * The list after the run's POSTs, read again while records the run created are missing from it
 * (list-lag.ts): the one that says what the store holds, once for the run (its probes). A lag hides
 * a refused create that was stored as it hides a created one, so the refusals are judged on it too.
 */
export function settledList(probes: CategoryProbes): Promise<LaggedList> {
  let settled = settledLists.get(probes)
  if (settled === undefined) {
    settled = (async () => {
      const [{ creations, results }, { list, lastWriteAnsweredAt }] = await Promise.all([createdRecords(probes.creates), probes.lastList()])
      const read = await listedAfterLag(creations, list, probes.listAgain, usableRecords, probes.listLag)
      const lastCreate = Math.max(...results.map(answeredAt))
      // and, settled, once asked as the first list was: what a cache keyed by its headers kept
      const asFirst = (settled: LaggedList, sent?: Promise<HttpResult>) => readAsFirstAsked(creations, settled, probes.listAgainAsFirst, usableRecords, probes.listLag, lastCreate, sent)
      // whole at once: read once more, which a fleet's balancer sends to another replica, and as
      // much later as a later write (a refusal the service stored) was answered after the last create;
      // the read asked as the first was goes right after it, not once it is answered: a round trip
      // less on the run's longest path (unjudged when the read once more lacks a record: that one is)
      if (read.lists.length === 1) {
        let sent: Promise<HttpResult> | undefined
        const beside = wholeAsRead(creations, read, usableRecords) ? () => void (sent = probes.listAgainAsFirst()).catch(() => undefined) : undefined
        const more = await readOnceMore(creations, read, probes.listAgain, usableRecords, probes.listLag, lastCreate, lastWriteAnsweredAt, beside, settleAfterSlowCreate(results, probes.listLag))
        return asFirst(more, sent)
      }
      // the list lagged, and showed the creates when read long enough after the last of them was
      // answered; a later write (a refusal the service stored) gets as long: read once more that
      // much later, unless the run's deadline is too near
      const short = lastWriteAnsweredAt - lastCreate
      let settledRead = read
      if (short > 0 && (await waitToReread(short, probes.listLag))) {
        const again = await probes.listAgain()
        settledRead = { ...read, lists: [...read.lists, again], judged: usableRecords(again) === undefined ? read.judged : again }
      }
      // a list that differed from read to read is read again past --list-lag: a lag is over by then, a write kept by one replica is not
      return asFirst(await readPastTheLag(creations, settledRead, probes.listAgain, usableRecords, probes.listLag, lastCreate))
    })()
    settledLists.set(probes, settled)
  }
  return settled
}
