import { parse as losslessParse, isLosslessNumber, type LosslessNumber } from 'lossless-json'
import { describe, expect, test } from 'vitest'
import { exactIntegerAt, findLongNumberLiterals, integerOfLiteral, literalAt, numberText, parseJsonExact, JsonOverLimitError, MAX_JSON_DEPTH, DENSE_CONTAINERS } from '../../lib/json/exact-json.ts'
import { schemaProblems } from '../../lib/spec/schema-registry.ts'


/**
 * CPU time of this process so far, in ms: a budget on it holds on a loaded machine, where the
 * wall clock also counts the time other processes had the cores (60 MB scanned in 100 ms of CPU
 * took 4.8 s of wall time beside a full npm test and two busy loops), and JSON.parse's seconds
 * over the same text are CPU as well.
 */
function cpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}
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

describe('parseJsonExact along the text: spaces, escapes, strings of every kind', () => {
  const random = (n: number) => Math.floor(Math.random() * n)
  const number = () => {
    const digits = String(random(9) + 1) + Array.from({ length: random(22) }, () => random(10)).join('')
    return (random(3) === 0 ? '-' : '') + digits + (random(6) === 0 ? `.${random(1000)}` : '') + (random(8) === 0 ? `e${random(5)}` : '')
  }
  // pieces of string text, each valid JSON: escapes make the text longer than the value
  const pieces = ['a', 'é', '🐇', '\\\\', '\\"', '\\n', '\\u00e9', '\\ud83d\\udc07', '12345678901234567', '1e5', ' ']
  const string = (prefix = '') => `"${prefix}${Array.from({ length: random(5) }, () => pieces[random(pieces.length)]).join('')}"`
  const space = () => [' ', '', '\n  ', '\t', '\r\n'][random(5)]
  const value = (depth: number): string => {
    const kind = depth > 2 ? random(3) : random(6)
    if (kind === 0) return number()
    if (kind === 1) return string()
    if (kind === 2) return ['true', 'false', 'null'][random(3)]
    if (kind === 3) return `[${space()}${Array.from({ length: random(4) }, () => value(depth + 1) + space()).join(`,${space()}`)}]`
    return `{${space()}${Array.from({ length: random(4) }, (_, i) => `${string(`k${i}`)}${space()}:${space()}${value(depth + 1)}${space()}`).join(`,${space()}`)}}`
  }

  test('agrees with lossless-json on every number of random documents', () => {
    for (let round = 0; round < 400; round++) {
      const text = `${space()}[${Array.from({ length: random(4) + 1 }, () => value(0)).join(',')}]${space()}`
      const ours = parseJsonExact(text)
      const reference = losslessParse(text)
      const compare = (a: unknown, b: unknown, parent: object, key: string | number): void => {
        if (isLosslessNumber(b)) {
          expect(a, text).toBe(Number((b as LosslessNumber).value))
          expect(numberText(parent, key), text).toBe((b as LosslessNumber).value.length >= 16 || /e/i.test((b as LosslessNumber).value) ? (b as LosslessNumber).value : String(a))
        } else if (b !== null && typeof b === 'object') {
          expect(Object.keys(a as object), text).toEqual(Object.keys(b))
          for (const k of Object.keys(b)) compare((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], a as object, Array.isArray(a) ? Number(k) : k)
        } else expect(a, text).toEqual(b)
      }
      compare(ours, reference, [ours], 0)
    }
  })

  test('a long literal only inside strings: the tree as JSON.parse gives it, nothing kept', () => {
    const value = parseJsonExact('{"id":7,"note":"order 12345678901234567890, 1e5 times"}') as Record<string, unknown>
    expect(value).toEqual({ id: 7, note: 'order 12345678901234567890, 1e5 times' })
    expect(literalAt(value, 'id')).toBeUndefined()
  })

  test('a string whose text ends where its value would, on an escaped quote', () => {
    // the value "ab\"…" has 4 units; its text has a backslash where a 4-unit string would close
    const value = parseJsonExact('[{"k\\"":"a\\"b","id":12345678901234567890}]') as Array<Record<string, unknown>>
    expect(value[0]['k"']).toBe('a"b')
    expect(numberText(value[0], 'id')).toBe('12345678901234567890')
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

describe('parseJsonExact refuses a text nested past MAX_JSON_DEPTH, before JSON.parse reads it', () => {
  const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth)
  test('at the limit it parses; one level more is refused, arrays and objects alike', () => {
    expect(() => parseJsonExact(nested(MAX_JSON_DEPTH))).not.toThrow()
    expect(() => parseJsonExact(nested(MAX_JSON_DEPTH + 1))).toThrow(JsonOverLimitError)
    const objects = '{"a":'.repeat(MAX_JSON_DEPTH) + '[1]' + '}'.repeat(MAX_JSON_DEPTH)
    expect(() => parseJsonExact(objects)).toThrow(/nested more than 10000 levels deep/)
  })
  test('brackets inside strings, escaped quotes included, do not count', () => {
    const text = JSON.stringify([{ name: '['.repeat(5000) + '\\"[[' + '{'.repeat(5000), description: '\\\\' }])
    expect(parseJsonExact(text)).toEqual(JSON.parse(text))
  })
  test('10 MB of [[[[…]]]] is refused in a few milliseconds, where JSON.parse took seconds', () => {
    const started = cpuMs()
    expect(() => parseJsonExact(nested(5_000_000))).toThrow(JsonOverLimitError)
    // about 1 ms: the scan stops at the limit
    expect(cpuMs() - started).toBeLessThan(500)
  })
})

describe('parseJsonExact refuses a text denser in arrays and objects than one in 8 characters, past 500,000 of them', () => {
  test("60 MB of [{},{},…] (JSON.parse: 17 s) is refused in a pass; 500,000 empty objects are read", () => {
    const started = cpuMs()
    expect(() => parseJsonExact('[' + '{},'.repeat(20_000_000) + '{}]')).toThrow(/^20000002 arrays and objects in 60000004 characters, more than one in every 8/)
    // a scan of 60 MB, about 100 ms (the text's making included, about 1 s on a loaded machine)
    expect(cpuMs() - started).toBeLessThan(3000)
    expect((parseJsonExact('[' + '{},'.repeat(DENSE_CONTAINERS - 2) + '{}]') as unknown[]).length).toBe(DENSE_CONTAINERS - 1)
  })
  test('a list whose every record carries an empty array and an empty object besides is read', () => {
    const list = '[' + Array.from({ length: 300_000 }, (_, i) => `{"id":${i},"name":"a","t":[],"u":{}}`).join(',') + ']'
    expect((parseJsonExact(list) as unknown[]).length).toBe(300_000)
  })
})
