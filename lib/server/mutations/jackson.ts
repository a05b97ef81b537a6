/**
 * Mutations written as a Spring Boot service's Jackson (the ObjectMapper Spring MVC binds request
 * bodies with) gets them wrong: a setting of spring.jackson.* that makes the binder take a value
 * of the wrong type, or its parser read more than JSON.
 */
import { isPlainObject, type Mutation } from '../server-cases.ts'
import { INVALID_JSON, lenientParser } from './inputs.ts'

/** A setting of spring.jackson.parser.*: one JsonParser.Feature that reads more than JSON, measured on Jackson 2.14. */
const parserFeature = (name: string, feature: string, reads: string, asJson: (text: string) => string): Mutation => ({
  name,
  ...INVALID_JSON,
  description: `Jackson reads ${reads} with ${feature} (spring.jackson.parser.${feature.toLowerCase().replaceAll('_', '-')}=true), and the create goes on`,
  behaviour: lenientParser((text) => JSON.parse(asJson(text))),
})

/**
 * The body's bytes as Jackson's UTF-8 parser (UTF8StreamJsonParser) reads them: a two-byte form is
 * taken whenever a continuation byte follows its lead (_decodeUtf8_2), C0 and C1 too, with no check
 * that it is the shortest, so C0 AF is "/" and C0 80 is U+0000; every other byte that is not
 * UTF-8 is refused, surrogates too (jackson-core 2.21 and 3.0.2 check them).
 */
function overlongFormsRead(bytes: Buffer): string {
  const out: number[] = []
  for (let i = 0; i < bytes.length; i++) {
    const lead = bytes[i]
    if ((lead === 0xc0 || lead === 0xc1) && (bytes[i + 1] & 0xc0) === 0x80) out.push(...Buffer.from(String.fromCharCode(((lead & 0x1f) << 6) | (bytes[++i] & 0x3f))))
    else out.push(lead)
  }
  return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(Buffer.from(out))
}

export const JACKSON_MUTATIONS: readonly Mutation[] = [
  {
    name: 'overlong-utf8-read',
    ...INVALID_JSON,
    description:
      "the body is read by Jackson's UTF-8 parser (Spring MVC's @RequestBody), which takes a two-byte form whenever a continuation byte follows its lead, " +
      'C0 and C1 too, without checking that it is the shortest: C0 AF is read as "/" and the create goes on; every other byte that is not UTF-8, surrogates too, is refused',
    behaviour: { decodeBody: (bytes) => overlongFormsRead(bytes) },
  },
  {
    name: 'empty-array-read-as-no-description',
    breaks: 'create-rejects-invalid-values',
    code: 'UNEXPECTED_STATUS',
    description:
      'a description of [] is read as none and the category created without one, as Jackson does with ACCEPT_EMPTY_ARRAY_AS_NULL_OBJECT ' +
      '(spring.jackson.deserialization.accept-empty-array-as-null-object=true), while an explicit null is refused (@JsonSetter(nulls = Nulls.FAIL))',
    behaviour: {
      parseBody(text) {
        const body = JSON.parse(text) as unknown
        if (!isPlainObject(body) || !Array.isArray(body.description) || body.description.length > 0) return body
        const { description: _none, ...rest } = body
        return rest
      },
    },
    // a seed whose drawn description array was not empty: the suite passed this server under it
    args: ['--seed', '3'],
  },
  parserFeature('yaml-comments-accepted', 'ALLOW_YAML_COMMENTS', 'a # comment to the end of its line', (text) => text.replace(/#[^\n]*/g, '')),
  parserFeature('leading-decimal-point-accepted', 'ALLOW_LEADING_DECIMAL_POINT_FOR_NUMBERS', 'a number written .5 as 0.5', (text) => text.replace(/([:[,]\s*-?)\.(?=\d)/g, (_, before: string) => `${before}0.`)),
  parserFeature('trailing-decimal-point-accepted', 'ALLOW_TRAILING_DECIMAL_POINT_FOR_NUMBERS', 'a number written 5. as 5', (text) => text.replace(/(\d)\.(?!\d)/g, '$1')),
  parserFeature('missing-values-accepted', 'ALLOW_MISSING_VALUES', 'an array with a missing value ([1,,2]) as one holding null there', (text) => text.replace(/([[,])(\s*)(?=[,\]])/g, '$1$2null')),
]
