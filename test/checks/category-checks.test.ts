/**
 * lib/checks/category.ts on built responses: fields echoed unchanged (§4.2 rule 2), ids unique
 * (§2), created categories listed once with the fields sent (§4.1).
 */
import { describe, expect, test } from 'vitest'
import { expectDistinctIds, expectEchoedFields, expectListed, expectServiceAssignedId, type CategoryRecord, type NewCategory } from '../../lib/checks/category.ts'
import { parseJsonExact } from '../../lib/json/exact-json.ts'
import { makeResponse, outcomeOf, verdictOf } from './make-response.ts'

const created = (body: unknown) => makeResponse({ status: 201, method: 'POST', body })
/** Records as the checks get them: parsed exactly, so ids past 2^53 keep their text. */
const records = (text: string) => parseJsonExact(text) as CategoryRecord[]

describe('expectServiceAssignedId', () => {
  test.each([
    ['an id of its own', '1099511627776', '{"id":17,"name":"n"}', 'pass'],
    ['the id sent', '1099511627776', '{"id":1099511627776,"name":"n"}', 'CLIENT_ID_ACCEPTED'],
    ['the id sent, in another form', '1099511627776', '{"id":1.099511627776e12,"name":"n"}', 'CLIENT_ID_ACCEPTED'],
    ['a neighbour past 2^53, compared exactly', '9007199254740993', '{"id":9007199254740992,"name":"n"}', 'pass'],
  ] as const)('%s → %s', (_label, sentId, text, outcome) => {
    const record = parseJsonExact(text) as CategoryRecord
    expect(outcomeOf(() => expectServiceAssignedId(sentId, record, created(text)))).toBe(outcome)
  })
})

describe('expectEchoedFields', () => {
  test.each([
    ['the name', { name: 'dog' }, { id: 1, name: 'dog' }, 'pass'],
    ['name and description, extra fields', { name: 'dog', description: 'd' }, { id: 1, name: 'dog', description: 'd', extra: true }, 'pass'],
    ['a default description not sent', { name: 'dog' }, { id: 1, name: 'dog', description: '' }, 'pass'],
    ['a trimmed name', { name: '  dog  ' }, { id: 1, name: 'dog' }, 'FIELD_CHANGED'],
    ['a lower-cased name', { name: 'Dog' }, { id: 1, name: 'dog' }, 'FIELD_CHANGED'],
    ['a dropped description', { name: 'dog', description: 'd' }, { id: 1, name: 'dog' }, 'FIELD_CHANGED'],
    ['NFC-normalised', { name: 'Nandu\u0301' }, { id: 1, name: 'Nandú' }, 'FIELD_CHANGED'],
    ['a tab turned into a space', { name: 'a\tb' }, { id: 1, name: 'a b' }, 'FIELD_CHANGED'],
    ['cut at 255 characters', { name: 'x'.repeat(300) }, { id: 1, name: 'x'.repeat(255) }, 'FIELD_CHANGED'],
    ['name and description swapped', { description: 'a dog', name: 'dog' }, { id: 1, name: 'a dog', description: 'dog' }, 'FIELD_CHANGED'],
    ['a body that is not a record', { name: 'dog' }, ['dog'], 'not-applicable'],
  ].map(([label, sent, answer, outcome]) => ({ label, sent, answer, outcome })))('$label → $outcome', ({ sent, answer, outcome }) => {
    expect(outcomeOf(() => expectEchoedFields(sent as NewCategory, created(answer)))).toBe(outcome)
  })

  test('the failure names the field, what was sent and what came back', () => {
    const verdict = verdictOf(() => expectEchoedFields({ name: '  dog  ' }, created({ id: 1, name: 'dog' })))
    expect(verdict).toMatchObject({
      code: 'FIELD_CHANGED',
      // and the stacks that trim (php-ruby-answers.ts, test/checks/php-ruby-answers.test.ts)
      message: expect.stringMatching(/^the created record changed "name"; first difference at character 0: sent U\+0020, got U\+0064 \(lengths 7 and 3\); the leading and trailing whitespace was taken away/),
    })
  })
})

describe('expectEchoedFields and fields bound by their place in the body', () => {
  test('a field that came back holding another field as sent says so', () => {
    const verdict = verdictOf(() => expectEchoedFields({ description: 'a dog', name: 'dog' }, created({ id: 1, name: 'a dog', description: 'dog' })))
    expect(verdict).toMatchObject({ code: 'FIELD_CHANGED', message: expect.stringMatching(/^the created record changed "description"; it holds the "name" sent: the values were bound to the fields by their place in the body/) })
  })
})

