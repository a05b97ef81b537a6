/** Checks on Category records across requests: fields echoed, ids unique, created ones listed. */
import type { HttpResult } from '../http/client.ts'
import { quotedCut } from '../http/quoted-cut.ts'
import { exactIntegerTextAt } from '../json/exact-json.ts'
import { fail, NotApplicable } from './failure.ts'
import { idOf, IdIndex } from './id-index.ts'
import { failListedUnderAnotherId, listedUnderAnotherId } from './listed-under-another-id.ts'
import { idPastDoubleOrigin, sharedIdWords } from './orm-driver-answers.ts'
import { ZERO_INSERT_ID } from './sql-store-answers.ts'
import { changedTextOrigin } from './known-answers.ts'
import { ANOTHER_CREATES_RECORD, answeredAnothersRecord, heldByAnotherCreate, heldByAnotherField, heldUnderAnotherCase } from './held-by-another-key.ts'
import { jsonBodyOf } from './response.ts'
import { conformingBody } from './schema.ts'
import { cutListWords } from './cut-lists.ts'

export interface NewCategory { name: string; description?: string }

export interface CategoryRecord {
  id: number
  name: string
  description?: string
  [extra: string]: unknown
}

const SHOWN_CHARACTERS = 120

/** A value for a failure line: long strings cut, with their length, so a 9,000-character name stays readable. */
export function shownValue(value: unknown): string {
  if (typeof value !== 'string' || value.length <= SHOWN_CHARACTERS) return JSON.stringify(value)
  return `${JSON.stringify(quotedCut(value, SHOWN_CHARACTERS))}… (${value.length} characters)`
}

/**
 * Where two strings first differ (at a UTF-16 code unit, the characters shown as code points), or
 * '' when they are not both strings. A difference in the second half of a surrogate pair is shown
 * from its first: "\ud800A" against U+10041 reads "sent U+D800, got U+10041", not "U+0041, U+DC41".
 */
export function firstDifference(sent: unknown, got: unknown): string {
  if (typeof sent !== 'string' || typeof got !== 'string') {
    const origin = changedTextOrigin(sent, got, 0)
    return origin ? `; ${origin}` : ''
  }
  let i = 0
  while (i < sent.length && i < got.length && sent[i] === got[i]) i++
  const high = (unit: string | undefined) => unit !== undefined && unit >= '\ud800' && unit <= '\udbff'
  const low = (unit: string | undefined) => unit !== undefined && unit >= '\udc00' && unit <= '\udfff'
  if (i > 0 && high(sent[i - 1]) && (low(sent[i]) || low(got[i]))) i--
  const code = (text: string) => (i < text.length ? `U+${text.codePointAt(i)!.toString(16).toUpperCase().padStart(4, '0')}` : 'its end')
  const origin = changedTextOrigin(sent, got, i)
  return `; first difference at character ${i}: sent ${code(sent)}, got ${code(got)} (lengths ${sent.length} and ${got.length})${origin ? `; ${origin}` : ''}`
}

export { idOf }

/** §4.2 rule 2: every field sent comes back, unchanged (extra fields are allowed). */
export function expectEchoedFields(sent: NewCategory, result: HttpResult): CategoryRecord {
  let record: CategoryRecord
  try {
    record = jsonBodyOf(result) as CategoryRecord
  } catch {
    throw new NotApplicable('the body is not JSON; create-returns-category reports it')
  }
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    throw new NotApplicable('the body is not a record; create-returns-category reports it')
  }
  for (const [field, value] of Object.entries(sent)) {
    if (record[field] !== value) {
      fail(
        {
          code: 'FIELD_CHANGED',
          message: `the created record changed "${field}"${heldUnderAnotherCase(result, field, record[field]) || heldByAnotherField(sent, field, record[field], result) || heldByAnotherCreate(sent, record) || firstDifference(value, record[field])}`,
          expected: `${field}: ${shownValue(value)} (as sent)`,
          actual: field in record ? `${field}: ${shownValue(record[field])}` : `no "${field}" in the record`,
          // which field, and whether it came back at all: the values are the run's own
          observed: field in record ? `"${field}" changed` : `no "${field}"`,
        },
        result.exchange,
      )
    }
  }
  return record
}

/**
 * §2: the id is "assigned by the service on creation. Never sent by the client." A create body
 * that sends one anyway (mass assignment) must not get it: the record's id is the service's own.
 */
