/**
 * Defaults of stacks measured on 2026-11-26 (docs/adoption.md, "A FastAPI, Quart, Twisted, Dancer2,
 * Grape, LoopBack, OpenResty or libmicrohttpd service"), against services written as their teams
 * write them in /tmp folders apart from the repository: each wrong answer is a real violation, and
 * each failure names the default behind it beside the stacks it named before (the acceptedMeans of
 * suites/cases/malformed-json.ts, wrong-types.ts and invalid-bodies.ts). OpenResty (nginx 1.22 with
 * Debian's lua module, lua-cjson 2.1.0): cjson.decode takes NaN, Infinity, hexadecimal numbers, 007
 * and +1 until cjson.decode_invalid_numbers(false), and 5. and every raw control character inside a
 * string whatever it says; its {} for an empty list is named in lib/checks/known-answers.ts
 * (test/checks/known-answers.test.ts). Grape 1.6.2 parses with JSON.load, coerces its params and
 * merges the query string into them.
 */
import { expect, test } from 'vitest'
import { INVALID_BODIES } from '../../suites/cases/invalid-bodies.ts'
import { MALFORMED_BODIES } from '../../suites/cases/malformed-json.ts'
import { wrongTypeCases } from '../../suites/cases/wrong-types.ts'

const meaningOf = (key: string) => MALFORMED_BODIES.find((c) => c.key === key)?.acceptedMeans ?? ''

test('each body lua-cjson takes names it, with the setting that refuses it where there is one', () => {
  for (const key of ['malformed-nan', 'malformed-infinity', 'malformed-leading-zero', 'malformed-plus-sign']) {
    expect(meaningOf(key), key).toMatch(/lua-cjson's cjson\.decode \(OpenResty, nginx's lua module\).*until cjson\.decode_invalid_numbers\(false\)/)
  }
  expect(meaningOf('malformed-trailing-decimal-point')).toMatch(/lua-cjson 2\.1's cjson\.decode \(OpenResty\), which reads a number with strtod \(5\. and 1\.e5, whatever decode_invalid_numbers says/)
  expect(meaningOf('malformed-raw-control')).toMatch(/lua-cjson 2\.1's cjson\.decode \(OpenResty\) takes every raw control character in a string/)
  expect(meaningOf('malformed-raw-line-break')).toMatch(/or the parser takes raw control characters inside a string, as lua-cjson 2\.1's cjson\.decode/)
  // what lua-cjson refuses is not laid at its door
  for (const key of ['malformed-single-quotes', 'malformed-trailing-comma', 'malformed-escaped-apostrophe', 'malformed-leading-decimal-point']) {
    expect(meaningOf(key).replace(/lua-cjson 2\.1's cjson\.decode \(OpenResty\) takes every raw control character[^;]*;/, ''), key).not.toMatch(/lua-cjson/)
  }
})

test("a surrogate written as UTF-8 bytes names Perl's Cpanel::JSON::XS (Dancer2's serializer) and Encode's strict decoder", () => {
  expect(meaningOf('malformed-surrogate-bytes')).toMatch(/Perl's Cpanel::JSON::XS with utf8 \(Dancer2's JSON serializer, .*Perl: Encode::decode\('UTF-8', \$body, Encode::FB_CROAK\)/)
})

test("Grape's JSON.load, its coercing params and its query merged into them are named where they show", () => {
  expect(meaningOf('malformed-nan')).toMatch(/Ruby's JSON\.load \(allow_nan by default: Grape 1\.6 parses bodies with it/)
  const wrongType = (label: string) => wrongTypeCases().find((c) => c.label === label)?.acceptedMeans ?? ''
  for (const label of ['name as an integer', 'description as a boolean', 'name as null', 'description as null']) {
    expect(wrongType(label), label).toMatch(/Grape's params \(requires :name, type: String\) turns a number or a boolean into text .*allow_blank: false refuses null/)
  }
  expect(wrongType('name as an object')).toMatch(/JSON\.load's default, and so Grape 1\.6's JSON parser/)
  const query = INVALID_BODIES.find((c) => c.key === 'missing-name-named-in-query')?.acceptedMeans ?? ''
  expect(query).toMatch(/^the service took the name from the query string: .*Grape's params \(measured: 1\.6\).*Grape: env\['api\.request\.body'\]/)
})

test("bytes that are not UTF-8 name Quart's get_json() and lua-cjson, with their changes", () => {
  expect(meaningOf('malformed-not-utf8')).toMatch(/Quart's request\.get_json\(\) \(get_data\(as_text=True\) decodes with errors="replace"\) and lua-cjson \(OpenResty\).*Quart: \(await request\.get_data\(\)\)\.decode\('utf-8'\); OpenResty: ngx\.re\.find/)
})

test("a description null taken names Go's *string and System.Text.Json's string? (measured on Go 1.19; ASP.NET Core emulated), with their changes", () => {
  const nullTaken = wrongTypeCases().find((c) => c.label === 'description as null')?.acceptedMeans ?? ''
  expect(nullTaken).toMatch(/Go's encoding\/json leaves a \*string nil for null .*map\[string\]json\.RawMessage.*System\.Text\.Json gives a string\? property null \(ASP\.NET Core: .*RespectNullableAnnotations/)
})

test("NaN and Infinity taken name pydantic 2's model_validate_json (measured under Flask 3.1: in a field the model ignores)", () => {
  for (const key of ['malformed-nan', 'malformed-infinity']) {
    expect(meaningOf(key), key).toMatch(/pydantic 2's model_validate_json, whose parser \(jiter\) reads NaN and Infinity anywhere in the body.*then model_validate\(\)/)
  }
})
