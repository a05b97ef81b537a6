/**
 * A failure names the PHP or Ruby default behind a well-known wrong answer and how it is changed
 * (lib/checks/php-ruby-answers.ts, called by known-answers.ts), as measured against a plain-PHP
 * service on PHP 8.2's built-in server and a Sinatra 3 one on Puma and WEBrick: the answers below
 * are the bytes those services gave. The code and the verdict stay those of the check.
 */
import { describe, expect, test } from 'vitest'
import { firstDifference } from '../../lib/checks/category.ts'
import { expectErrorRecord } from '../../lib/checks/error-record.ts'
import { expectJsonContentType, expectStatus, jsonBodyOf } from '../../lib/checks/response.ts'
import { expectSchema } from '../../lib/checks/schema.ts'
import { makeResponse, verdictOf } from './make-response.ts'
import { VALID_CREATES } from '../../suites/cases/valid-creates.ts'

const failureOf = (check: () => unknown) => {
  const verdict = verdictOf(check)
  if (!('code' in verdict)) throw new Error(`expected a failure, got ${JSON.stringify(verdict)}`)
  return verdict
}

/** Sinatra's default Content-Type (Rack, no space) and PHP's (default_mimetype and default_charset). */
const SINATRA_HTML = { 'content-type': 'text/html;charset=utf-8' }
const PHP_HTML = { 'content-type': 'text/html; charset=UTF-8' }

