/**
 * parseJsonExact has a fast path (the tree read in document order) and a slow one (the text
 * rewritten with markers). These tests make sure the fast path never pins a literal on the wrong
 * number, whatever the document does to the order (keys twice, integer-like keys, deep nesting),
 * and that what it keeps on parsed objects stays invisible.
 */
import { describe, expect, test } from 'vitest'
import { exactIntegerAt, exactIntegerTextAt, int64StatusAt, integerOfLiteral, isInt64, literalAt, numberText, parseJsonExact } from '../../lib/json/exact-json.ts'

describe('parseJsonExact keeps every literal on its own number', () => {
  test('a key given twice: the last value wins, with its own literal', () => {
    // both long literals parse to 9007199254740992, and "a" comes first in the object but last in the text
    const value = parseJsonExact('{"a":"x","b":9007199254740993,"a":9007199254740992}') as Record<string, unknown>
    expect(numberText(value, 'a')).toBe('9007199254740992')
    expect(numberText(value, 'b')).toBe('9007199254740993')
    const nested = parseJsonExact('[{"id":12345678901234567,"id":12345678901234568,"x":[98765432109876543]}]') as Record<string, unknown>[]
    expect(numberText(nested[0], 'id')).toBe('12345678901234568')
    expect(numberText(nested[0].x, 0)).toBe('98765432109876543')
  })

  test('integer-like keys, which objects enumerate first', () => {
    // both parse to 9007199254740992, and "1" is enumerated before "b"
    const value = parseJsonExact('{"b":9007199254740993,"1":9007199254740992}') as Record<string, unknown>
    expect(numberText(value, 'b')).toBe('9007199254740993')
    expect(numberText(value, '1')).toBe('9007199254740992')
    const more = parseJsonExact('{"b":9007199254740993,"1":9007199254740992,"0":7}') as Record<string, unknown>
    expect(numberText(more, 'b')).toBe('9007199254740993')
    expect(numberText(more, '1')).toBe('9007199254740992')
    expect(more['0']).toBe(7)
  })

  test('nesting deeper than the ordered walk goes', () => {
    const depth = 5_000
    const text = '['.repeat(depth) + '{"id":9223372036854775807}' + ']'.repeat(depth)
    let node = parseJsonExact(text) as unknown
    for (let i = 0; i < depth; i++) node = (node as unknown[])[0]
    expect(exactIntegerAt(node, 'id')).toBe(9223372036854775807n)
  })

  test('a lone long number, and long literals beside short ones and strings that look like numbers', () => {
    expect(parseJsonExact('9007199254740993')).toBe(9007199254740992)
    const value = parseJsonExact('{"s":"12345678901234567890","n":[1,-2.5e3,12345678901234567890,3,"4"],"m":{"k":-12345678901234567890}}') as {
      s: string
      n: unknown[]
      m: Record<string, unknown>
    }
    expect(value.s).toBe('12345678901234567890')
    expect(literalAt(value, 's')).toBeUndefined()
    expect(value.n).toEqual([1, -2500, 12345678901234567000, 3, '4'])
    expect(numberText(value.n, 2)).toBe('12345678901234567890')
    expect(literalAt(value.n, 0)).toBeUndefined()
    expect(exactIntegerAt(value.m, 'k')).toBe(-12345678901234567890n)
  })

  test('an array of many long literals', () => {
    const literals = Array.from({ length: 1_000 }, (_, i) => String(2n ** 62n + BigInt(i)))
    const value = parseJsonExact(`[${literals.join(',')}]`) as number[]
    literals.forEach((literal, i) => expect(numberText(value, i)).toBe(literal))
  })

  test('what it keeps is invisible: keys, symbols, JSON, deep equality', () => {
    const value = parseJsonExact('{"id":9007199254740993,"name":"dog"}') as Record<string, unknown>
    expect(Object.keys(value)).toEqual(['id', 'name'])
    expect(Object.getOwnPropertySymbols(value)).toEqual([])
    expect(JSON.stringify(value)).toBe('{"id":9007199254740992,"name":"dog"}')
    expect(value).toEqual({ id: 9007199254740992, name: 'dog' })
    expect({ ...value }).toEqual({ id: 9007199254740992, name: 'dog' })
    expect(literalAt({ ...value }, 'id')).toBeUndefined()
  })

  test('agrees with a model on random documents: nesting, keys twice, integer-like keys', () => {
    const random = (n: number) => Math.floor(Math.random() * n)
    const literal = () => {
      const digits = String(random(9) + 1) + Array.from({ length: random(24) }, () => random(10)).join('')
      return (random(3) === 0 ? '-' : '') + digits + (random(6) === 0 ? `.${random(1000)}` : '') + (random(8) === 0 ? `e${random(5)}` : '')
    }
    // a node is written to text, and checked against what it should parse to
    type Check = (value: unknown) => void
    const node = (depth: number): { text: string; check: Check } => {
      const kind = depth > 3 ? random(2) : random(4)
      if (kind === 0) {
        const l = literal()
        return { text: l, check: () => undefined } // checked through its parent, where the literal is kept
      }
      if (kind === 1) {
        const s = `s${literal()}`
        return { text: JSON.stringify(s), check: (v) => expect(v).toBe(s) }
      }
      if (kind === 2) {
        const items = Array.from({ length: random(5) }, () => node(depth + 1))
        const literals = items.map((item) => (/^-?\d/.test(item.text) ? item.text : undefined))
        return {
          text: `[${items.map((i) => i.text).join(',')}]`,
          check: (v) => {
            const array = v as unknown[]
            expect(array.length).toBe(items.length)
            items.forEach((item, i) => {
              if (literals[i] !== undefined) expect(numberText(array, i)).toBe((literals[i]!.length >= 16 || /e/i.test(literals[i]!)) ? literals[i] : String(array[i]))
              if (literals[i] !== undefined) expect(array[i]).toBe(Number(literals[i]))
              item.check(array[i])
            })
          },
        }
      }
      const keys = ['a', 'b', 'id', '0', '7', '12', 'x1']
      const entries = Array.from({ length: random(6) }, () => ({ key: keys[random(keys.length)], ...node(depth + 1) }))
      const last = new Map<string, { text: string; check: Check }>()
      for (const e of entries) last.set(e.key, e)
      return {
        text: `{${entries.map((e) => `${JSON.stringify(e.key)}:${e.text}`).join(',')}}`,
        check: (v) => {
          const object = v as Record<string, unknown>
          expect(Object.keys(object).sort()).toEqual([...last.keys()].sort())
          for (const [key, e] of last) {
            if (/^-?\d/.test(e.text)) {
              expect(object[key]).toBe(Number(e.text))
              if (e.text.length >= 16 || /e/i.test(e.text)) expect(numberText(object, key)).toBe(e.text)
              else expect(literalAt(object, key)).toBeUndefined()
            }
            e.check(object[key])
          }
        },
      }
    }
    for (let round = 0; round < 500; round++) {
      const root = random(2) === 0 ? `[${Array.from({ length: random(4) + 1 }, () => node(1).text).join(',')}]` : undefined
      const doc = root === undefined ? node(0) : undefined
      const text = root ?? doc!.text
      const value = parseJsonExact(text)
      if (doc) doc.check(value)
      else expect(JSON.stringify(value)).toBe(JSON.stringify(JSON.parse(text)))
    }
  })
})