export function expectServiceAssignedId(sentId: string, record: CategoryRecord, result: HttpResult, means?: string): void {
  if (idOf(record) !== sentId) return
  fail(
    {
      code: 'CLIENT_ID_ACCEPTED',
      message: `the created record took the id the body sent (${sentId}) instead of one the service assigned${means ? `: ${means}` : ''}`,
      expected: `an id assigned by the service (the body's "id": ${sentId} ignored, or the body refused with 400)`,
      actual: `id ${idOf(record)}`,
    },
    result.exchange,
  )
}

/** What ids-unique calls the records its creates were answered with. */
export const CREATED_RECORDS = 'the created records'
const sameFields = (a: CategoryRecord, b: CategoryRecord) => a.name === b.name && a.description === b.description && 'description' in a === 'description' in b

/** §2: ids are unique, both across creations and within one list. */
export function expectDistinctIds(records: CategoryRecord[], where: string, ...results: HttpResult[]): void {
  const repeat = IdIndex.of(records).firstRepeat
  if (repeat === undefined) return
  const id = idOf(records[repeat.second])
  fail(
    {
      code: 'DUPLICATE_ID',
      message: `${where}: two records share id ${id}${idPastDoubleOrigin(id) ?? ''}${where !== CREATED_RECORDS ? '' : sameFields(records[repeat.first], records[repeat.second]) ? `; both creates were answered with one record: the one stored for a name sent twice (an upsert), or ${ANOTHER_CREATES_RECORD}` : id === '0' ? ZERO_INSERT_ID : sharedIdWords(records, repeat.first, repeat.second)}`,
      expected: 'every id unique',
      actual: `id ${id} at positions ${repeat.first} and ${repeat.second}`,
    },
    ...results.map((r) => r.exchange),
  )
}

/** A created record and the body that created it. */
export interface Creation {
  sent: NewCategory
  record: CategoryRecord
  /** The answer was lost and `record` is the one the list showed: no create answer judged it. */
  foundInList?: true
  /** The body sent an id (§2: never sent by the client) and the record took it: create-returns-category fails it (CLIENT_ID_ACCEPTED). */
  idTaken?: true
  /** The run does not judge create-echoes-fields (--rule): created-in-list tells a field the answer showed changed itself. */
  changeToldHere?: true
  /** The run does not judge ids-unique or create-returns-category (--rule): created-in-list tells a shared id itself. */
  sharedIdToldHere?: true
}

/** The created records the list does not show (a list that lags behind writes, or one that lost them); §4.1: it holds all categories. */
export function missingFromList(created: readonly Creation[], list: readonly CategoryRecord[]): Creation[] {
  const index = IdIndex.of(list)
  const missing = created.filter((c) => !index.has(c.record))
  // listed under another id is no lag but a changed record (listed-under-another-id.ts), which expectListed fails
  const createdIds = missing.length > 0 ? IdIndex.of(created.map((c) => c.record)) : undefined
  return missing.filter((c) => !listedUnderAnotherId(c, list, createdIds!, created))
}

/**
 * A record listed with a field changed as its create's answer had already shown it passes here:
 * create-echoes-fields fails that answer, and a store that trims or normalises is one fault, told
 * once (and excused whole by one baseline entry). A list that differs from the answer, or from
 * what was sent where the answer kept it, is a fault of its own.
 */
