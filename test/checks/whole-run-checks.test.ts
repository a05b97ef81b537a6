/**
 * The whole-run checks of lib/checks/category.ts on built lists: a category listed first is listed
 * again, unchanged (§4.1, no delete); what a refused POST sent is found by its marker; long
 * values are shown cut, with where they differ.
 */
import { describe, expect, test } from 'vitest'
import { expectListed, expectStillListed, expectUnchangedWhereListed, firstDifference, missingFromList, recordsHolding, shownValue, type CategoryRecord } from '../../lib/checks/category.ts'
import { parseJsonExact } from '../../lib/json/exact-json.ts'
import { makeResponse, outcomeOf, verdictOf } from './make-response.ts'

const records = (text: string) => parseJsonExact(text) as CategoryRecord[]
const FIRST = '[{"id":1,"name":"dog","description":"d"},{"id":2,"name":"cat"}]'

describe('expectStillListed', () => {
  test.each([
    ['the same list', FIRST, 'pass'],
    ['the same, in another order, with a new category and extra properties', '[{"id":3,"name":"new"},{"id":2,"name":"cat","petCount":4},{"id":1,"name":"dog","description":"d"}]', 'pass'],
    ['an id past 2^53 written in another form', '[{"id":1E0,"name":"dog","description":"d"},{"id":2.0,"name":"cat"}]', 'pass'],
    ['a category gone', '[{"id":2,"name":"cat"}]', 'VANISHED_FROM_LIST'],
    ['a name changed', '[{"id":1,"name":"Dog","description":"d"},{"id":2,"name":"cat"}]', 'CHANGED_BETWEEN_LISTS'],
    ['a description dropped', '[{"id":1,"name":"dog"},{"id":2,"name":"cat"}]', 'CHANGED_BETWEEN_LISTS'],
    ['a description added', '[{"id":1,"name":"dog","description":"d"},{"id":2,"name":"cat","description":""}]', 'CHANGED_BETWEEN_LISTS'],
  ].map(([label, later, outcome]) => ({ label, later, outcome })))('$label → $outcome', ({ later, outcome }) => {
    expect(outcomeOf(() => expectStillListed(records(FIRST), records(later)))).toBe(outcome)
  })

  test('the failure names the lowest id gone, whatever the order, and counts them in actual', () => {
    const earlier = records(JSON.stringify(Array.from({ length: 10 }, (_, i) => ({ id: 10 - i, name: `seeded-${10 - i}` }))))
    expect(verdictOf(() => expectStillListed(earlier, earlier.slice(0, 3)))).toMatchObject({
      code: 'VANISHED_FROM_LIST',
      message: 'a category listed first is missing from the list sent after the run\'s POSTs: id 1 ("seeded-1")',
    })
    expect(() => expectStillListed(earlier, earlier.slice(0, 3))).toThrow(expect.objectContaining({ actual: expect.stringMatching(/^7 of the 10 listed first are missing from the 3 listed later: ids 7, 6/) }))
  })
})

// measured (stackhunt11): Flask over SQLite with ORDER BY id DESC LIMIT 50 and 120 records: 21 of the first 50 gone after the creates
test('as many listed after the POSTs as before, records gone: the list is said to be cut at a fixed size; fewer listed after is not', () => {
  const seeded = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from - i, name: `seeded-${from - i}` }))
  const cut = verdictOf(() => expectStillListed(seeded(120, 50), seeded(141, 50)))
  expect(cut).toMatchObject({ code: 'VANISHED_FROM_LIST' })
  expect('message' in cut && cut.message).toMatch(/: id 71 \("seeded-71"\); both lists hold 50 records: a list cut at a fixed size \(a LIMIT, a default page size\), where §8 returns all categories in one array$/)
  const fewer = verdictOf(() => expectStillListed(seeded(120, 50), seeded(120, 40)))
  expect('message' in fewer && fewer.message).not.toMatch(/fixed size/)
})

// review52: a list whose ids are made anew at each read (a uuid written by the serializer, a row's
// position) loses every record it held by its id, as many listed, and lists them again by name: no cut
test('every record gone and as many listed again under other ids: no fixed size is named', () => {
  const records = (shift: number) => Array.from({ length: 20 }, (_, i) => ({ id: shift + i, name: `seeded-${i}` }))
  const renamed = verdictOf(() => expectStillListed(records(1), records(1001)))
  expect(renamed).toMatchObject({ code: 'VANISHED_FROM_LIST' })
  expect('message' in renamed && renamed.message).not.toMatch(/fixed size/)
  // every record gone for as many others (a list of the 20 newest, after 20 creates) is still a cut
  const others = Array.from({ length: 20 }, (_, i) => ({ id: 1001 + i, name: `created-${i}` }))
  const cut = verdictOf(() => expectStillListed(records(1), others))
  expect('message' in cut && cut.message).toMatch(/both lists hold 20 records: a list cut at a fixed size/)
})