describe('empty bodies', () => {
  test("a 201 declared JSON but empty: PHP's json_encode() returned false, and echo false wrote nothing", () => {
    const failure = failureOf(() => expectSchema(makeResponse({ status: 201, method: 'POST', body: '' }), 'Category'))
    expect(failure.code).toBe('NOT_JSON')
    expect(failure.message).toMatch(/^the 201 body is not valid JSON; PHP's json_encode\(\) returns false for a string that is not UTF-8 .*JSON_THROW_ON_ERROR.*Express's res\.json\(undefined\)/)
    // the list too, which one such record empties for every later request
    expect(failureOf(() => jsonBodyOf(makeResponse({ status: 200, body: '' }))).message).toMatch(/^the 200 body is not valid JSON; PHP's json_encode\(\)/)
    // an empty 201 with no Content-Type stays Spring's ResponseEntity.created(location).build()
    expect(failureOf(() => expectSchema(makeResponse({ status: 201, method: 'POST', headers: {}, body: '' }), 'Category')).message).toMatch(/ResponseEntity\.created/)
  })

  test.each([
    ["Sinatra's bare halt 401", SINATRA_HTML, /Sinatra's bare halt 401 .*halt 401, \{ 'Content-Type' => 'application\/json' \}/],
    ["PHP's http_response_code(401); exit;", PHP_HTML, /http_response_code\(401\); exit; .*header\('Content-Type: application\/json'\)/],
  ])('an empty text/html 401: %s', (_label, headers, words) => {
    const failure = failureOf(() => expectErrorRecord(makeResponse({ status: 401, headers, body: '' })))
    expect(failure.code).toBe('NOT_JSON')
    expect(failure.message).toMatch(words)
    expect(failure.message).not.toMatch(/Spring/)
  })
})

describe('text/html where §4 asks application/json', () => {
  test.each([
    ['Sinatra', SINATRA_HTML, /text\/html;charset=utf-8 is Sinatra's default.*content_type :json/],
    ['PHP', PHP_HTML, /text\/html; charset=UTF-8 is PHP's default \(default_mimetype\)/],
  ])("%s's default media type", (_label, headers, words) => {
    const failure = failureOf(() => expectJsonContentType(makeResponse({ status: 401, headers, body: '' })))
    expect(failure.code).toBe('WRONG_CONTENT_TYPE')
    expect(failure.message).toMatch(words)
  })

  test('text/html of another spelling gets no origin', () => {
    expect(failureOf(() => expectJsonContentType(makeResponse({ status: 400, headers: { 'content-type': 'text/html' }, body: '' }))).message).toBe('the 400 response is not declared as application/json')
  })
})

describe('error bodies of other shapes', () => {
  test("{error} alone: a hand-written handler's (Sinatra, Rails)", () => {
    const failure = failureOf(() => expectErrorRecord(makeResponse({ status: 400, body: { error: 'invalid json' } })))
    expect(failure.code).toBe('SCHEMA_MISMATCH')
    expect(failure.message).toMatch(/; a body of error alone is what a hand-written handler often answers \(Sinatra: halt 400/)
    // measured: Grape 1.6.2's validation error
    expect(failureOf(() => expectErrorRecord(makeResponse({ status: 400, body: { error: 'name is missing' } }))).message).toMatch(/what Grape answers for its validation errors .*rescue_from :all/)
  })

  test("{message, errors}: Laravel's validation error", () => {
    const failure = failureOf(() => expectErrorRecord(makeResponse({ status: 400, body: { message: 'The name field is required.', errors: { name: ['The name field is required.'] } } })))
    expect(failure.message).toMatch(/; it is Laravel's validation error/)
    // the same shape from express-openapi-validator's README handler, for a 401 too (measured, 5.6)
    const eov = failureOf(() => expectErrorRecord(makeResponse({ status: 401, body: { message: 'unauthorized', errors: [{ path: '/v1/categories', message: 'unauthorized' }] } })))
    expect(eov.message).toMatch(/what the error handler of express-openapi-validator's README answers for its 400, 401, 404 and 415 alike/)
  })

  test("{message} alone names Laravel's AuthenticationException beside the gateways", () => {
    expect(failureOf(() => expectErrorRecord(makeResponse({ status: 401, body: { message: 'Unauthenticated.' } }))).message).toMatch(/API gateway answers on its own.*Laravel answers \{"message": "Unauthenticated\."\}/)
  })

  test('422 where 400 is expected: the validation status of Laravel, FastAPI and Rails', () => {
    const failure = failureOf(() => expectStatus(makeResponse({ status: 422, method: 'POST', body: { message: 'x', errors: {} } }), 400))
    expect(failure.code).toBe('UNEXPECTED_STATUS')
    expect(failure.message).toMatch(/^POST answered 422, expected 400: 422 is the validation status of Laravel .*FastAPI/)
    expect(failure.message).toMatch(/of LoopBack 4 \(VALIDATION_FAILED.*err\.code === 'VALIDATION_FAILED'/)
    expect(failureOf(() => expectStatus(makeResponse({ status: 422, method: 'POST' }), 201)).message).toBe('POST answered 422, expected 201')
  })

  // measured by stackhunt10: FastAPI 0.92 answers truncated JSON 422 (json_invalid), which was said to be refused under §4.2 rule 1
  test.each([
    ['JSON without name', '{"description":"x"}', /; §4\.2 rule 1 and §7 ask 400 for a body that lacks name or holds an invalid value \(/],
    ['truncated JSON', '{"name": "cf-x', /; §5\.4 asks 400 for a body that is not valid JSON \(/],
    ['an empty body', '', /; §4\.2 requires a body, and §5\.4 asks 400 for one that is not valid JSON, as an empty one is not \(/],
  ])('a 422 to %s names the sentence that asks 400 of that body', (_, body, sentence) => {
    const answered = makeResponse({ status: 422, method: 'POST', body: { detail: [{ loc: ['body', 0], msg: 'Expecting value', type: 'value_error.jsondecode' }] } })
    answered.exchange.request.body = body
    expect(failureOf(() => expectStatus(answered, 400)).message).toMatch(sentence)
  })
})

describe('values of the wrong type in a record', () => {
  test("an id as text names PDO's lastInsertId() beside Jackson", () => {
    const failure = failureOf(() => expectSchema(makeResponse({ status: 201, method: 'POST', body: { id: '2', name: 'dog' } }), 'Category'))
    expect(failure.message).toMatch(/body\.id is "2": an integer written as text, as Jackson's .*; PHP's PDO::lastInsertId\(\) returns a string.*\(int\) \$pdo->lastInsertId\(\)/)
  })

  test("a description written as null names PHP's json_encode() and Ruby's to_json of a row", () => {
    const failure = failureOf(() => expectSchema(makeResponse({ body: [{ id: 1, name: 'dog', description: null }] }), 'CategoryList'))
    expect(failure.message).toMatch(/body\[0\]\.description is null: a serialiser writes .*; PHP's json_encode\(\) of a PDO row and Ruby's to_json .*row\.compact/)
  })

  test("numeric text written as a number: PHP's JSON_NUMERIC_CHECK", () => {
    const failure = failureOf(() => expectSchema(makeResponse({ status: 201, method: 'POST', body: { id: 3, name: 'dog', description: -42 } }), 'Category'))
    expect(failure.message).toMatch(/body\.description is -42: numeric text written as a number: PHP's json_encode\(\) does so with JSON_NUMERIC_CHECK.*NUMERIC affinity/)
    expect(firstDifference('-0042', -42)).toMatch(/^; numeric text written as a number: .*JSON_NUMERIC_CHECK/)
    // a number in an Error record's code is the service's own choice, not a text field's
    expect(failureOf(() => expectErrorRecord(makeResponse({ status: 400, body: { code: 40001, message: 'bad', status: 400 } }))).message).toBe('the body is not an Error record (code, message, status): body.code must be string')
    // a number sent back for text that was no number is not this
    expect(firstDifference('dog', 7)).toBe('')
  })
})

describe('texts that came back changed', () => {
  test('"0" back as no value: PHP\'s empty() and ?:', () => {
    expect(firstDifference('0', undefined)).toMatch(/^; the text "0" came back as no value: PHP's empty\(\) and \?: take "0" for no value/)
    expect(firstDifference('0', null)).toMatch(/PHP's empty\(\)/)
  })

  test("'' back as no value names Laravel's ConvertEmptyStringsToNull beside Oracle", () => {
    expect(firstDifference('', undefined)).toMatch(/Oracle stores '' as NULL.*; Laravel's ConvertEmptyStringsToNull middleware/)
  })

  test("leading and trailing spaces taken: PHP's trim(), Laravel's TrimStrings, Ruby's strip", () => {
    expect(firstDifference('  cf-x-padded  ', 'cf-x-padded')).toMatch(/got U\+0063 .*; the leading and trailing whitespace was taken away, as PHP's trim\(\), Laravel's TrimStrings middleware \(on by default\) and Ruby's strip/)
    expect(firstDifference('  cf-x-padded  ', 'cf-x-padded')).not.toMatch(/VARCHAR/)
    // trailing spaces only: a column that cuts them is named too; a line break is no column's doing
    expect(firstDifference('cf-x-pad  ', 'cf-x-pad')).toMatch(/the trailing whitespace was taken away, .*chomp, for a line break\) do, and a CHAR\(n\) column, which MySQL and MariaDB give back without its trailing spaces.*or that cuts spaces past its length/)
    expect(firstDifference('line\n', 'line')).toMatch(/the trailing whitespace was taken away, .*chomp/)
    expect(firstDifference('line\n', 'line')).not.toMatch(/VARCHAR/)
    // text cut short otherwise is not this
    expect(firstDifference('cf-x-long-name', 'cf-x-long')).toBe('; first difference at character 9: sent U+002D, got its end (lengths 14 and 9)')
  })

  // create-whitespace's description starts with a vertical tab and ends with U+001F (misshunt16), which
  // JavaScript's trim() and Go's TrimSpace keep at the end, PHP's trim() and Ruby's strip keep U+00A0 and
  // U+001F, and Java's trim() U+00A0: each took what the words name, though none is JavaScript's trim()
  test("create-whitespace's description trimmed as Java, Python, PHP and Go trim it: each named a trim", () => {
    const sent = VALID_CREATES.find((c) => c.key === 'create-whitespace')!.body('cf-abcde').description!
    const javaTrim = sent.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '')
    const pythonStrip = sent.replace(/^[\s\u001c-\u001f\u0085]+|[\s\u001c-\u001f\u0085]+$/g, '')
    const phpTrim = sent.replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, '')
    const goTrimSpace = sent.replace(/^[\t\n\v\f\r \u0085\u00a0]+/, '')
    for (const got of [javaTrim, pythonStrip, phpTrim, goTrimSpace]) {
      expect(got).not.toBe(sent)
      expect(firstDifference(sent, got)).toMatch(/; the (leading and trailing|leading|trailing) whitespace was taken away, as PHP's trim\(\).*Java's String\.trim\(\) and strip\(\), Python's str\.strip\(\) and Go's strings\.TrimSpace take it too.*; Django REST framework's CharField/)
    }
    expect(firstDifference(sent, phpTrim)).toMatch(/the leading whitespace was taken away/)
    expect(firstDifference(sent, javaTrim)).toMatch(/the leading and trailing whitespace was taken away/)
    // text cut inside is no trim's
    expect(firstDifference(sent, sent.replace('runs', 'run'))).not.toMatch(/whitespace was taken away/)
  })

  test("a lone high surrogate joined with the escape after it: Ruby's json gem 2.6", () => {
    expect(firstDifference('high \ud800A', 'high \u{10041}')).toMatch(/^; first difference at character 5: sent U\+D800, got U\+10041 \(lengths 7 and 7\); a lone high surrogate was joined .*Ruby's json gem/)
    // a lone surrogate replaced is not this, but Go's encoding/json (django-rails-answers.ts)
    expect(firstDifference('high \ud800A', 'high \ufffdA')).toMatch(/^; first difference at character 5: sent U\+D800, got U\+FFFD \(lengths 7 and 7\); a lone surrogate became U\+FFFD: Go's encoding\/json/)
    expect(firstDifference('high \ud800A', 'high \ufffdA')).not.toMatch(/Ruby/)
  })
})
