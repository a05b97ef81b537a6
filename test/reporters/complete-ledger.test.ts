/**
 * The ledger from the lists a run read (lib/result/ledger-from-list.ts), on built journals and
 * lists: a record of the run's prefixes that no answer announced is a row with how it came to be,
 * matched to the POST that sent it; a record a 201 announced is counted once, even when the list
 * gives it another id; another run's records are never the run's; and without a list, nothing
 * changes. Whole runs against servers that store refused creates: test/cli/complete-ledger.test.ts.
 */
import { describe, expect, test } from 'vitest'
import { journalEntries, type JournalLine } from '../../lib/http/journal.ts'
import type { Exchange } from '../../lib/http/exchange.ts'
import { listReadNeeded, ListsRead, runLedger } from '../../lib/result/ledger-from-list.ts'
import { foundWords, ledgerStatus } from '../../lib/reporters/wording.ts'

const OURS = 'cf-k3x9q-'
const URL = 'http://127.0.0.1:1/v1/categories'

/** A POST's journal lines: sent at `at` (seconds), answered `status` (undefined: no answer) a second later. */
function post(id: string, body: unknown, status: number | undefined, at: number, created?: { id: string; name: string }): JournalLine[] {
  const time = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString()
  const opened = { id, method: 'POST', url: URL, body: typeof body === 'string' ? body : JSON.stringify(body) }
  return [
    { ...opened, phase: 'dispatched', at: time(at) },
    { ...opened, phase: 'on-wire', at: time(at) },
    ...(status !== undefined ? [{ ...opened, phase: 'ended' as const, at: time(at + 1), status, ...(created ? { created } : {}) }] : [{ ...opened, phase: 'ended' as const, at: time(at + 1), error: 'TIMEOUT' as const }]),
  ]
}

/** A list answer the run read, sent at `at` (seconds). */
function list(records: unknown[], at: number, id = `list-${at}`): { exchange: Exchange; text: string } {
  const exchange = { id, startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, at)).toISOString(), response: { status: 200 } } as unknown as Exchange
  return { exchange, text: JSON.stringify(records) }
}

function listsOf(...lists: ReturnType<typeof list>[]): ListsRead {
  const read = new ListsRead([OURS, 'cf-aaaaa-'])
  for (const l of lists) read.note(l)
  return read
}

