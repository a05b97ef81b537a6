/**
 * suites/categories/list-lag.ts on built responses: a list that lags behind the writes is read
 * again (with growing waits adding up to --list-lag, never up to the run's deadline) before a
 * created record counts as missing; a list that shows them all, or one that is not a list, is not
 * read again.
 */
import { describe, expect, test } from 'vitest'
import { missingFromList, type CategoryRecord, type Creation } from '../../lib/checks/category.ts'
import type { HttpResult } from '../../lib/http/client.ts'
import { parseJsonExact } from '../../lib/json/exact-json.ts'
import { ConformanceFailure } from '../../lib/checks/failure.ts'
import { listedAfterLag, readAsFirstAsked, readOnceMore, READS_PAST_THE_LAG, readPastTheLag, REREAD_ROOM_MS, rereadWaits, settleAfterSlowCreate, withLagSaid, type ListLag } from '../../suites/categories/list-lag.ts'
import { makeResponse } from './make-response.ts'

const creation = (id: number, name: string): Creation => ({ sent: { name }, record: { id, name } as CategoryRecord })
const created = [creation(1, 'run-a'), creation(2, 'run-b')]
const list = (...records: object[]) => makeResponse({ body: records })
const recordsOf = (r: HttpResult) => (r.exchange.response?.status === 200 ? (parseJsonExact(r.text!) as CategoryRecord[]) : undefined)
const DEFAULT_WAITS = rereadWaits(5_000)
/** The default number of re-reads, without the waiting, and no deadline. */
const NO_WAIT: ListLag = { waits: DEFAULT_WAITS.map(() => 0), msLeft: () => Infinity }

/** A server whose answers to the re-reads are `answers`, in order. */
function rereads(...answers: HttpResult[]) {
  let calls = 0
  return { read: async () => answers[calls++] ?? answers[answers.length - 1], calls: () => calls }
}

describe('missingFromList', () => {
  test('the created records whose id is not listed, whatever the order', () => {
    expect(missingFromList(created, parseJsonExact('[{"id":2,"name":"run-b"},{"id":9,"name":"x"}]') as CategoryRecord[])).toEqual([created[0]])
    expect(missingFromList(created, parseJsonExact('[{"id":2,"name":"run-b"},{"id":1,"name":"run-a"}]') as CategoryRecord[])).toEqual([])
  })
})

describe('listedAfterLag', () => {
  test('a list that shows every created record is judged as it is, without a re-read', async () => {
    const server = rereads(list())
    const first = list({ id: 1, name: 'run-a' }, { id: 2, name: 'run-b' })
    const { lists, judged } = await listedAfterLag(created, first, server.read, recordsOf, NO_WAIT)
    expect(server.calls()).toBe(0)
    expect(lists).toEqual([first])
    expect(judged).toBe(first)
  })

  test('a list that catches up on the second re-read is judged on that one; every list read is evidence', async () => {
    const caughtUp = list({ id: 1, name: 'run-a' }, { id: 2, name: 'run-b' })
    const server = rereads(list({ id: 1, name: 'run-a' }), caughtUp)
    const first = list()
    const { lists, judged } = await listedAfterLag(created, first, server.read, recordsOf, NO_WAIT)
    expect(server.calls()).toBe(2)
    expect(lists).toHaveLength(3)
    expect(judged).toBe(caughtUp)
  })

  test('a list that never shows them is read again as many times as there are waits, then judged (and fails)', async () => {
    const server = rereads(list({ id: 1, name: 'run-a' }))
    const { lists, judged } = await listedAfterLag(created, list(), server.read, recordsOf, NO_WAIT)
    expect(server.calls()).toBe(DEFAULT_WAITS.length)
    expect(lists).toHaveLength(DEFAULT_WAITS.length + 1)
    expect(missingFromList(created, recordsOf(judged)!)).toEqual([created[1]])
  })

  test('a re-read that is not a list ends the waiting; the last list is judged', async () => {
    const server = rereads(makeResponse({ status: 503, body: '' }))
    const first = list({ id: 1, name: 'run-a' })
    const { lists, judged } = await listedAfterLag(created, first, server.read, recordsOf, NO_WAIT)
    expect(server.calls()).toBe(1)
    expect(lists).toHaveLength(2)
    expect(judged).toBe(first)
  })

  test('a first list that is not a list is not read again (another check reports it)', async () => {
    const server = rereads(list())
    await listedAfterLag(created, makeResponse({ status: 500, body: '' }), server.read, recordsOf, NO_WAIT)
    expect(server.calls()).toBe(0)
  })

  test('the deadline drawing near ends the waiting: no wait is begun that would leave less than a re-read\'s room; the lists read are judged', async () => {
    const server = rereads(list({ id: 1, name: 'run-a' }))
    // room for the first two waits (100 ms each), not for the third
    let left = 2 * 100 + REREAD_ROOM_MS + 50
    const lag: ListLag = { waits: [100, 100, 100, 100], msLeft: () => left }
    const { lists, judged, waitedMs, cutShort } = await listedAfterLag(created, list(), async () => ((left -= 100), server.read()), recordsOf, lag)
    expect(server.calls()).toBe(2)
    expect(lists).toHaveLength(3)
    expect(missingFromList(created, recordsOf(judged)!)).toEqual([created[1]])
    expect({ waitedMs, cutShort }).toEqual({ waitedMs: 200, cutShort: true })
    const none = rereads(list())
    await listedAfterLag(created, list(), none.read, recordsOf, { waits: [200], msLeft: () => REREAD_ROOM_MS })
    expect(none.calls()).toBe(0)
  })
})

