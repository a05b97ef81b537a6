/**
 * §4.1: the list answers 200 with an array of Category records, whatever was created before it. A
 * list that did so as the run found it, and breaks after the run's creates (a 500, or a 200 whose
 * body is no longer the array: PHP's `echo json_encode(...)` prints nothing when it fails), was most
 * likely broken by a value it stored and cannot give back (suites/cases/poison-values.ts): the
 * failure names the creates of such values the service took (201), or answered with a fault it may
 * have stored (5xx, no answer), and their class; and so the bodies that are not JSON holding bytes
 * a writer cannot write, among those already answered (a parser that checks no UTF-8, Ruby's json
 * 2.6, stores them, and its to_json then fails on that create's answer and on every list).
 *
 * The first list goes out beside the POSTs, not before them (waiting for it would cost every run a
 * round trip), and that is enough: such a value breaks every list from the moment it is stored, so
 * a first list that was whole was read before it was. When one was stored first, the first list
 * breaks too, and the failure says only what the last list did.
 */
import { ConformanceFailure, fail } from '../../lib/checks/failure.ts'
import { describeStatus, expectStatus, requireStatus, responseOf, statusFailure } from '../../lib/checks/response.ts'
import { expectSchema } from '../../lib/checks/schema.ts'
import type { HttpResult } from '../../lib/http/client.ts'
import type { Exchange } from '../../lib/http/exchange.ts'
import { parseJsonExact } from '../../lib/json/exact-json.ts'
import type { CreateProbe, RefusalProbe } from './probes.ts'

const ADVICE =
  'A store that accepts a value it cannot give back breaks every later list, for every client: refuse such a value with 400, or store it so that it can be answered'

/** A create that may have stored its value: answered 201, with a server fault, or not at all. */
const mayHaveStored = (result: HttpResult) => {
  const status = result.exchange.response?.status
  return status === undefined ? result.exchange.sent !== false : status === 201 || status >= 500
}

interface Suspect {
  key: string
  holds: string
  result: HttpResult
}

/**
 * The creates of values a store may be unable to give back that the service may have stored; and
 * the bodies that are not JSON holding such a value that it took or answered with a fault (a
 * parser that does not check UTF-8 stores the bytes and fails writing its answer), among those
 * already answered (none is sent for this).
 */
async function storedPoisonCreates(creates: readonly CreateProbe[], refusals: readonly RefusalProbe[]): Promise<Suspect[]> {
  const sent = await Promise.allSettled(creates.filter((c) => c.case.holds).map(async (create) => ({ key: create.case.key, holds: create.case.holds!, result: await create.probe() })))
  const malformed = refusals.flatMap((r) => {
    const result = r.poison?.answered()
    return r.poison && result ? [{ key: r.key, holds: r.poison.holds, result }] : []
  })
  return [...sent.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : [])), ...malformed].filter((s) => mayHaveStored(s.result))
}

/** How many categories the first list held, when it was a 200 with an array; otherwise it gives nothing to compare. */
function categoriesIn(list: HttpResult | undefined): number | undefined {
  if (list?.exchange.response?.status !== 200) return undefined
  try {
    const records = parseJsonExact(list.text ?? '')
    return Array.isArray(records) ? records.length : undefined
  } catch {
    return undefined
  }
}

/**
 * What a list broken after the run's creates says of them: "after the create of … holding …;
 * before it, 200 with N categories", with the exchanges that show it; undefined when the first list
 * was not a 200 array or the service took none of those values.
 */
async function poisonedBy(before: HttpResult | undefined, creates: readonly CreateProbe[], refusals: readonly RefusalProbe[]): Promise<{ clause: string; exchanges: Exchange[] } | undefined> {
  const held = categoriesIn(before)
  if (held === undefined || before === undefined) return undefined
  const suspects = await storedPoisonCreates(creates, refusals)
  if (suspects.length === 0) return undefined
  // a create the service answered with a fault (or not at all) is the likeliest: it failed on that value, and may have stored it
  const faulted = suspects.filter(({ result }) => result.exchange.response?.status !== 201)
  const named = (faulted.length > 0 ? faulted : suspects).map(({ key, holds, result }) => `${key} (answered ${result.exchange.response?.status ?? 'nothing'}) holding ${holds}`)
  const others = faulted.length > 0 ? suspects.filter((s) => !faulted.includes(s)).map((s) => s.key) : []
  const one = named.length === 1
  const also = others.length > 0 ? ` (the service also took ${others.join(', ')}, with values of other such classes)` : ''
  // a list that held categories before shows that records as such do not break it; an empty one shows nothing of the kind
  const clause =
    held === 0
      ? `after the run's creates, and was whole before them, when it held no category: it breaks on any record, or on a value it cannot give back, ` +
        `such as ${one ? 'the one of' : 'those of'} ${named.join('; and ')}${also}`
      : `after the create${one ? '' : 's'} of ${named.join('; and ')}${one ? '' : ' (one of them or more is a value the store cannot give back)'}; ` +
        `before ${one ? 'it' : 'them'}, 200 with ${held} ${held === 1 ? 'category' : 'categories'}${also}`
  return { clause, exchanges: [...suspects.map((s) => s.result.exchange), before.exchange] }
}