describe("a create answered with another create's record (measured: PHP on MariaDB reading back ORDER BY id DESC LIMIT 1)", () => {
  /** The create answer to a body sent as `body` (its text, members in the order given). */
  const answered = (body: string, record: unknown) => {
    const result = created(record)
    result.exchange.request.body = body
    return result
  }
  test('values swapped by place only where the body sent them in that order; else the empty name\'s record read back is not called a binding by place', () => {
    const swapped = { name: '', description: 'cf-ab12c-empty' }
    // the empty description's create, name first: a binding by place gives no swap
    const nameFirst = verdictOf(() => expectEchoedFields({ name: 'cf-ab12c-empty', description: '' }, answered('{"name":"cf-ab12c-empty","description":""}', { id: 2, ...swapped })))
    expect(nameFirst).toMatchObject({ code: 'FIELD_CHANGED' })
    expect((nameFirst as { message: string }).message).not.toMatch(/by their place/)
    const descriptionFirst = verdictOf(() => expectEchoedFields({ description: '', name: 'cf-ab12c-empty' }, answered('{"description":"","name":"cf-ab12c-empty"}', { id: 2, ...swapped })))
    expect((descriptionFirst as { message: string }).message).toMatch(/changed "description"; it holds the "name" sent: the values were bound to the fields by their place in the body/)
  })
  test("a record holding another create's marker is named as another create's record; a value cut or trimmed from this body's is not", () => {
    const other = verdictOf(() => expectEchoedFields({ name: '  cf-ab12c-padded  ' }, answered('{"name":"  cf-ab12c-padded  "}', { id: 9, name: '-0042', description: 'cf-ab12c-numeric-name' })))
    expect(other).toMatchObject({ code: 'FIELD_CHANGED', message: expect.stringMatching(/^the created record changed "name"; the answer is another create's record \(its "description" holds cf-ab12c-numeric-name, which this body did not send\): .*ORDER BY id DESC LIMIT 1.*lastInsertId\(\)/) })
    const trimmed = verdictOf(() => expectEchoedFields({ name: '  cf-ab12c-padded  ' }, answered('{"name":"  cf-ab12c-padded  "}', { id: 9, name: 'cf-ab12c-padded' })))
    expect((trimmed as { message: string }).message).not.toMatch(/another create/)
    // a name lower-cased (mutation name-lower-cased) is this create's own, changed: its marker read in lower case
    const lowered = verdictOf(() => expectEchoedFields({ name: 'cf-ab12c-Desc-16' }, answered('{"name":"cf-ab12c-Desc-16"}', { id: 9, name: 'cf-ab12c-desc-16' })))
    expect(lowered).toMatchObject({ code: 'FIELD_CHANGED' })
    expect((lowered as { message: string }).message).not.toMatch(/another create/)
    // and the fold named (stackhunt9: a Go service's strings.ToLower was "first difference at character 9" alone)
    expect((lowered as { message: string }).message).toMatch(/changed "name"; first difference at character 9: sent U\+0044, got U\+0064 \(lengths 16 and 16\); the text came back in lower case: .*strings\.ToLower.*§4\.2 rule 2/)
  })
  test('two creates answered with one record (the same id, name and description): said so by ids-unique; two records that only share an id are not', () => {
    const one = verdictOf(() => expectDistinctIds(records('[{"id":5,"name":"cf-ab12c-plain"},{"id":5,"name":"cf-ab12c-plain"}]'), 'the created records'))
    expect(one).toMatchObject({ code: 'DUPLICATE_ID', message: expect.stringMatching(/share id 5; both creates were answered with one record: .*ORDER BY id DESC LIMIT 1/) })
    const two = verdictOf(() => expectDistinctIds(records('[{"id":5,"name":"cf-ab12c-plain"},{"id":5,"name":"cf-ab12c-deep"}]'), 'the created records'))
    expect((two as { message: string }).message).not.toMatch(/one record/)
    expect((verdictOf(() => expectDistinctIds(records('[{"id":5,"name":"a"},{"id":5,"name":"a"}]'), 'the list')) as { message: string }).message).not.toMatch(/one record/)
  })
})

describe('expectDistinctIds', () => {
  test.each([
    ['distinct small ids', '[{"id":1,"name":"a"},{"id":2,"name":"b"}]', 'pass'],
    ['neighbours past 2^53 (equal as doubles)', '[{"id":9007199254740992,"name":"a"},{"id":9007199254740993,"name":"b"}]', 'pass'],
    ['the same id twice', '[{"id":7,"name":"a"},{"id":7,"name":"b"}]', 'DUPLICATE_ID'],
    ['the same id in two forms', '[{"id":100,"name":"a"},{"id":1E2,"name":"b"}]', 'DUPLICATE_ID'],
    ['the same id past 2^53', '[{"id":9223372036854775807,"name":"a"},{"id":9223372036854775807,"name":"b"}]', 'DUPLICATE_ID'],
  ].map(([label, text, outcome]) => ({ label, text, outcome })))('$label → $outcome', ({ text, outcome }) => {
    expect(outcomeOf(() => expectDistinctIds(records(text), 'the list'))).toBe(outcome)
  })
})

describe('expectListed', () => {
  const creation = (sent: NewCategory, id: number) => ({ sent, record: { id, ...sent } as CategoryRecord })
  const dog = creation({ name: 'run-dog', description: 'd' }, 5)

  test.each([
    ['listed as created, among others, in any order', '[{"id":9,"name":"other"},{"id":5,"name":"run-dog","description":"d"}]', 'pass'],
    ['listed with extra properties', '[{"id":5,"name":"run-dog","description":"d","x":1}]', 'pass'],
    ['missing from the list', '[{"id":9,"name":"other"}]', 'MISSING_FROM_LIST'],
    // the name and description it was created with, under an id no create was answered: changed, not missing (listed-under-another-id.ts)
    ['listed under another id', '[{"id":6,"name":"run-dog","description":"d"}]', 'LISTED_FIELD_CHANGED'],
    ['listed twice under its id', '[{"id":5,"name":"run-dog","description":"d"},{"id":5,"name":"run-dog","description":"d"}]', 'DUPLICATE_CREATE'],
    ['stored twice under two ids', '[{"id":5,"name":"run-dog","description":"d"},{"id":6,"name":"run-dog","description":"d"}]', 'DUPLICATE_CREATE'],
    ['listed without its description', '[{"id":5,"name":"run-dog"}]', 'LISTED_FIELD_CHANGED'],
    ['listed with another name', '[{"id":5,"name":"run-dóg","description":"d"}]', 'LISTED_FIELD_CHANGED'],
  ].map(([label, text, outcome]) => ({ label, text, outcome })))('$label → $outcome', ({ text, outcome }) => {
    expect(outcomeOf(() => expectListed([dog], records(text)))).toBe(outcome)
  })

  test("every create answered id 0 (PDO's lastInsertId() where the store generated no id): ids-unique's shared id, named, and not again each record listed under its own id", () => {
    const [cat, bird] = [creation({ name: 'run-cat' }, 0), creation({ name: 'run-bird' }, 0)]
    expect(verdictOf(() => expectDistinctIds([cat.record, bird.record], 'the created records'))).toMatchObject({ code: 'DUPLICATE_ID', message: expect.stringMatching(/share id 0; id 0 is what PDO::lastInsertId\(\) .*MAX\(id\) \+ 1/) })
    const list = records('[{"id":1,"name":"run-cat"},{"id":2,"name":"run-bird"}]')
    expect(outcomeOf(() => expectListed([cat, bird], list))).toBe('pass')
    // an id that is no other create's, listed elsewhere, is the record's id changed, as before
    expect(outcomeOf(() => expectListed([cat], list))).toBe('LISTED_FIELD_CHANGED')
  })

  test("a create answered with another create's record (create-echoes-fields tells it) is not failed again for its own record, listed under its own id", () => {
    // the cat's create answered with the bird's record (id 2, which a list read before it does not hold); the cat is listed under its own id, 1
    const [cat, bird] = [{ sent: { name: 'run-cat' }, record: { id: 2, name: 'run-bird' } as CategoryRecord }, creation({ name: 'run-bird' }, 3)]
    const list = records('[{"id":1,"name":"run-cat"},{"id":3,"name":"run-bird"}]')
    expect(outcomeOf(() => expectListed([cat, bird], list))).toBe('pass')
    // where the run does not judge create-echoes-fields (--rule), created-in-list tells it
    expect(outcomeOf(() => expectListed([{ ...cat, changeToldHere: true as const }, bird], list))).toBe('LISTED_FIELD_CHANGED')
  })

  describe('a create whose answer already changed a field (create-echoes-fields fails it): one fault, told once', () => {
    const sent = { name: 'run-dog  ', description: 'd' }
    const trimmed = { sent, record: { id: 5, name: 'run-dog', description: 'd' } as CategoryRecord }
    test.each([
      ['listed as the answer showed it', '[{"id":5,"name":"run-dog","description":"d"}]', 'pass'],
      ['listed as sent (the answer alone was wrong)', '[{"id":5,"name":"run-dog  ","description":"d"}]', 'pass'],
      ['listed changed another way', '[{"id":5,"name":"run-do","description":"d"}]', 'LISTED_FIELD_CHANGED'],
      ['listed without a field the answer kept', '[{"id":5,"name":"run-dog"}]', 'LISTED_FIELD_CHANGED'],
    ].map(([label, text, outcome]) => ({ label, text, outcome })))('$label → $outcome', ({ text, outcome }) => {
      expect(outcomeOf(() => expectListed([trimmed], records(text)))).toBe(outcome)
    })
    test('an answer that was lost, its record read from the list: no answer showed the change, so the list fails it', () => {
      const found = { ...trimmed, foundInList: true as const }
      expect(outcomeOf(() => expectListed([found], records('[{"id":5,"name":"run-dog","description":"d"}]')))).toBe('LISTED_FIELD_CHANGED')
    })
    test('a run that judges no create-echoes-fields (--rule created-in-list alone): the list tells the change itself', () => {
      const alone = { ...trimmed, changeToldHere: true as const }
      expect(outcomeOf(() => expectListed([alone], records('[{"id":5,"name":"run-dog","description":"d"}]')))).toBe('LISTED_FIELD_CHANGED')
    })
  })

  test('two creates answered with one id (ids-unique reports it): the list shows one record under it, whichever name it has', () => {
    const first = creation({ name: 'run-first', description: 'd' }, 1)
    const second = creation({ name: 'run-second', description: 'd' }, 1)
    const other = creation({ name: 'run-other', description: 'd' }, 2)
    expect(outcomeOf(() => expectListed([first, second, other], records('[{"id":1,"name":"run-second","description":"d"},{"id":2,"name":"run-other","description":"d"}]')))).toBe('pass')
    expect(outcomeOf(() => expectListed([first, second, other], records('[{"id":1,"name":"run-second","description":"d"},{"id":2,"name":"run-0ther","description":"d"}]')))).toBe('LISTED_FIELD_CHANGED')
    expect(outcomeOf(() => expectListed([first, second, other], records('[{"id":1,"name":"run-second","description":"d"}]')))).toBe('MISSING_FROM_LIST')
    // none under it: the writes were lost (a create that answers 201 and stores nothing), a fault of its own
    expect(outcomeOf(() => expectListed([first, second, other], records('[{"id":2,"name":"run-other","description":"d"}]')))).toBe('MISSING_FROM_LIST')
    // a run that judges no ids-unique (--rule created-in-list alone): the record listed under the shared id fails the create it is not
    const alone = [first, second, other].map((c) => ({ ...c, sharedIdToldHere: true as const }))
    expect(outcomeOf(() => expectListed(alone, records('[{"id":1,"name":"run-second","description":"d"},{"id":2,"name":"run-other","description":"d"}]')))).toBe('LISTED_FIELD_CHANGED')
  })

  test("a repeated name's two records alike once the store dropped what told them apart (descriptions): each is its own create's, not a second record; a record no create announced still is", () => {
    const plain = { sent: { name: 'run-same' }, record: { id: 1, name: 'run-same' } as CategoryRecord }
    const described = { sent: { name: 'run-same', description: 'second' }, record: { id: 2, name: 'run-same' } as CategoryRecord }
    expect(outcomeOf(() => expectListed([plain, described], records('[{"id":1,"name":"run-same"},{"id":2,"name":"run-same"}]')))).toBe('pass')
    expect(outcomeOf(() => expectListed([plain, described], records('[{"id":1,"name":"run-same"},{"id":2,"name":"run-same"},{"id":3,"name":"run-same"}]')))).toBe('DUPLICATE_CREATE')
  })

  test('a default for a field not sent may differ in the list', () => {
    const plain = creation({ name: 'run-plain' }, 3)
    expect(outcomeOf(() => expectListed([plain], records('[{"id":3,"name":"run-plain","description":""}]')))).toBe('pass')
  })
})
