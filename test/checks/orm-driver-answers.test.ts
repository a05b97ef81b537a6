/**
 * A failure names the ORM or database driver default behind a well-known wrong answer and how it is
 * changed (lib/checks/orm-driver-answers.ts), as measured against Node services written on pg,
 * postgres.js, Knex, Drizzle, Sequelize, TypeORM, mysql2 and better-sqlite3 (docs/adoption.md): the
 * answers below are those services' bytes. The code and the verdict stay those of the check.
 */
import { describe, expect, test } from 'vitest'
import { expectDistinctIds, expectServiceAssignedId, type CategoryRecord } from '../../lib/checks/category.ts'
import { expectStatus } from '../../lib/checks/response.ts'
import { expectSchema } from '../../lib/checks/schema.ts'
import { parseJsonExact } from '../../lib/json/exact-json.ts'
import { CLIENT_ID_INSERTED, EXISTING_ID_UPDATED } from '../../lib/checks/orm-driver-answers.ts'
import { VALID_CREATES } from '../../suites/cases/valid-creates.ts'
import { wrongTypeCases } from '../../suites/cases/wrong-types.ts'
import { makeResponse, verdictOf } from './make-response.ts'

const failureOf = (check: () => unknown) => {
  const verdict = verdictOf(check)
  if (!('code' in verdict)) throw new Error(`expected a failure, got ${JSON.stringify(verdict)}`)
  return verdict
}

/** A POST answered as built, its request body as the service got it. */
const posted = (requestBody: unknown, status: number, body: unknown) => {
  const result = makeResponse({ status, method: 'POST', body })
  result.exchange.request.body = JSON.stringify(requestBody)
  return result
}