describe('readPastTheLag (a list that differs from read to read)', () => {
  const whole = () => list({ id: 1, name: 'run-a' }, { id: 2, name: 'run-b' })
  const lacking = () => list({ id: 1, name: 'run-a' })
  // --list-lag 100 ms, the last create answered just now: the reads past the lag wait about 100 ms
  const lag: ListLag = { waits: [100], msLeft: () => Infinity }

  test('one replica of four keeps its writes: whole on the re-read that reached it, the first read past --list-lag that lacks a record is judged', async () => {
    const first = lacking()
    const read = await listedAfterLag(created, first, rereads(whole()).read, recordsOf, NO_WAIT)
    expect(read.judged).not.toBe(first)
    const server = rereads(whole(), lacking(), whole())
    const past = await readPastTheLag(created, read, server.read, recordsOf, lag, Date.now())
    expect(server.calls()).toBe(2)
    expect(past.lists).toHaveLength(4)
    expect(missingFromList(created, recordsOf(past.judged)!)).toEqual([created[1]])
    expect(past.pastTheLag).toBeDefined()
    expect(past.waitedMs).toBeGreaterThan(50)
  })

  test('a lag that is over past --list-lag: read READS_PAST_THE_LAG times, every record listed, the last judged', async () => {
    const read = await listedAfterLag(created, lacking(), rereads(whole()).read, recordsOf, NO_WAIT)
    const server = rereads(whole())
    const past = await readPastTheLag(created, read, server.read, recordsOf, lag, Date.now() - 1_000)
    expect(server.calls()).toBe(READS_PAST_THE_LAG)
    expect(missingFromList(created, recordsOf(past.judged)!)).toEqual([])
  })

  test('nothing differed (whole at once, or never whole), --list-lag 0, or the deadline near: no read more', async () => {
    const server = rereads(lacking())
    const atOnce = await listedAfterLag(created, whole(), server.read, recordsOf, NO_WAIT)
    expect(await readPastTheLag(created, atOnce, server.read, recordsOf, lag, Date.now())).toBe(atOnce)
    const never = await listedAfterLag(created, lacking(), server.read, recordsOf, NO_WAIT)
    const calls = server.calls()
    expect(await readPastTheLag(created, never, server.read, recordsOf, lag, Date.now())).toBe(never)
    const caughtUp = await listedAfterLag(created, lacking(), rereads(whole()).read, recordsOf, NO_WAIT)
    expect(await readPastTheLag(created, caughtUp, server.read, recordsOf, { waits: [], msLeft: () => Infinity }, Date.now())).toBe(caughtUp)
    expect(await readPastTheLag(created, caughtUp, server.read, recordsOf, { waits: [5_000], msLeft: () => REREAD_ROOM_MS }, Date.now())).toBe(caughtUp)
    expect(server.calls()).toBe(calls)
  })
})

