/**
 * The id index (lib/checks/id-index.ts) answers what a Map keyed by each record's exact id text
 * (idOf) answers, whatever the ids: safe integers, ids past 2^53 that share a double, the same id
 * written two ways (1e3 and 1000), ids that are not integers, not numbers, or longer than int64.
 */
import { describe, expect, test } from 'vitest'
import { expectDistinctIds, expectStillListed, type CategoryRecord } from '../../lib/checks/category.ts'
import { idOf, IdIndex } from '../../lib/checks/id-index.ts'
import { parseJsonExact } from '../../lib/json/exact-json.ts'
import { outcomeOf, verdictOf } from './make-response.ts'

const random = (n: number) => Math.floor(Math.random() * n)

/** An id literal from a small pool, so that ids repeat, exactly or written another way. */
function idLiteral(): string {
  const near = 2n ** 62n + BigInt(random(2048)) // 2^62 + k: 1,024 of them share a double
  const pool = [
    () => String(random(50)),
    () => `-${random(50) + 1}`,
    () => near.toString(),
    () => `-${near}`,
    () => '9223372036854775807',
    () => `${random(5) + 1}e3`, // 1000 … 5000, also written plainly below
    () => String((random(5) + 1) * 1000),
    () => `${random(3)}.5`,
    () => '1000000000000000000000', // 22 digits: longer than any int64
    () => '1e21',
    () => `"${random(3)}"`, // not a number
    () => '0',
    () => '-0',
  ]
  return pool[random(pool.length)]()
}

function modelPositions(records: CategoryRecord[]): Map<string, number[]> {
  const byId = new Map<string, number[]>()
  records.forEach((record, i) => byId.set(idOf(record), [...(byId.get(idOf(record)) ?? []), i]))
  return byId
}

describe('IdIndex agrees with a Map of exact id texts', () => {
  test('on random lists with repeated ids', () => {
    for (let round = 0; round < 100; round++) {
      const text = `[${Array.from({ length: random(40) }, () => `{"id":${idLiteral()},"name":"n"}`).join(',')}]`
      const records = parseJsonExact(text) as CategoryRecord[]
      const model = modelPositions(records)
      const index = IdIndex.of(records)
      // the first record whose id came before, and that earlier one
      let repeat: { first: number; second: number } | undefined
      records.forEach((record, i) => {
        const first = model.get(idOf(record))![0]
        if (repeat === undefined && first !== i) repeat = { first, second: i }
      })
      expect(index.firstRepeat, text).toEqual(repeat)
      const probes = parseJsonExact(`[${Array.from({ length: 20 }, () => `{"id":${idLiteral()}}`).join(',')}]`) as CategoryRecord[]
      for (const probe of [...records, ...probes]) {
        const positions = model.get(idOf(probe)) ?? []
        expect(index.positionsOf(probe), `${idOf(probe)} in ${text}`).toEqual(positions)
        expect(index.has(probe)).toBe(positions.length > 0)
        const last = positions.length > 0 ? positions[positions.length - 1] : -1
        expect(index.lastPositionOf(probe)).toBe(last)
        expect(index.lastPositionOf(probe, random(records.length + 1))).toBe(last)
      }
    }
  })

  test('on lists in order of id, up and down, found by bisection and then by the table', () => {
    for (let round = 0; round < 60; round++) {
      // distinct integer ids of at most 19 digits, in order: what a service listing by id sends
      const byText = new Map<string, string>()
      for (let i = 0; i < 60; i++) {
        const literal = idLiteral()
        const text = idOf((parseJsonExact(`[{"id":${literal}}]`) as CategoryRecord[])[0])
        if (/^-?\d{1,19}$/.test(text)) byText.set(text, literal)
      }
      const sorted = [...byText].sort(([a], [b]) => (BigInt(a) < BigInt(b) ? -1 : 1)).map(([, literal]) => literal)
      if (round % 2 === 1) sorted.reverse()
      const records = parseJsonExact(`[${sorted.map((l) => `{"id":${l}}`).join(',')}]`) as CategoryRecord[]
      const model = modelPositions(records)
      const index = IdIndex.of(records)
      expect(index.firstRepeat).toBeUndefined()
      const probes = parseJsonExact(`[${Array.from({ length: 40 }, () => `{"id":${idLiteral()}}`).join(',')}]`) as CategoryRecord[]
      for (const probe of [...records, ...probes]) expect(index.positionsOf(probe), idOf(probe)).toEqual(model.get(idOf(probe)) ?? [])
    }
    // past the bisections the table is built, and answers the same
    const many = parseJsonExact(`[${Array.from({ length: 300 }, (_, i) => `{"id":${2n ** 62n + BigInt(i * 7)}}`).join(',')}]`) as CategoryRecord[]
    const index = IdIndex.of(many)
    for (let round = 0; round < 20; round++) {
      many.forEach((record, i) => expect(index.positionsOf(record)).toEqual([i]))
      expect(index.has({ id: 3 })).toBe(false)
    }
  })

  test('ids past 2^53 that share a double are told apart, and one written twice is found', () => {
    const records = parseJsonExact('[{"id":9007199254740993},{"id":9007199254740992},{"id":1e3},{"id":4611686018427387905}]') as CategoryRecord[]
    expect(IdIndex.of(records).firstRepeat).toBeUndefined()
    const probe = parseJsonExact('[{"id":1000},{"id":4611686018427387904},{"id":4611686018427387905}]') as CategoryRecord[]
    expect(IdIndex.of(records).positionsOf(probe[0])).toEqual([2])
    expect(IdIndex.of(records).has(probe[1])).toBe(false)
    expect(IdIndex.of(records).positionsOf(probe[2])).toEqual([3])
  })

  test('the checks say the same as before: positions of the first repeat, the vanished record', () => {
    const list = parseJsonExact('[{"id":4611686018427387904,"name":"a"},{"id":1,"name":"b"},{"id":4611686018427387904,"name":"c"}]') as CategoryRecord[]
    expect(verdictOf(() => expectDistinctIds(list, 'the list'))).toMatchObject({ code: 'DUPLICATE_ID', message: expect.stringMatching(/^the list: two records share id 4611686018427387904(;|$)/) })
    expect(() => expectDistinctIds(list, 'the list')).toThrow(expect.objectContaining({ actual: 'id 4611686018427387904 at positions 0 and 2' }))
    const later = parseJsonExact('[{"id":1,"name":"b"},{"id":4611686018427387905,"name":"a"}]') as CategoryRecord[]
    expect(outcomeOf(() => expectStillListed(list.slice(0, 2), later))).toBe('VANISHED_FROM_LIST')
    // listed twice later: compared with the last of them, as a Map from ids kept it
    const twice = parseJsonExact('[{"id":1,"name":"x"},{"id":1,"name":"b"}]') as CategoryRecord[]
    expect(outcomeOf(() => expectStillListed([list[1]], twice))).toBe('pass')
  })
})