describe('expectUnchangedWhereListed: a list that may lag behind the writes', () => {
  test.each([
    ['a list that lacks a category', '[{"id":2,"name":"cat"}]', 'pass'],
    ['an empty list', '[]', 'pass'],
    ['a category it shows without its description', '[{"id":1,"name":"dog"}]', 'CHANGED_BETWEEN_LISTS'],
    ['a category it shows renamed', '[{"id":2,"name":"Cat"}]', 'CHANGED_BETWEEN_LISTS'],
  ].map(([label, later, outcome]) => ({ label, later, outcome })))('$label → $outcome', ({ later, outcome }) => {
    expect(outcomeOf(() => expectUnchangedWhereListed(records(FIRST), records(later)))).toBe(outcome)
  })
})

describe('a created category listed under another id (listed-under-another-id.ts)', () => {
  const created = (id: string, name: string, description?: string) => ({
    sent: { name, ...(description !== undefined ? { description } : {}) },
    record: records(`[{"id":${id},"name":${JSON.stringify(name)}${description !== undefined ? `,"description":${JSON.stringify(description)}` : ''}}]`)[0],
  })
  const creations = [created('1152921504606846977', 'cf-r-a', 'd'), created('7', 'cf-r-b')]
  test.each([
    ['a list that shows neither (behind the writes)', '[{"id":1,"name":"dog"}]', 2, 'MISSING_FROM_LIST'],
    ['the name under another id with another description (another record)', '[{"id":9,"name":"cf-r-a","description":"other"},{"id":7,"name":"cf-r-b"}]', 1, 'MISSING_FROM_LIST'],
    ['the name and no description under another id', '[{"id":1152921504606846977,"name":"cf-r-a","description":"d"},{"id":8,"name":"cf-r-b"}]', 0, 'LISTED_FIELD_CHANGED'],
    ['the name and description under the id rounded to a double', '[{"id":1152921504606847000,"name":"cf-r-a","description":"d"},{"id":7,"name":"cf-r-b"}]', 0, 'LISTED_FIELD_CHANGED'],
    // a list that rounds consecutive ids past 2^53 shows the first under 2^60 + 24, another create's id
    ['under the id of another create that sent other values: listed under another id', '[{"id":7,"name":"cf-r-a","description":"d"}]', 0, 'LISTED_FIELD_CHANGED'],
    ['under the id of another create, that create listed as it sent: missing', '[{"id":7,"name":"cf-r-b"}]', 1, 'MISSING_FROM_LIST'],
  ] as const)('%s → %d missing, %s', (_, list, missing, outcome) => {
    expect(missingFromList(creations, records(list))).toHaveLength(missing)
    expect(outcomeOf(() => expectListed(creations, records(list)))).toBe(outcome)
  })
  test('which id was rounded to a double is said, the list\'s or the create answer\'s', () => {
    expect(verdictOf(() => expectListed(creations.slice(0, 1), records('[{"id":1152921504606847000,"name":"cf-r-a","description":"d"}]')))).toMatchObject({
      message: expect.stringMatching(/^category 1152921504606846977 is listed under another id, 1152921504606847000, with the name and description it was created with; 1152921504606847000 is 1152921504606846977 rounded to a double: .* and the list read the id/),
    })
    const answeredRounded = [created('1152921504606846976', 'cf-r-a', 'd')]
    expect(verdictOf(() => expectListed(answeredRounded, records('[{"id":1152921504606846977,"name":"cf-r-a","description":"d"}]')))).toMatchObject({
      message: expect.stringMatching(/; 1152921504606846976 is 1152921504606846977 rounded to a double: .* and the create answer read the id/),
    })
    expect(verdictOf(() => expectListed(creations.slice(1), records('[{"id":8,"name":"cf-r-b"}]')))).toMatchObject({ message: 'category 7 is listed under another id, 8, with the name and description it was created with' })
  })
})

