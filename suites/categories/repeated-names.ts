/**
 * Whether a service takes repeated names, from the creates whose name every run sends alike
 * (valid-create.ts, nameOfEveryRun): for create-returns-201's excuse of a 409 or 400 to such a name
 * as a repeat's, when this run's own repeated name says nothing of repeats (its first create was
 * refused: a name column shorter than the prefix makes it); and what a refusal of such a name as a
 * repeat, where the key's list shows no record of it, says (another account's record holds it).
 */
import { fail, NotApplicable } from '../../lib/checks/failure.ts'
import { describeStatus, responseOf, statusFailure } from '../../lib/checks/response.ts'
import type { HttpResult } from '../../lib/http/client.ts'
import { readableRecords } from './list-checks.ts'
import type { CreateProbe } from './probes.ts'
import { POST_PROBE_ORDER } from '../cases/write-order.ts'

/**
 * The create of `creates` (not `judged`) whose name every run sends that was answered 201 though
 * `list` shows a record of exactly that name with another description (an earlier run's, another
 * client's): the service took a repeated name, so it refuses none as a repeat. Undefined when none was.
 * The empty name is no evidence: a UNIQUE index compares no NULL, and a store may keep '' as one.
 */
export async function takenRepeat(judged: CreateProbe, creates: readonly CreateProbe[], list: HttpResult): Promise<{ result: HttpResult; name: string } | undefined> {
  const records = readableRecords(list)
  for (const other of creates.filter((p) => p !== judged && p.case.nameOfEveryRun)) {
    const result = await other.probe().catch(() => undefined)
    if (result?.exchange.response?.status !== 201) continue
    const sent = await other.sent()
    // not the empty name: a store that keeps it as NULL (Oracle's '' = NULL) lets a UNIQUE index repeat it, and may list NULL as ""
    if (sent.name !== '' && records.some((record) => record.name === sent.name && record.description !== sent.description)) return { result, name: sent.name }
  }
  return undefined
}

/**
 * A refusal of a name every run sends (`judged`, answered `result`) where the list shows no record
 * of that name, in the status this run's own repeated name (create-repeated-name) got after its first
 * create was taken: the service refuses repeats so, and something the key's list does not show holds
 * the name. Names unique over every account while each key lists its own account's records (measured
 * by stackhunt11: Flask over SQLite, a UNIQUE name over all accounts' records) refuse it once
 * another account's run stored it, as they may: keys are issued for the account (§5.2), repeats are
 * the service's to refuse, and a 409 is a status §7 does not show. Not verified (cause
 * `name-held-elsewhere`), unless another name every run sends ahead of it (not the empty one) was taken in this
 * run: a run that stored this name stored that one too, so the service refused the name itself (a
 * store keyed by name in a plain object reads __proto__ as taken): it fails. One sent after it and
 * taken proves nothing alone (a run under --max-writes, or of an older suite, stored fewer), but
 * beside a refusal told otherwise than the repeat's (PHP's empty(): "name is required") it fails too (review54). False when the repeat
 * says nothing of repeats (it was taken, or answered otherwise, or its first create was refused).
 * A name this run made its own never gets here: no other run sent it (create-checks.ts).
 */
