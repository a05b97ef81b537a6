import { parse as losslessParse, isLosslessNumber, type LosslessNumber } from 'lossless-json'
import { describe, expect, test } from 'vitest'
import { exactIntegerAt, findLongNumberLiterals, integerOfLiteral, numberText, parseJsonExact } from '../../lib/json/exact-json.ts'
import { schemaProblems } from '../../lib/spec/schema-registry.ts'

describe('parseJsonExact', () => {
  test.each([
    ['9007199254740993', 9007199254740993n],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
    ['12345678901234567890123', 12345678901234567890123n],
    ['1', 1n],
    ['-42', -42n],
    // short, but past 2^53: JSON.parse gives 999999999999900032
    ['9999999999999e5', 999999999999900000n],
    ['9.223372036854775807e18', 9223372036854775807n],
  ])('keeps the id %s exact', (literal, exact) => {
    const body = parseJsonExact(`[{"id":${literal},"name":"a"}]`) as object[]
    expect(exactIntegerAt(body[0], 'id')).toBe(exact)
    expect(numberText(body[0], 'id')).toBe(literal)
  })

  test('JSON.parse alone would round 2^53 + 1, which is the point', () => {
    expect(JSON.parse('9007199254740993')).toBe(9007199254740992)
  })

  test('finds long literals only outside strings, escaped quotes included', () => {
    const text = '{"a":"12345678901234567 \\" 98765432109876543","b":12345678901234567,"c":"\\\\","d":98765432109876543}'
    const spans = findLongNumberLiterals(text)
    const literals: string[] = []
    for (let i = 0; i < spans.length; i += 2) literals.push(text.slice(spans[i], spans[i + 1]))
    expect(literals).toEqual(['12345678901234567', '98765432109876543'])
    const value = parseJsonExact(text) as Record<string, unknown>
    expect(value.a).toBe('12345678901234567 " 98765432109876543')
    expect(exactIntegerAt(value, 'd')).toBe(98765432109876543n)
  })

  test('rejects what JSON.parse rejects, also where a rewrite could have made it valid', () => {
    for (const text of ['{12345678901234567890: 1}', '[0123456789012345678]', '{"id": 12345678901234567890', '', 'nul']) {
      expect(() => parseJsonExact(text), text).toThrow(SyntaxError)
    }
  })

  test('agrees with lossless-json on random documents with numbers of every length', () => {
    const random = (n: number) => Math.floor(Math.random() * n)
    const number = () => {
      const digits = String(random(9) + 1) + Array.from({ length: random(24) }, () => random(10)).join('')
      return (random(3) === 0 ? '-' : '') + digits + (random(5) === 0 ? `.${random(1000)}` : '') + (random(7) === 0 ? `e${random(5)}` : '')
    }
    for (let round = 0; round < 300; round++) {
      const items = Array.from({ length: random(6) }, () => `{"id":${number()},"name":"n \\"${number()}\\"","x":[${number()},${number()}]}`)
      const text = `[${items.join(',')}]`
      const ours = parseJsonExact(text) as Array<Record<string, unknown>>
      const reference = losslessParse(text) as Array<Record<string, unknown>>
      ours.forEach((item, i) => {
        const expected = reference[i].id as LosslessNumber
        expect(isLosslessNumber(expected)).toBe(true)
        expect(exactIntegerAt(item, 'id'), text).toBe(integerOfLiteral(expected.value))
        expect(item.name).toBe(reference[i].name)
      })
    }
  })
})

describe('integerOfLiteral', () => {
  test.each([
    ['1e3', 1000n],
    ['1.5e1', 15n],
    ['100.000', 100n],
    ['-0', 0n],
    ['1.5', null],
    ['1.00000000000000000001', null],
    ['1e-2', null],
    ['9223372036854775808', 9223372036854775808n],
  ])('%s → %s', (literal, value) => {
    expect(integerOfLiteral(literal)).toBe(value)
  })
})

describe('the int64 check of the Category schema', () => {
  test.each([
    ['9007199254740993', true],
    ['9223372036854775807', true],
    ['-9223372036854775808', true],
    ['-1', true],
    ['9223372036854775808', false],
    ['-9223372036854775809', false],
    ['1.5', false],
    ['1.00000000000000000001', false],
    ['"7"', false],
  ])('id %s conforms: %s', (literal, conforms) => {
    const body = parseJsonExact(`{"id":${literal},"name":"dog"}`)
    expect(schemaProblems('Category', body) === null).toBe(conforms)
  })
})