export function expectListed(created: Creation[], list: CategoryRecord[], ...results: HttpResult[]): void {
  const index = IdIndex.of(list)
  // the records bearing a name that was sent, in one pass over the list rather than one per creation
  const sentNames = new Set<unknown>(created.map((c) => c.sent.name))
  // a cheap first sieve, by length (modulo 1,024): most names of a large list are not sent ones
  const sentLength = new Uint8Array(1_024)
  for (const { sent } of created) sentLength[sent.name.length & 1_023] = 1
  const byName = new Map<unknown, CategoryRecord[]>()
  for (let i = 0; i < list.length; i++) {
    const record = list[i]
    const name = record.name
    if (typeof name !== 'string' || sentLength[name.length & 1_023] === 0 || !sentNames.has(name)) continue
    const named = byName.get(name)
    if (named) named.push(record)
    else byName.set(name, [record])
  }
  // an id answered to two creates or more: ids-unique (or create-returns-category, for an id the
  // body sent and the record took) reports it; the list that shows one record under it with the
  // other's name, or the record saved over (an ORM's save() of a body with an id), is that one
  // fault again. None listed under it is a fault of its own: the writes were lost
  const createdIndex = IdIndex.of(created.map((c) => c.record))
  for (const { sent, record, foundInList, changeToldHere, sharedIdToldHere } of created) {
    const id = idOf(record)
    if (!sharedIdToldHere && createdIndex.positionsOf(record).length > 1 && index.has(record)) continue
    // §1 rule 1: one create, one category (names carry the run id, so no one else made another;
    // an empty or repeated name is told apart by its description, which then carries it)
    const same = (r: { name?: unknown; description?: unknown }) => r.name === sent.name && r.description === sent.description
    // a record under another create's id is that create's, even when it lost what told them apart
    // (a store that drops descriptions lists a repeated name's two records alike): its change is
    // told where it shows, create-echoes-fields, and is no second record of this create
    const sameName = (byName.get(sent.name) ?? []).filter((r) => same(r) && !(createdIndex.has(r) && idOf(r) !== id))
    if (sameName.length > created.filter((c) => same(c.sent)).length) {
      fail(
        {
          code: 'DUPLICATE_CREATE',
          message: `the create of ${shownValue(sent.name)} made ${sameName.length} categories`,
          expected: `one listed category named ${shownValue(sent.name)}`,
          actual: `ids ${sameName.map(idOf).join(', ')}`,
        },
        ...results.map((r) => r.exchange),
      )
    }
    const listed = index.positionsOf(record).map((position) => list[position])
    const elsewhere = listed.length === 0 ? listedUnderAnotherId({ sent, record }, list, createdIndex, created) : undefined
    // listed under an id of its own, its answer's id another's too (every create answered 0: ids-unique's), or its answer another create's record (create-echoes-fields')
    if (elsewhere && ((!sharedIdToldHere && createdIndex.positionsOf(record).length > 1) || (!changeToldHere && answeredAnothersRecord({ sent, record }, created)))) continue
    if (elsewhere) failListedUnderAnotherId({ sent, record }, elsewhere, ...results)
    if (listed.length !== 1) {
      fail(
        {
          code: listed.length === 0 ? 'MISSING_FROM_LIST' : 'DUPLICATE_ID',
          message:
            listed.length === 0
              ? `created category ${id} (${shownValue(record.name)}) is missing from the list that followed`
              : `created category ${id} is listed ${listed.length} times${idPastDoubleOrigin(id) ?? ''}`,
          expected: `one record with id ${id} among the ${list.length} listed`,
          actual: listed.length === 0 ? 'no such id in the list' : `${listed.length} records with that id`,
        },
        ...results.map((r) => r.exchange),
      )
    }
    for (const [field, value] of Object.entries(sent)) {
      const shown = listed[0][field]
      if (shown !== value) {
        const asAnswered = !foundInList && !changeToldHere && shown === record[field] && field in listed[0] === field in record
        if (asAnswered) continue
        fail(
          {
            code: 'LISTED_FIELD_CHANGED',
            message: `category ${id} is listed with a different ${field} than it was created with${firstDifference(value, listed[0][field])}`,
            expected: `${field}: ${shownValue(value)} (as sent)`,
            actual: field in listed[0] ? `${field}: ${shownValue(listed[0][field])}` : `no "${field}" in the listed record`,
          },
          ...results.map((r) => r.exchange),
        )
      }
    }
  }
}

/** The fields §2 gives a Category besides its id; extra properties may change from list to list (a count of pets). */
const DOCUMENTED_FIELDS = ['name', 'description'] as const

/** The first documented field whose value or presence differs between two listings of a record. */
function changedField(record: CategoryRecord, again: CategoryRecord): (typeof DOCUMENTED_FIELDS)[number] | undefined {
  for (const field of DOCUMENTED_FIELDS) {
    const value = record[field]
    // equal values other than undefined are there in both: presence is asked only of undefined
    if (value !== again[field] || (value === undefined && field in record !== field in again)) return field
  }
  return undefined
}

/**
 * §4.1 "all categories", and no operation removes or changes one (§1 rule 1 names only list and
 * create): every category an earlier list showed is in a later list, with the same fields.
 */
export function expectStillListed(earlier: CategoryRecord[], later: CategoryRecord[], ...results: HttpResult[]): void {
  expectKept(earlier, later, true, results)
}

/** No operation changes a category: a record two lists show is alike in both, whichever came first and however far behind the writes either is. */
export function expectUnchangedWhereListed(earlier: CategoryRecord[], later: CategoryRecord[], ...results: HttpResult[]): void {
  expectKept(earlier, later, false, results)
}

