/**
 * §4.1 "all categories", and no operation removes or changes one (§1 rule 1 names only list and
 * create): what the run's first list showed, its later lists show (list-checks.ts reads them).
 */
import { expectStillListed, expectUnchangedWhereListed, missingFromList, type CategoryRecord } from '../../lib/checks/category.ts'
import { check } from '../../lib/suite-kit/check.ts'
import { thisRun } from '../../lib/suite-kit/run-context.ts'
import { createdRecords, listedRecords, settledList, usableRecords } from './list-checks.ts'
import { answeredAt, type CategoryProbes } from './probes.ts'

/** Where the run's first list is kept for the check's confirmation attempts (RunContext.firstAnswers). */
const FIRST_LIST = 'still-listed: first list'

/**
 * No operation removes or changes a category, so the list after the run's POSTs, and every read of
 * it again, holds every category the first list showed, unchanged; and every other list of the run
 * shows the ones it holds unchanged, however far behind the writes. No request of its own: the lists
 * are the run's, and the last is sent only after the first was answered (suites/categories/probes.ts).
 */
export function stillListedCheck(probes: CategoryProbes): void {
  const { context } = thisRun()
  check(
    'created-in-list',
    "GET /categories, then again after the run's POSTs → every category listed first is listed again, unchanged",
    async (t) => {
      const first = await t.use(probes.firstList)
      // a confirmation attempt (stackhunt11: "unconfirmed" on a list that lost them every time) sends
      // no POST it was not found on: it reads the list again, its own first, and asks whether what
      // the run's first list showed is listed still, unchanged
      // (the run's first list is the failure's evidence already: the attempt's is the list read again);
      // a first list that was no list (unanswered, garbled) failed otherwise: its attempt goes as before
      const runs = context.firstAnswers?.get(FIRST_LIST) as CategoryRecord[] | undefined
      if (context.confirming && runs) return expectStillListed(runs, listedRecords(first), first)
      const records = context.confirming ? undefined : usableRecords(first)
      if (records) context.firstAnswers?.set(FIRST_LIST, records)
      const { list } = await probes.lastList()
      t.evidence(list)
      const earlier = listedRecords(first)
      expectStillListed(earlier, listedRecords(list), first, list)
      // and every read of it again that lists every record the run created (a replica that lost old
      // rows answers one read in a few): one that lags may lack what another client created as the
      // run began, but a read that shows the run's creates has every write before them too
      const [{ lists }, { creations }] = await Promise.all([settledList(probes), createdRecords(probes.creates)])
      // and every other list of the run answered to the key after the first (as a browser asks for
      // it, with no User-Agent, right after a request without the key) that shows them too
      const others = await Promise.allSettled([probes.browserList(), probes.bareList(), probes.keyAfterNone().then((k) => k.keyed)])
      const firstAnswered = answeredAt(first)
      const later = others.flatMap((o) => (o.status === 'fulfilled' && o.value.exchange.response && Date.parse(o.value.exchange.startedAt) >= firstAnswered ? [o.value] : []))
      for (const again of [...lists.slice(1), ...later]) {
        const records = usableRecords(again)
        if (records === undefined || missingFromList(creations, records).length > 0) continue // not a list (rereadChecks reports it), or one behind
        t.evidence(again)
        expectStillListed(earlier, records, first, again)
      }
      // a list behind the writes, or asked for before the first was answered, may lack a record;
      // the records it shows are as the first showed them (a cache of the list for one Accept)
      for (const again of [...lists.slice(1), ...others.flatMap((o) => (o.status === 'fulfilled' && o.value.exchange.response ? [o.value] : []))]) {
        const records = usableRecords(again)
        if (records === undefined) continue
        t.evidence(again)
        expectUnchangedWhereListed(earlier, records, first, again)
      }
    },
    // the first list is answered before the last goes out, whatever order the checks run in
    { sentBefore: [{ gate: probes.lastListWaits, probe: probes.firstList }] },
  )
}