describe('the ledger from the lists the run read', () => {
  const journal = journalEntries([
    ...post('created', { name: `${OURS}desc-16`, description: 'd' }, 201, 0, { id: '1', name: `${OURS}desc-16` }),
    ...post('refused', { name: `${OURS}b1`, description: 42 }, 400, 0),
    ...post('faulted', { name: `${OURS}plain` }, 500, 0),
    ...post('lost', { name: `${OURS}lost` }, undefined, 0),
    ...post('unauthenticated', { name: `${OURS}k2` }, 401, 0),
    ...post('malformed', `{"name": "${OURS}m3",`, 400, 0),
  ])

  test('each record no answer announced is a row, with how, matched to its POST; the announced one once; another run\'s never', () => {
    const lists = listsOf(
      list(
        [
          { id: 1, name: `${OURS}desc-16`, description: 'd' },
          { id: 2, name: `${OURS}b1`, description: '42' },
          { id: 3, name: `${OURS}plain` },
          { id: 4, name: `${OURS}lost` },
          { id: 5, name: `${OURS}k2` },
          { id: 6, name: `${OURS}m3` },
          { id: 7, name: 'cf-zzzzz-desc-16' },
          { id: 8, name: 'dog' },
        ],
        5,
      ),
      // a record seen in two lists is one
      list([{ id: 2, name: `${OURS}b1`, description: '42' }], 6),
    )
    const { ledger, found } = runLedger(journal, lists)
    expect(ledger.map((e) => [e.id, e.exchangeId, e.status, ledgerStatus(e)])).toEqual([
      ['1', 'created', 201, '201'],
      ['2', 'refused', 400, 'stored though answered 400'],
      ['3', 'faulted', 500, 'stored though answered 500'],
      ['4', 'lost', 0, 'answer lost, record found'],
      ['5', 'unauthenticated', 401, 'stored though answered 401'],
      ['6', 'malformed', 400, 'stored though answered 400'],
    ])
    expect(ledger[1]!.body).toBe(JSON.stringify({ name: `${OURS}b1`, description: 42 }))
    expect(found).toEqual({ faultAnswered: 1, unanswered: 1 })
  })

  test('a list with a byte order mark (which the checks fail as JSON text) still shows the records stored', () => {
    const marked = { ...list([{ id: 3, name: `${OURS}plain` }], 5), byteOrderMark: true }
    expect(runLedger(journal, listsOf(marked)).ledger.map((e) => [e.id, e.exchangeId])).toEqual([['1', 'created'], ['3', 'faulted']])
  })

  test('a 201 whose id the list does not show: the record the list shows under that name is the one it announced, not a second', () => {
    const { ledger } = runLedger(journal, listsOf(list([{ id: 99, name: `${OURS}desc-16`, description: 'd' }], 5)))
    expect(ledger.map((e) => e.id)).toEqual(['1'])
  })

  test('a second record of the name a 201 announced (stored twice), and one no POST sent, are rows too', () => {
    const { ledger } = runLedger(
      journal,
      listsOf(
        list(
          [
            { id: 1, name: `${OURS}desc-16`, description: 'd' },
            { id: 9, name: `${OURS}desc-16`, description: 'd' },
            { id: 10, name: '', description: `made by the service for cf-aaaaa-x` },
          ],
          5,
        ),
      ),
    )
    expect(ledger.map((e) => [e.id, ledgerStatus(e)])).toEqual([
      ['1', '201'],
      ['9', 'a second record of a POST answered 201'],
      ['10', "found in the list under the run's prefix; no POST of the run's journal sent it"],
    ])
    expect(ledger[2]!.description).toBe('made by the service for cf-aaaaa-x')
  })

  test('a POST that may have stored a record after the last list read (its final read cut or answered with a fault): nothing said of what was found, the rows still given', () => {
    const later = journalEntries([...post('earlier', { name: `${OURS}plain` }, 500, 0), ...post('late', { name: `${OURS}late` }, 502, 9)])
    const { ledger, found } = runLedger(later, listsOf(list([{ id: 3, name: `${OURS}plain` }], 5)))
    expect(ledger.map((e) => [e.id, e.exchangeId])).toEqual([['3', 'earlier']])
    expect(found).toBeUndefined()
    expect(runLedger(later, listsOf(list([{ id: 3, name: `${OURS}plain` }], 11))).found).toEqual({ faultAnswered: 1, unanswered: 0 })
  })

  test('no list read (a read-only run, one cut before it): the announced records alone, and nothing said of what was found', () => {
    expect(runLedger(journal, undefined)).toEqual({ ledger: runLedger(journal, listsOf()).ledger })
    expect(runLedger(journal, listsOf()).found).toBeUndefined()
    expect(runLedger(journal, undefined).ledger.map((e) => e.id)).toEqual(['1'])
  })

  test('a list is read once more only when a POST that may have stored one of the run\'s records was answered after the last list was sent', () => {
    expect(listReadNeeded(journal, listsOf())).toBe(true)
    expect(listReadNeeded(journal, listsOf(list([], 5)))).toBe(false)
    expect(listReadNeeded(journal, listsOf(list([], 0)))).toBe(true)
    // a 201 announced its record, a 429 says nothing was processed, a body with no prefix of the run's cannot be found
    const announced = journalEntries([...post('a', { name: `${OURS}x` }, 201, 9, { id: '1', name: `${OURS}x` }), ...post('b', { name: `${OURS}y` }, 429, 9), ...post('c', 'null', 400, 9)])
    expect(listReadNeeded(announced, listsOf(list([], 5)))).toBe(false)
  })

  test("the words of the 'maybe created' counts", () => {
    expect(foundWords(undefined, 2)).toBe('')
    expect(foundWords(0, 2)).toBe('; the lists the run read showed none of them stored')
    expect(foundWords(1, 1)).toBe('; the lists the run read showed it stored (ledger rows)')
    expect(foundWords(2, 2)).toBe('; the lists the run read showed all 2 stored (ledger rows)')
    expect(foundWords(1, 3)).toBe('; the lists the run read showed 1 of them stored (ledger rows)')
  })
})