describe('the cheap int64 helpers agree with the exact ones', () => {
  test.each([
    '0', '-0', '1', '-1', '9007199254740993', '9223372036854775807', '9223372036854775808', '-9223372036854775808', '-9223372036854775809',
    '99999999999999999999', '-99999999999999999999', '1.5', '1e3', '1.00000000000000000001', '922337203685477580.7e1', '1e19', '-0.0e5', '1e300',
  ])('%s', (literal) => {
    // the fast path, and the slow one (an integer-like key sends the text there)
    for (const value of [parseJsonExact(`{"id":${literal}}`), parseJsonExact(`{"id":${literal},"1":0}`)]) {
      const exact = exactIntegerAt(value, 'id')
      expect(exactIntegerTextAt(value, 'id')).toBe(exact === null ? null : exact.toString())
      expect(int64StatusAt(value, 'id')).toBe(exact === null ? 'not-integer' : isInt64(exact) ? 'int64' : 'out-of-range')
      if (literal.length >= 16 || /e/i.test(literal)) expect(exact).toBe(integerOfLiteral(literal))
    }
  })

  test('not a number at all', () => {
    expect(int64StatusAt({ id: '7' }, 'id')).toBe('not-integer')
    expect(exactIntegerTextAt({ id: null }, 'id')).toBeNull()
  })
})
