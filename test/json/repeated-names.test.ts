/** firstRepeatedName (lib/json/repeated-names.ts): the first object of a JSON text that names a member twice. */
import { describe, expect, test } from 'vitest'
import { firstRepeatedName } from '../../lib/json/repeated-names.ts'

describe('firstRepeatedName', () => {
  test.each([
    ['every name once', '{"id":1,"name":"a","description":"b"}', undefined],
    ['the same names in sibling records', '[{"id":1,"name":"a"},{"id":2,"name":"b"}]', undefined],
    ['a name written inside a string value', '{"name":"\\"name\\": {\\"id\\":1}","id":1}', undefined],
    ['a key repeated in a record', '{"id":1,"name":"a","name":"b"}', { at: 'body', name: 'name' }],
    ['an escaped key repeating a plain one', '{"id":1,"\\u0069d":2}', { at: 'body', name: 'id' }],
    ['in the third record of a list', '[{"id":1},{"id":2},{"id":3,"name":"x","id":null}]', { at: 'body[2]', name: 'id' }],
    ['in an extra property, whitespace between tokens', '{ "id" : 1 , "extra" : { "n" : [ 1 , { } ] , "n" : 2 } }', { at: 'body.extra', name: 'n' }],
    ['a key ending in an escaped backslash', '{"a\\\\":1,"a\\\\":2}', { at: 'body', name: 'a\\' }],
  ])('%s', (_, text, expected) => {
    JSON.parse(text) // each text is JSON
    expect(firstRepeatedName(text)).toEqual(expected)
  })

  test('any depth, without a stack of calls', () => {
    const deep = `${'['.repeat(100_000)}{"a":1,"a":2}${']'.repeat(100_000)}`
    expect(firstRepeatedName(deep)?.name).toBe('a')
  })
})