describe('lag.seen: what the ledger\'s last list read waits out --list-lag for (suites/categories/probes.ts listForLedger)', () => {
  const whole = () => list({ id: 1, name: 'run-a' }, { id: 2, name: 'run-b' })
  const lacking = () => list({ id: 1, name: 'run-a' })
  const told = () => {
    let times = 0
    return { lag: { waits: [0], msLeft: () => Infinity, seen: () => void times++ } satisfies ListLag, times: () => times }
  }

  test('told when a re-read shows what the first read lacked, and when reads differ (a replica whole, another not)', async () => {
    const caughtUp = told()
    await listedAfterLag(created, lacking(), rereads(whole()).read, recordsOf, caughtUp.lag)
    expect(caughtUp.times()).toBe(1)
    const replicas = told()
    await readPastTheLag(created, { lists: [whole(), lacking()], judged: lacking(), waitedMs: 0, cutShort: false }, rereads(lacking()).read, recordsOf, replicas.lag, Date.now())
    expect(replicas.times()).toBeGreaterThan(0)
  })

  test('not told for a list whole at once, nor for one that never shows a record', async () => {
    const atOnce = told()
    const read = await listedAfterLag(created, whole(), rereads(whole()).read, recordsOf, atOnce.lag)
    await readPastTheLag(created, read, rereads(whole()).read, recordsOf, atOnce.lag, Date.now())
    const never = told()
    const neverRead = await listedAfterLag(created, lacking(), rereads(lacking()).read, recordsOf, never.lag)
    await readPastTheLag(created, neverRead, rereads(lacking()).read, recordsOf, never.lag, Date.now())
    expect([atOnce.times(), never.times()]).toEqual([0, 0])
  })
})

describe('readOnceMore (a list whole on its first read)', () => {
  const whole = () => list({ id: 1, name: 'run-a' }, { id: 2, name: 'run-b' })
  const lacking = () => list({ id: 1, name: 'run-a' })
  const lag: ListLag = { waits: [100], msLeft: () => Infinity }

  test('the replica that keeps its writes answered the first read: the second lacks a record, the reads past --list-lag too, and one of those is judged', async () => {
    const first = whole()
    const read = await listedAfterLag(created, first, rereads(whole()).read, recordsOf, NO_WAIT)
    const server = rereads(lacking())
    const more = await readOnceMore(created, read, server.read, recordsOf, lag, Date.now())
    expect(server.calls()).toBe(2)
    expect(more.lists).toHaveLength(3)
    expect(more.pastTheLag).toBe(true)
    expect(missingFromList(created, recordsOf(more.judged)!)).toEqual([created[1]])
  })

  test('a second read whole is judged (not a list: the first), its evidence kept; a list that lagged, --list-lag 0 or no create: no read more', async () => {
    const first = whole()
    const read = await listedAfterLag(created, first, rereads(whole()).read, recordsOf, NO_WAIT)
    const second = whole()
    const same = rereads(second)
    const more = await readOnceMore(created, read, same.read, recordsOf, lag, Date.now())
    expect({ calls: same.calls(), lists: more.lists.length, judged: more.judged === second, pastTheLag: more.pastTheLag }).toEqual({ calls: 1, lists: 2, judged: true, pastTheLag: undefined })
    const broken = rereads(makeResponse({ status: 500, body: '' }))
    expect((await readOnceMore(created, read, broken.read, recordsOf, lag, Date.now())).judged).toBe(first)
    const none = rereads(lacking())
    const lagged = await listedAfterLag(created, lacking(), rereads(whole()).read, recordsOf, NO_WAIT)
    expect(await readOnceMore(created, lagged, none.read, recordsOf, lag, Date.now())).toBe(lagged)
    expect(await readOnceMore(created, read, none.read, recordsOf, { waits: [], msLeft: () => Infinity }, Date.now())).toBe(read)
    expect(await readOnceMore([], read, none.read, recordsOf, lag, Date.now())).toBe(read)
    expect(none.calls()).toBe(0)
  })

  // lagging-list-hides-refused-stored passed with the checks one at a time on a loaded machine: the
  // first list came 400 ms after the last create (so showed the creates) and 1 ms after the last
  // refusal, which the service had stored, and the second read went at once
  test('a write answered after the last create: the second read waits as long as it came after it (at most --list-lag after it), and is judged', async () => {
    const read = await listedAfterLag(created, whole(), rereads(whole()).read, recordsOf, NO_WAIT)
    const times: number[] = []
    const timed = (answer: HttpResult) => async () => (times.push(Date.now()), answer)
    const now = Date.now()
    const later = whole()
    const more = await readOnceMore(created, read, timed(later), recordsOf, { waits: [5_000], msLeft: () => Infinity }, now - 400, now - 250)
    expect(times[0]! - now).toBeGreaterThanOrEqual(145) // 150 ms: the refusal came 150 ms after the last create
    expect(more.judged).toBe(later)
    // a record the first read lacked (the refusal, stored all the same) is a lag seen: the ledger's last read waits for it
    let seen = 0
    const withStored = list({ id: 1, name: 'run-a' }, { id: 2, name: 'run-b' }, { id: 3, name: 'refused' })
    await readOnceMore(created, read, timed(withStored), recordsOf, { waits: [5_000], msLeft: () => Infinity, seen: () => seen++ }, Date.now() - 400, Date.now() - 390)
    await readOnceMore(created, read, timed(whole()), recordsOf, { waits: [5_000], msLeft: () => Infinity, seen: () => seen++ }, Date.now() - 400, Date.now() - 390)
    expect(seen).toBe(1)
    // no wait begun past the deadline: the first read is judged; --list-lag 100 passed since the refusal: no wait, read at once
    const then = Date.now()
    const nearTheEnd = (waits: number[]): ListLag => ({ waits, msLeft: () => REREAD_ROOM_MS + 1 }) // room for no wait of a millisecond
    expect(await readOnceMore(created, read, timed(later), recordsOf, nearTheEnd([5_000]), then - 400, then - 150)).toBe(read)
    expect((await readOnceMore(created, read, timed(later), recordsOf, nearTheEnd([100]), then - 400, then - 150)).judged).toBe(later)
  })
})