export async function unlistedRepeat(judged: CreateProbe, result: HttpResult, creates: readonly CreateProbe[], t: { evidence(result: HttpResult): void }): Promise<false> {
  const repeats = creates.find((p) => p.case.repeats)
  const [repeated, first] = await Promise.all([repeats, creates.find((p) => p.case.key === repeats?.case.repeats)].map((p) => p?.probe().catch(() => undefined)))
  const status = responseOf(result).status
  if (repeated?.exchange.response?.status !== status || first?.exchange.response?.status !== 201) return false
  t.evidence(repeated)
  const name = JSON.stringify((await judged.sent()).name)
  const taken = await takenEveryRunName(judged, creates, true)
  // one sent after it, taken, is evidence only with a refusal told otherwise than the repeat's (PHP's empty(): "name is required", not "taken")
  const later = taken ?? (await takenEveryRunName(judged, creates, false))
  const toldOtherwise = taken === undefined && later !== undefined && refusalShape(result.text, await judged.sent()) !== refusalShape(repeated.text, await repeats!.sent())
  if (taken === undefined && !toldOtherwise) {
    throw new NotApplicable(
      `not verified: POST answered ${describeStatus(responseOf(result))} to ${name}, a name every run sends, as the service refuses a repeated name (this run's own, create-repeated-name, got ${status} after its first create was taken), ` +
        "and the key's list shows no record of it: names unique across accounts, another account's record (another run's, under another key) holds it, which §4.1 and §5.2 (a key issued for the account) let the list leave out; repeats are the service's to refuse",
      'name-held-elsewhere',
    )
  }
  const other = JSON.stringify((taken ?? later)!.name)
  t.evidence((taken ?? later)!.result)
  const why = taken
    ? `a run that stored ${name} (another account's) would have stored ${other} too (sent ahead of it), so the service refused ${name} itself, not a repeat (a store keyed by name in a plain object reads __proto__ as taken)`
    : `the refusal of ${name} is told otherwise than the repeat's (their bodies differ, names and digits aside), so the service refused ${name} itself, not a repeat (PHP's empty() takes "0" and "" for no name)`
  return fail(
    {
      ...statusFailure(responseOf(result)),
      message:
        `POST answered ${describeStatus(responseOf(result))}, expected 201: the service refuses a repeated name so (this run's own, create-repeated-name, got ${status} too), but the list shows no record of ${name}, ` +
        `and this run's ${other}, another name every run sends, got 201: ${why}`,
      expected: 'status 201: the values are valid (§4.2 rule 2); a repeated name may be refused, where a record holds it',
      actual: `status ${describeStatus(responseOf(result))}; ${other}: 201`,
    },
    result.exchange,
  )
}

/**
 * A refusal's body with the values sent (description first, then name) and every digit taken out:
 * what stays the same of one refusal told for two creates (the values echoed, a record's id, a time aside).
 */
const refusalShape = (text: string | undefined, sent: { name: string; description?: string | null }): string =>
  [sent.description, sent.name].reduce((rest: string, value) => (typeof value === 'string' && value !== '' ? rest.split(value).join('') : rest), text ?? '').replace(/[0-9]/g, '')

/**
 * Of `creates`, a name every run sends ahead of `judged` (POST_PROBE_ORDER; after it, unless `ahead`; not the empty one: a UNIQUE
 * index may compare no NULL) that this run's create got 201 for; undefined when none did. Only one
 * sent ahead: a run under --max-writes keeps the first POSTs of that order, and a suite of a version before
 * "__proto__" sent "" and "0" alone, so another account's run that stored `judged`'s name need not
 * have stored one sent after it (review54: "0" held elsewhere, "__proto__" taken, failed): such a one
 * is evidence only beside a refusal told otherwise than the repeat's (unlistedRepeat).
 */
async function takenEveryRunName(judged: CreateProbe, creates: readonly CreateProbe[], ahead: boolean): Promise<{ result: HttpResult; name: string } | undefined> {
  const before = (p: CreateProbe) => POST_PROBE_ORDER.indexOf(p.case.key) < POST_PROBE_ORDER.indexOf(judged.case.key)
  for (const other of creates.filter((p) => p !== judged && p.case.nameOfEveryRun && before(p) === ahead)) {
    const result = await other.probe().catch(() => undefined)
    if (result?.exchange.response?.status !== 201) continue
    const { name } = await other.sent()
    if (name !== '') return { result, name }
  }
  return undefined
}

/**
 * A 409 to a create whose name this run made its own (neither one every run sends nor this run's
 * repeated name), in a failure's words: no other run, under any account, sent that name. '' otherwise.
 */
export const ownNameConflict = (c: CreateProbe, status: number): string =>
  status === 409 && !c.case.nameOfEveryRun && !c.case.repeats
    ? ": a name only this run sends (made from its prefix), which no other run's or account's record can hold: not a repeat of another's name (a conflict on another field answered as the name's, or this create sent twice?)"
    : ''