/** The ids of the records the creates made (answered 201 with an id), as text. */
async function createdIds(creates: readonly CreateProbe[]): Promise<string[]> {
  const settled = await Promise.allSettled(creates.map((c) => c.probe()))
  return settled.flatMap((s) => {
    if (s.status !== 'fulfilled' || s.value.exchange.response?.status !== 201) return []
    try {
      const id = (parseJsonExact(s.value.text ?? '') as { id?: unknown } | null)?.id
      return typeof id === 'number' || typeof id === 'bigint' || typeof id === 'string' ? [String(id)] : []
    } catch {
      return []
    }
  })
}

/**
 * Another list read once every create had settled (`after`: the browser's list) that answered 200
 * with an array of Category records holding every record the creates made (a list behind the
 * writes, or a copy kept from before them, shows nothing of their values): what the creates stored
 * does not break the list, so a list broken beside it is a fault one time in so many (a gateway's
 * 502, a replica), not the records'.
 */
async function wholeAfter(after: (() => Promise<HttpResult>) | undefined, creates: readonly CreateProbe[]): Promise<number | undefined> {
  if (!after) return undefined
  try {
    const list = await after()
    if (list.exchange.response?.status !== 200 || !heldShape(list)) return undefined
    const listed = new Set((parseJsonExact(list.text ?? '') as { id?: unknown }[]).map((r) => String(r.id)))
    return (await createdIds(creates)).every((id) => listed.has(id)) ? categoriesIn(list) : undefined
  } catch {
    return undefined
  }
}

const whole = (held: number) =>
  `; the list read after the same creates with a browser's Accept answered 200 with ${held} ${held === 1 ? 'category' : 'categories'}, so no value they stored breaks it: a fault one time in so many (a gateway in front, a replica)`

/**
 * list-returns-200 on the list after the run's POSTs: 200; a list broken after a whole one names the
 * creates that may have broken it, unless `after`, a list read once they had all settled, was whole.
 */
export async function expectListNotPoisoned(
  list: HttpResult,
  before: HttpResult | undefined,
  creates: readonly CreateProbe[],
  refusals: readonly RefusalProbe[] = [],
  after?: () => Promise<HttpResult>,
): Promise<void> {
  const response = responseOf(list)
  if (response.status === 200) return
  // a refusal of the key says nothing of what is stored (a limiter, an auth backend down a moment)
  const poisoned = response.status === 401 || response.status === 403 ? undefined : await poisonedBy(before, creates, refusals)
  if (!poisoned) return expectStatus(list, 200)
  const held = await wholeAfter(after, creates)
  if (held !== undefined) return expectStatus(list, 200, undefined, whole(held))
  const status = describeStatus(response)
  fail(
    {
      ...statusFailure(response),
      message: `the list answered ${status} ${poisoned.clause}. ${ADVICE}`,
      expected: 'status 200: the list holds all categories (§4.1), whatever was created',
      actual: `status ${status}; before the run's creates: 200`,
    },
    list.exchange,
    ...poisoned.exchanges,
  )
}

/** Whether a list was an array of Category records (CategoryList). */
function heldShape(list: HttpResult): boolean {
  try {
    expectSchema(list, 'CategoryList', 'an array of Category records')
    return true
  } catch {
    return false
  }
}

/** list-returns-category-array on the list after the run's POSTs: an array of Category records; one broken after a whole one names the creates that may have broken it. */
export async function expectListShapeNotPoisoned(
  list: HttpResult,
  before: HttpResult | undefined,
  creates: readonly CreateProbe[],
  reportedBy: string,
  refusals: readonly RefusalProbe[] = [],
  after?: () => Promise<HttpResult>,
): Promise<void> {
  requireStatus(list, [200], reportedBy)
  try {
    expectSchema(list, 'CategoryList', 'an array of Category records')
  } catch (error) {
    // a first list that was no array of Category records already (a null description) was not whole: no create broke it
    const poisoned = error instanceof ConformanceFailure && before !== undefined && heldShape(before) ? await poisonedBy(before, creates, refusals) : undefined
    if (!poisoned || !(error instanceof ConformanceFailure)) throw error
    const held = await wholeAfter(after, creates)
    if (held !== undefined) fail({ ...error.detail(), message: `${error.message}${whole(held)}` }, ...error.exchanges)
    // what the body showed (observed) stays the failure's, for a baseline entry and compare: only the words grow
    fail({ ...error.detail(), message: `${error.message}; the list broke ${poisoned.clause}. ${ADVICE}` }, ...error.exchanges, ...poisoned.exchanges)
  }
}
