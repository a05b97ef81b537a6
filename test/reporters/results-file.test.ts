/**
 * results.json writes each exchange once, and its checks name theirs by id
 * (lib/result/results-file.ts): read back, it is the result the reporters were given; a
 * results.json of an earlier version (exchanges inside the checks) reads as it did.
 */
import { describe, expect, test } from 'vitest'
import { jsonReport } from '../../lib/reporters/json-report.ts'
import { resultFromFile } from '../../lib/result/results-file.ts'
import type { RunResult } from '../../lib/result/run-result.ts'
import { check, exchange, runResult } from './fixture.ts'

/** Every rule's checks judged one shared list exchange, as a run's first list is judged by ~50 checks. */
function sharedEvidence(): { result: RunResult; list: ReturnType<typeof exchange> } {
  const list = exchange({ request: { method: 'GET', url: 'https://petstore.example/v1/categories', headers: {} } }, 200, `[${'{"id":1,"name":"x"},'.repeat(200)}{"id":2,"name":"y"}]`)
  const result = runResult((id) => [check(`${id} on the list`, 'pass', { exchanges: [list] }), check(`${id} on its own POST`, 'fail', { exchanges: [list, exchange()] })])
  return { result, list }
}

describe('results.json', () => {
  test('holds each exchange once, in the order the checks first name them, and each check its ids in its order', () => {
    const { result, list } = sharedEvidence()
    const file = JSON.parse(jsonReport(result))
    const ids = (file.exchanges as { id: string }[]).map((e) => e.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids[0]).toBe(list.id)
    expect(ids).toHaveLength(1 + result.rules.length) // the list, and each rule's own POST
    expect(file.rules[0].checks[1].exchangeIds).toEqual([list.id, result.rules[0]!.checks[1]!.exchanges[1]!.id])
    expect(file.rules[0].checks[0]).not.toHaveProperty('exchanges')
    // the list's body is written once, not once per check that judged it
    expect(jsonReport(result).split(JSON.stringify(list.response!.body)).length - 1).toBe(1)
  })

  test('read back, it is the result it was written from', () => {
    const { result } = sharedEvidence()
    expect(resultFromFile(JSON.parse(jsonReport(result)))).toEqual(JSON.parse(JSON.stringify(result)))
  })

  test('a results.json of an earlier version, whose checks hold their exchanges, reads as it is', () => {
    const { result } = sharedEvidence()
    const earlier = JSON.parse(JSON.stringify(result))
    expect(resultFromFile(earlier)).toBe(earlier)
  })

  test('an id the file does not list is left out, not a crash (a file edited by hand)', () => {
    const file = JSON.parse(jsonReport(sharedEvidence().result))
    file.rules[0].checks[1].exchangeIds.push('no-such-exchange')
    expect(resultFromFile(file).rules[0]!.checks[1]!.exchanges).toHaveLength(2)
  })
})