describe('readAsFirstAsked', () => {
  const whole = () => list({ id: 1, name: 'run-a' }, { id: 2, name: 'run-b' })
  const settled = (judged: HttpResult) => ({ lists: [judged], judged, waitedMs: 0, cutShort: false })

  test('a settled list that showed every record is read once more as the first list was asked; whole, it is only kept', async () => {
    const server = rereads(whole())
    const read = settled(whole())
    const out = await readAsFirstAsked(created, read, server.read, recordsOf, NO_WAIT, Date.now())
    expect(server.calls()).toBe(1)
    expect(out.lists).toHaveLength(2)
    expect(out.judged).toBe(read.judged)
  })

  test('one that lacks a record the others showed is read again so past --list-lag, and the first that lacks it is judged (a cache keyed by its headers)', async () => {
    const stale = list({ id: 1, name: 'run-a' })
    const server = rereads(stale)
    // --list-lag 1 ms, over since the last create was answered: no wait
    const out = await readAsFirstAsked(created, settled(whole()), server.read, recordsOf, { waits: [1], msLeft: () => Infinity }, Date.now() - 100)
    expect(server.calls()).toBe(2)
    expect(out.pastTheLag).toBe(true)
    expect(out.judged).toBe(stale)
  })

  test('a list already lacking a record, or cut short by the deadline, is not read so', async () => {
    const server = rereads(whole())
    const lacking = settled(list({ id: 1, name: 'run-a' }))
    expect(await readAsFirstAsked(created, lacking, server.read, recordsOf, NO_WAIT, Date.now())).toBe(lacking)
    const cut = { ...settled(whole()), cutShort: true }
    expect(await readAsFirstAsked(created, cut, server.read, recordsOf, NO_WAIT, Date.now())).toBe(cut)
    expect(server.calls()).toBe(0)
  })
})

