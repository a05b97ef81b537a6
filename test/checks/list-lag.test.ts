/**
 * suites/categories/list-lag.ts on built responses: a list that lags behind the writes is read
 * again (a bounded number of times) before a created record counts as missing; a list that shows
 * them all, or one that is not a list, is not read again.
 */
import { describe, expect, test } from 'vitest'
import { missingFromList, type CategoryRecord, type Creation } from '../../lib/checks/category.ts'
import type { HttpResult } from '../../lib/http/client.ts'
import { parseJsonExact } from '../../lib/json/exact-json.ts'
import { LIST_REREAD_WAITS_MS, listedAfterLag } from '../../suites/categories/list-lag.ts'
import { makeResponse } from './make-response.ts'

const creation = (id: number, name: string): Creation => ({ sent: { name }, record: { id, name } as CategoryRecord })
const created = [creation(1, 'run-a'), creation(2, 'run-b')]
const list = (...records: object[]) => makeResponse({ body: records })
const recordsOf = (r: HttpResult) => (r.exchange.response?.status === 200 ? (parseJsonExact(r.text!) as CategoryRecord[]) : undefined)
const NO_WAIT = LIST_REREAD_WAITS_MS.map(() => 0)

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
    expect(server.calls()).toBe(LIST_REREAD_WAITS_MS.length)
    expect(lists).toHaveLength(LIST_REREAD_WAITS_MS.length + 1)
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

  test('the waits are bounded: about two seconds in all, growing', () => {
    const total = LIST_REREAD_WAITS_MS.reduce((a, b) => a + b, 0)
    expect(total).toBeLessThanOrEqual(2_500)
    expect([...LIST_REREAD_WAITS_MS].sort((a, b) => a - b)).toEqual(LIST_REREAD_WAITS_MS)
  })
})