describe('ids as the drivers give them', () => {
  test("an int8 id as text (node-postgres' default) names the drivers and the type parser", () => {
    const failure = failureOf(() => expectSchema(makeResponse({ status: 201, body: { id: '1', name: 'x', description: null } }), 'Category'))
    expect(failure.code).toBe('SCHEMA_MISMATCH')
    expect(failure.message).toMatch(/node-postgres \(pg\) and postgres\.js give an int8 column .* as a string by default.*setTypeParser\(20, BigInt\)/)
  })

  test('two ids past 2^53 made one by a JavaScript number (mysql2 without supportBigNumbers) say so; small ones do not', () => {
    const past = parseJsonExact('[{"id":9007199254740996,"name":"a"},{"id":9007199254740996,"name":"b"}]') as CategoryRecord[]
    const failure = failureOf(() => expectDistinctIds(past, 'the list', makeResponse()))
    expect(failure.code).toBe('DUPLICATE_ID')
    expect(failure.message).toMatch(/9007199254740996 is past 2\^53: if the store holds them apart, a driver that read its BIGINTs into JavaScript numbers made them one.*mysql2 does without supportBigNumbers.*better-sqlite3 without safeIntegers.*or a proxy in front made them one: a gateway or backend-for-frontend that parses the service's answers/)
    const small = parseJsonExact('[{"id":7,"name":"a"},{"id":7,"name":"b"}]') as CategoryRecord[]
    expect(failureOf(() => expectDistinctIds(small, 'the list', makeResponse())).message).toBe('the list: two records share id 7')
  })

  test('two creates answered one id no double holds (2^53 + 1) name processes counting ids apart (puma -w 2), not a driver that rounded it', () => {
    // measured: a Rack service with an in-memory store under puma -w 2, each worker counting from 2^53 + 1 (mutation workers-with-stores-of-their-own)
    const odd = parseJsonExact('[{"id":9007199254740993,"name":"cf-ab12c-plain"},{"id":9007199254740993,"name":"cf-ab12c-deep"}]') as CategoryRecord[]
    const failure = failureOf(() => expectDistinctIds(odd, 'the created records', makeResponse()))
    expect(failure.code).toBe('DUPLICATE_ID')
    expect(failure.message).not.toMatch(/BIGINTs into JavaScript numbers|proxy in front/)
    expect(failure.message).toMatch(/^the created records: two records share id 9007199254740993; processes that each keep their own records and count their own ids give one id twice: .*puma -w 2.*Starman, which starts 5 workers.*gunicorn --workers/)
    // one a double may be either: both are said
    const even = parseJsonExact('[{"id":9007199254740994,"name":"cf-ab12c-plain"},{"id":9007199254740994,"name":"cf-ab12c-deep"}]') as CategoryRecord[]
    expect(failureOf(() => expectDistinctIds(even, 'the created records', makeResponse())).message).toMatch(/a driver that read its BIGINTs into JavaScript numbers.*; processes that each keep their own records/)
    // one name sent twice, the second's description on the first's id: an upsert, not processes apart (mutation update-by-name)
    const upsert = parseJsonExact('[{"id":2,"name":"cf-ab12c-plain"},{"id":2,"name":"cf-ab12c-plain","description":"cf-ab12c-repeated"}]') as CategoryRecord[]
    const upserted = failureOf(() => expectDistinctIds(upsert, 'the created records', makeResponse())).message
    expect(upserted).toMatch(/^the created records: two records share id 2; both creates sent this name: the second updated the first's record \(an upsert on a UNIQUE name/)
    expect(upserted).not.toMatch(/processes that each keep/)
  })

  test('every create answered one id (a sequence never advanced) is said so, not worker processes counting apart; two of many, a race on MAX(id) + 1 beside them', () => {
    // mutation id-sequence-stuck: every create gets id 1, which no pair of workers counting apart gives to them all
    const stuck = parseJsonExact('[{"id":1,"name":"cf-ab12c-plain"},{"id":1,"name":"cf-ab12c-deep"},{"id":1,"name":"cf-ab12c-empty"},{"id":1,"name":"cf-ab12c-long"}]') as CategoryRecord[]
    const message = failureOf(() => expectDistinctIds(stuck, 'the created records', makeResponse())).message
    expect(message).toMatch(/^the created records: two records share id 1; every create was answered this one id: an id that never advances/)
    expect(message).not.toMatch(/processes that each keep|puma -w 2/)
    // two of several: worker processes, or one process that computes the id before the insert
    const two = parseJsonExact('[{"id":1,"name":"cf-ab12c-plain"},{"id":2,"name":"cf-ab12c-deep"},{"id":2,"name":"cf-ab12c-empty"},{"id":3,"name":"cf-ab12c-long"}]') as CategoryRecord[]
    expect(failureOf(() => expectDistinctIds(two, 'the created records', makeResponse())).message).toMatch(/processes that each keep their own records.*; or one process that computes the id before the insert \(SELECT MAX\(id\) \+ 1/)
  })
})

describe('a server fault to a create without a description', () => {
  test("names the drivers that refuse undefined (postgres.js' insert helper, mysql2's execute)", () => {
    const failure = failureOf(() => expectStatus(posted({ name: 'cf-x-plain' }, 500, { code: 'internal', message: 'internal error', status: 500 }), 201))
    expect(failure.code).toBe('SERVER_ERROR')
    expect(failure.message).toMatch(/UNDEFINED_VALUE.*transform: \{ undefined: null \}.*mysql2's execute\(\).*description \?\? null/)
  })

  test('a fault to a create with a description, or a refusal, gets no such words', () => {
    expect(failureOf(() => expectStatus(posted({ name: 'n', description: 'd' }, 500, ''), 201)).message).not.toMatch(/undefined/)
    expect(failureOf(() => expectStatus(posted({ name: 'n' }, 400, { code: 'bad', message: 'x', status: 400 }), 201)).message).not.toMatch(/undefined/)
  })
})

test("a create that took a stored record's id says the save updated it (TypeORM's repository.save)", () => {
  const text = '{"id":1,"name":"cf-x-own-id","description":"cf-x-own-id"}'
  const failure = failureOf(() => expectServiceAssignedId('1', parseJsonExact(text) as CategoryRecord, makeResponse({ status: 201, method: 'POST', body: text }), EXISTING_ID_UPDATED))
  expect(failure.code).toBe('CLIENT_ID_ACCEPTED')
  expect(failure.message).toMatch(/^the created record took the id the body sent \(1\) instead of one the service assigned: it is the id of the record the run created first: a save that updated that record.*TypeORM's repository\.save\(req\.body\)/)
})

test('a create that took an id no record has names the body handed whole to an ORM, and a record spread from the body after its id', () => {
  const text = '{"id":1814303901,"name":"cf-x-t","description":"cf-x-t"}'
  const failure = failureOf(() => expectServiceAssignedId('1814303901', parseJsonExact(text) as CategoryRecord, makeResponse({ status: 201, method: 'POST', body: text }), CLIENT_ID_INSERTED))
  expect(failure.code).toBe('CLIENT_ID_ACCEPTED')
  expect(failure.message).toMatch(/Sequelize's Model\.create\(req\.body\).*\{ id: next\+\+, \.\.\.req\.body \}: the body's id comes last and wins/)
})

test("a 201 to a number, a boolean or a null for text names Sequelize's STRING validation and its allowNull", () => {
  const meaning = (label: string) => wrongTypeCases().find((c) => c.label === label)?.acceptedMeans ?? ''
  expect(meaning('name as an integer')).toMatch(/Sequelize's DataTypes\.STRING validation \(6\.37\) refuses only arrays and objects/)
  expect(meaning('description as a boolean')).toMatch(/Sequelize's DataTypes\.STRING validation/)
  expect(meaning('description as null')).toMatch(/Sequelize's attributes allow null unless allowNull: false/)
})

test("a fault to a lone surrogate or an unknown field names the Python drivers' UnicodeEncodeError and SQLAlchemy's constructor, or a nesting limit where the answer says so", () => {
  const fault = (key: string, answer = '') => {
    const means = VALID_CREATES.find((c) => c.key === key)?.faultMeans ?? ''
    return typeof means === 'string' ? means : means(answer)
  }
  expect(fault('create-lone-surrogates')).toMatch(/sqlite3 and psycopg2 raise UnicodeEncodeError \(surrogates not allowed\)/)
  expect(fault('create-surrogate-before-escape')).toBe(fault('create-lone-surrogates'))
  expect(fault('create-deep-value')).toMatch(/SQLAlchemy's declarative constructor raises TypeError .*'extra' is an invalid keyword argument.*; or a nesting limit below 300 levels/)
  // Puma's development answer to a JSON::NestingError a Rack handler let through (mutation nesting-limit-error-unhandled)
  const puma = fault('create-deep-value', 'Puma caught this error: nesting of 101 is too deep (JSON::NestingError)')
  expect(puma).toMatch(/^a server fault to a value nested 300 levels deep, which the answer puts down to its depth: .*Ruby's JSON\.parse stops at max_nesting 100 with JSON::NestingError/)
  expect(puma).not.toMatch(/SQLAlchemy/)
})
