/**
 * An OpenResty-style service (nginx 1.22 with Debian's lua module and lua-cjson 2.1.0, measured in
 * a /tmp folder apart from the repository): cjson.decode takes NaN, Infinity, hexadecimal numbers,
 * 007 and +1 until cjson.decode_invalid_numbers(false), and 5. and every raw control character inside
 * a string whatever it says. Each is a real violation of §5.4; each failure names lua-cjson beside
 * the stacks it named before (the acceptedMeans of suites/cases/malformed-json.ts). Its {} for an
 * empty list is named in lib/checks/known-answers.ts (test/checks/known-answers.test.ts).
 */
import { expect, test } from 'vitest'
import { MALFORMED_BODIES } from '../../suites/cases/malformed-json.ts'

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