describe('withLagSaid', () => {
  const missing = new ConformanceFailure({ code: 'MISSING_FROM_LIST', message: 'created category 2 ("run-b") is missing from the list that followed', expected: 'e', actual: 'a' })

  test('a record missing says how long the list was read again for, and what to raise when the deadline ended the waiting', () => {
    const waits = { waits: DEFAULT_WAITS }
    expect((withLagSaid(missing, { waitedMs: 5_000, cutShort: false }, waits) as Error).message).toBe(`${missing.message} after 5000 ms of re-reads (--list-lag 5000)`)
    expect((withLagSaid(missing, { waitedMs: 600, cutShort: true }, waits) as Error).message).toBe(`${missing.message} after 600 ms of re-reads, of --list-lag 5000: the run's --deadline was near`)
    expect((withLagSaid(missing, { waitedMs: 0, cutShort: false }, waits) as ConformanceFailure).detail()).toMatchObject({ code: 'MISSING_FROM_LIST', expected: 'e', actual: 'a' })
  })

  test('missing from a read past --list-lag, though an earlier read listed it: says the list differs from read to read', () => {
    const said = withLagSaid(missing, { waitedMs: 5_000, cutShort: false, pastTheLag: true }, { waits: DEFAULT_WAITS }) as Error
    expect(said.message).toBe(`${missing.message}: a read sent more than --list-lag 5000 ms after the last create was answered, though an earlier read listed every created record: the list differs from read to read (replicas that do not all hold the write?)`)
  })

  test('missing from a re-read asked for as the list before the POSTs was, though the list after them listed it: says a cache keyed by those headers may keep it', () => {
    const asked = (headers: Record<string, string>) => {
      const result = list({ id: 1, name: 'run-a' })
      result.exchange.request.headers = headers
      return result
    }
    const after = asked({ accept: 'application/json' })
    const reread = asked({ accept: '*/*', 'accept-encoding': 'gzip, deflate, br' })
    const said = withLagSaid(missing, { waitedMs: 5_000, cutShort: false, pastTheLag: true, lists: [after, reread], judged: reread }, { waits: DEFAULT_WAITS }) as Error
    expect(said.message).toContain('the read that lacks it asked as the list before the run\'s POSTs did (Accept: */*, Accept-Encoding: gzip, deflate, br), the one that listed every record otherwise (Accept: application/json, Accept-Encoding: identity)')
    expect(said.message).toContain("Django's cache_page")
    // asked alike: replicas, as before
    const alike = withLagSaid(missing, { waitedMs: 5_000, cutShort: false, pastTheLag: true, lists: [reread, reread], judged: reread }, { waits: DEFAULT_WAITS }) as Error
    expect(alike.message).toMatch(/\(replicas that do not all hold the write\?\)$/)
  })

  test('any other failure is left as it is', () => {
    const other = new ConformanceFailure({ code: 'LISTED_FIELD_CHANGED', message: 'm', expected: 'e', actual: 'a' })
    expect(withLagSaid(other, { waitedMs: 5_000, cutShort: false }, { waits: DEFAULT_WAITS })).toBe(other)
  })
})

describe('rereadWaits (--list-lag)', () => {
  test('the default, 5 s: five re-reads, the waits doubling from 200 ms', () => {
    expect(DEFAULT_WAITS).toEqual([200, 400, 800, 1_600, 2_000])
  })

  test('0 waits for nothing: the first list is judged', () => {
    expect(rereadWaits(0)).toEqual([])
  })

  test('every value: the waits add up to it, never shrink, and none but a last remainder is over 5 s', () => {
    for (const lagMs of [1, 150, 200, 201, 1_000, 2_000, 2_999, 3_000, 5_000, 7_777, 30_000, 60_000]) {
      const waits = rereadWaits(lagMs)
      expect(waits.reduce((a, b) => a + b, 0), String(lagMs)).toBe(lagMs)
      expect(waits.every((w, i) => i === 0 || w >= waits[i - 1]), `${lagMs}: ${waits.join(', ')}`).toBe(true)
      expect(waits.slice(0, -1).every((w) => w <= 5_000), `${lagMs}: ${waits.join(', ')}`).toBe(true)
    }
  })
})

describe('settleAfterSlowCreate', () => {
  /** A create written at 0 and answered `took` ms later. */
  const createTook = (took: number) => {
    const result = makeResponse({ status: 201, method: 'POST' })
    result.exchange.startedAt = new Date(1_000_000).toISOString()
    result.exchange.writtenAtMs = 1_000_000 + 300 // the wait for a connection is not counted
    result.exchange.durationMs = 300 + took
    return result
  }
  test('one create far slower than the others (1 s and 4 times their median): --list-lag; none, or all slow: 0', () => {
    const lag = { waits: rereadWaits(5_000) }
    expect(settleAfterSlowCreate([createTook(20), createTook(30), createTook(1_020), createTook(25)], lag)).toBe(5_000)
    expect(settleAfterSlowCreate([createTook(20), createTook(30), createTook(900)], lag)).toBe(0)
    expect(settleAfterSlowCreate([createTook(600), createTook(700), createTook(1_500)], lag)).toBe(0)
    expect(settleAfterSlowCreate([createTook(20), createTook(2_000)], { waits: [] })).toBe(0)
  })

  test("a slow create's wait that the run's --deadline leaves no room for: the list is still read once more, as without a slow create", async () => {
    const whole = () => list({ id: 1, name: 'run-a' }, { id: 2, name: 'run-b' })
    const read = await listedAfterLag(created, whole(), rereads(whole()).read, recordsOf, NO_WAIT)
    const again = rereads(whole())
    const more = await readOnceMore(created, read, again.read, recordsOf, { waits: [5_000], msLeft: () => 2_000 }, Date.now(), Date.now(), undefined, 5_000)
    expect([again.calls(), more.lists.length]).toEqual([1, 2])
  })
})
