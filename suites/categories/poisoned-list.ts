/**
 * §4.1: the list answers 200, whatever was created before it. A list that answered 200 as the run
 * found it, and breaks after the run's creates, was most likely broken by a value it stored and
 * cannot give back (suites/cases/poison-values.ts): the failure names the creates of such values the
 * service accepted (201), or answered with a fault it may have stored (5xx, no answer), and their class.
 *
 * The first list goes out beside the POSTs, not before them (waiting for it would cost every run a
 * round trip), and that is enough: such a value breaks every list from the moment it is stored, so
 * a first list answered 200 was read before it was. When one was stored first, the first list
 * breaks too, and the failure says only the status.
 */
import { fail } from '../../lib/checks/failure.ts'
import { describeStatus, expectStatus, responseOf, statusFailureCode } from '../../lib/checks/response.ts'
import type { HttpResult } from '../../lib/http/client.ts'
import { parseJsonExact } from '../../lib/json/exact-json.ts'
import type { CreateProbe } from './probes.ts'

/** A create that may have stored its value: answered 201, with a server fault, or not at all. */
const mayHaveStored = (result: HttpResult) => {
  const status = result.exchange.response?.status
  return status === undefined ? result.exchange.sent !== false : status === 201 || status >= 500
}

/** The creates of values a store may be unable to give back that the service may have stored. */
async function storedPoisonCreates(creates: readonly CreateProbe[]): Promise<{ create: CreateProbe; result: HttpResult }[]> {
  const sent = await Promise.allSettled(creates.filter((c) => c.case.holds).map(async (create) => ({ create, result: await create.probe() })))
  return sent.flatMap((s) => (s.status === 'fulfilled' && mayHaveStored(s.value.result) ? [s.value] : []))
}

/** How many categories a list answered 200 held, or undefined when its body is not an array. */
function categoriesIn(list: HttpResult): number | undefined {
  try {
    const records = parseJsonExact(list.text ?? '')
    return Array.isArray(records) ? records.length : undefined
  } catch {
    return undefined
  }
}

/** The list after the run's POSTs answers 200; if it breaks after a 200 before them, the failure names the creates that may have broken it. */
export async function expectListNotPoisoned(list: HttpResult, before: HttpResult | undefined, creates: readonly CreateProbe[]): Promise<void> {
  const response = responseOf(list)
  if (response.status === 200 || before?.exchange.response?.status !== 200) return expectStatus(list, 200)
  const suspects = await storedPoisonCreates(creates)
  if (suspects.length === 0) return expectStatus(list, 200)
  // a create the service answered with a fault (or not at all) is the likeliest: it failed on that value, and may have stored it
  const faulted = suspects.filter(({ result }) => result.exchange.response?.status !== 201)
  const named = (faulted.length > 0 ? faulted : suspects).map(({ create, result }) => `${create.case.key} (answered ${result.exchange.response?.status ?? 'nothing'}) holding ${create.case.holds}`)
  const others = faulted.length > 0 ? suspects.filter((s) => !faulted.includes(s)).map((s) => s.create.case.key) : []
  const one = named.length === 1
  const also = others.length > 0 ? ` (the service also took ${others.join(', ')}, with values of other such classes)` : ''
  const status = describeStatus(response)
  const held = categoriesIn(before)
  const advice = 'A store that accepts a value it cannot give back breaks every later list, for every client: refuse such a value with 400, or store it so that it can be answered'
  // a list that held categories before shows that records as such do not break it; an empty one shows nothing of the kind
  const message =
    held === 0
      ? `the list answered ${status} after the run's creates, and 200 before them, when it held no category: it breaks on any record, or on a value it cannot give back, ` +
        `such as ${one ? 'the one of' : 'those of'} ${named.join('; and ')}${also}. ${advice}`
      : `the list answered ${status} after the create${one ? '' : 's'} of ${named.join('; and ')}${one ? '' : ' (one of them or more is a value the store cannot give back)'}; ` +
        `before ${one ? 'it' : 'them'}, 200${held === undefined ? '' : ` with ${held} ${held === 1 ? 'category' : 'categories'}`}${also}. ${advice}`
  fail(
    {
      code: statusFailureCode(response),
      message,
      expected: 'status 200: the list holds all categories (§4.1), whatever was created',
      actual: `status ${status}; before the run's creates: 200`,
    },
    list.exchange,
    ...suspects.map((s) => s.result.exchange),
    before.exchange,
  )
}