function expectKept(earlier: CategoryRecord[], later: CategoryRecord[], allListed: boolean, results: HttpResult[]): void {
  const laterIndex = IdIndex.of(later)
  // where each earlier record is listed later: the last record with its id, as a Map from ids
  // would keep it (more than one: ids-unique reports it); -1 when it is not listed
  const againAt = new Int32Array(earlier.length)
  const vanished: CategoryRecord[] = []
  let shift = 0 // where the last record was found later, against where it was: records added before it move it
  for (let i = 0; i < earlier.length; i++) {
    againAt[i] = laterIndex.lastPositionOf(earlier[i], i + shift)
    if (againAt[i] < 0) vanished.push(earlier[i])
    else shift = againAt[i] - i
  }
  if (allListed && vanished.length > 0) {
    // the lowest id, so that the line does not depend on list order or on how many there are
    const lowest = vanished.reduce((a, b) => (idValue(b) < idValue(a) ? b : a))
    fail(
      {
        code: 'VANISHED_FROM_LIST',
        message: `a category listed first is missing from the list sent after the run's POSTs: id ${idOf(lowest)} (${shownValue(lowest.name)})${cutListWords(earlier, later, vanished, results)}`,
        expected: 'every category listed earlier listed again (the interface has no delete)',
        actual: `${vanished.length} of the ${earlier.length} listed first are missing from the ${later.length} listed later: ids ${vanished.slice(0, 10).map(idOf).join(', ')}${vanished.length > 10 ? ' …' : ''}`,
      },
      ...results.map((r) => r.exchange),
    )
  }
  for (let i = 0; i < earlier.length; i++) {
    if (againAt[i] < 0) continue
    const record = earlier[i]
    const again = later[againAt[i]]
    const field = changedField(record, again)
    if (field === undefined) continue
    fail(
      {
        code: 'CHANGED_BETWEEN_LISTS',
        message: `category ${idOf(record)} changed its ${field} between two lists${firstDifference(record[field], again[field])}`,
        expected: `${field}: ${field in record ? shownValue(record[field]) : '(absent)'}, as listed first`,
        actual: `${field}: ${field in again ? shownValue(again[field]) : '(absent)'}`,
      },
      ...results.map((r) => r.exchange),
    )
  }
}

/** An id to compare by: exact for integers (what a CategoryList holds), else as a number. */
function idValue(record: CategoryRecord): bigint | number {
  const text = idOf(record)
  return /^-?\d+$/.test(text) ? BigInt(text) : Number(text)
}

/**
 * The characters the case keys of suites/cases/ are made of, and so every marker after the run's
 * prefix (test/inputs/markers.test.ts keeps it so): a marker followed by one of them is the start of
 * a longer one (`cf-x-empty` in `cf-x-empty-name`), not the marker.
 */
const MARKER_CHARACTER = /[a-z0-9-]/

/**
 * Whether `text` holds `marker` as a whole: followed by its end or by a character no marker is made
 * of (a server that stores a refused body may keep what the body sent after the marker).
 */
export function holdsMarker(text: string, marker: string): boolean {
  for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) {
    const next = text[at + marker.length]
    if (next === undefined || !MARKER_CHARACTER.test(next)) return true
  }
  return false
}

/** Listed records whose name or description holds `marker`: what a refused POST would have stored. */
export function recordsHolding(list: CategoryRecord[], marker: string): CategoryRecord[] {
  const holds = (value: unknown) => typeof value === 'string' && holdsMarker(value, marker)
  return list.filter((record) => holds(record.name) || holds(record.description))
}

/**
 * §2: ids are assigned on creation. A create answered 201 after an earlier one with the same name
 * must be a new record, not the earlier one returned again (an "upsert"): its id differs.
 */
export function expectNewRecord(result: HttpResult, earlier: HttpResult): void {
  const id = exactIntegerTextAt(conformingBody(result, 'Category', 'create-returns-category'), 'id')
  const earlierId = exactIntegerTextAt(conformingBody(earlier, 'Category', 'create-returns-category'), 'id')
  if (id === null || id !== earlierId) return
  fail(
    {
      code: 'DUPLICATE_ID',
      message: `a create that repeated a name was answered 201 with the first record's id (${id}): the service returned the existing record instead of creating one (§2: ids are assigned on creation)`,
      expected: 'a new record with an id of its own, or a refusal (409, 422, or 400 with an Error record)',
      actual: `id ${id}, the id of the earlier create with this name`,
    },
    result.exchange,
    earlier.exchange,
  )
}