describe('recordsHolding', () => {
  const list = records('[{"id":1,"name":"conform-R-missing-name x"},{"id":2,"name":"42","description":"conform-R-wrong-type-name-integer"},{"id":3,"name":"dog"}]')
  test('finds a marker in a name or a description, and nothing else', () => {
    expect(recordsHolding(list, 'conform-R-wrong-type-name-integer').map((r) => r.id)).toEqual([2])
    expect(recordsHolding(list, 'conform-R-missing-name').map((r) => r.id)).toEqual([1])
    expect(recordsHolding(list, 'conform-R-malformed-nan')).toEqual([])
  })
})

describe('failure lines for long and subtle values', () => {
  test('a long string is cut with its length; a short one is shown whole', () => {
    // cut at 120, and back past the start of the run of key characters the cut splits (lib/http/secret-runs.ts cutClearOfSecrets)
    expect(shownValue('x'.repeat(4097))).toBe(`${JSON.stringify('x'.repeat(109))}… (4097 characters)`)
    expect(shownValue(`${'word '.repeat(30)}`)).toBe(`${JSON.stringify('word '.repeat(24))}… (150 characters)`)
    expect(shownValue('dog')).toBe('"dog"')
  })
  test('the first difference names the position and the code points', () => {
    expect(firstDifference('a\tb', 'a b')).toBe('; first difference at character 1: sent U+0009, got U+0020 (lengths 3 and 3)')
    // a cut at 255: MySQL's VARCHAR(255) outside strict mode, named (lib/checks/sql-store-answers.ts)
    expect(firstDifference('x'.repeat(256), 'x'.repeat(255))).toMatch(/^; first difference at character 255: sent U\+0078, got its end \(lengths 256 and 255\); the text was cut to its first 255 characters, as MySQL and MariaDB outside strict mode/)
    expect(firstDifference('e\u0301', 'é')).toBe('; first difference at character 0: sent U+0065, got U+00E9 (lengths 2 and 1)')
    // a lone high surrogate and what followed it, read as one character (Ruby's json 2.6): shown as code points
    expect(firstDifference('high \ud800A', 'high \u{10041}')).toMatch(/^; first difference at character 5: sent U\+D800, got U\+10041 \(lengths 7 and 7\); a lone high surrogate was joined/)
    expect(firstDifference('x\u{1F407}', 'x\u{1F408}')).toBe('; first difference at character 1: sent U+1F407, got U+1F408 (lengths 3 and 3)')
    expect(firstDifference(1, 'a')).toBe('')
  })
})

// measured by stackhunt12: a Node service that made one DynamoDB Scan call over 1.4 MB of items
// (no LastEvaluatedKey loop) lists about 1 MB of them, in the order of the keys' hashes: the
// run's creates push others out, 373 listed first and 376 after, and only "missing" was said
test('two lists of about 1 MB of JSON each, records gone: a cut at a size in bytes, as one DynamoDB call gives', () => {
  const records = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i, name: `seed-${from + i}`, description: 'x'.repeat(2700) }))
  const first = records(1, 373)
  const after = [...records(27, 347), ...records(1001, 29)]
  const cut = verdictOf(() => expectStillListed(first, after, makeResponse({ body: first }), makeResponse({ body: after })))
  expect(cut).toMatchObject({ code: 'VANISHED_FROM_LIST' })
  expect('message' in cut && cut.message).toMatch(/: id 1 \("seed-1"\); both lists are about 1 MB of JSON \(1\.0\d MB and 1\.0\d MB\): a list cut at a size in bytes, as a DynamoDB Scan or Query call returns at most 1 MB .*paginateScan/)
  // the same records in lists too small for such a page: nothing of a size is said
  const small = (list: { id: number; name: string }[]) => list.map(({ id, name }) => ({ id, name }))
  const uncut = verdictOf(() => expectStillListed(small(first), small(after), makeResponse({ body: small(first) }), makeResponse({ body: small(after) })))
  expect('message' in uncut && uncut.message).not.toMatch(/1 MB/)
  // review56: records gone listed again by name under other ids (ids made anew) were not cut off, whatever the size
  const anew = first.map((r) => ({ ...r, id: r.id + 5000 }))
  const remade = verdictOf(() => expectStillListed(first, anew, makeResponse({ body: first }), makeResponse({ body: anew })))
  expect(remade).toMatchObject({ code: 'VANISHED_FROM_LIST' })
  expect('message' in remade && remade.message).not.toMatch(/1 MB|cut/)
})
