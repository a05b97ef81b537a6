/**
 * RFC 8259 §8.1: JSON text exchanged between systems is UTF-8, without a byte order mark. The
 * client decodes such bodies anyway and says what it saw (lib/http/body-reader.ts); jsonBodyOf
 * refuses them as not valid JSON, and every check that reads a body inherits it.
 */
import { describe, expect, test } from 'vitest'
import type { ConformanceFailure } from '../../lib/checks/failure.ts'
import { jsonBodyOf } from '../../lib/checks/response.ts'
import { expectSchema } from '../../lib/checks/schema.ts'
import { makeResponse, outcomeOf, verdictOf } from './make-response.ts'

const flagged = (flags: { byteOrderMark?: true; invalidUtf8?: true }, body = '[]') => ({ ...makeResponse({ body }), ...flags })

describe('jsonBodyOf and the encoding of the body', () => {
  test('a body that began with a byte order mark is not valid JSON, and the failure says why', () => {
    const verdict = verdictOf(() => jsonBodyOf(flagged({ byteOrderMark: true })))
    expect(verdict).toMatchObject({ code: 'NOT_JSON', message: 'the 200 body is not valid JSON' })
    let actual = ''
    try {
      jsonBodyOf(flagged({ byteOrderMark: true }))
    } catch (error) {
      actual = (error as ConformanceFailure).actual
    }
    expect(actual).toMatch(/^the body begins with a UTF-8 byte order mark, which RFC 8259 §8.1 forbids in JSON text/)
  })

  test('a body with bytes that are not UTF-8 is not valid JSON', () => {
    expect(outcomeOf(() => jsonBodyOf(flagged({ invalidUtf8: true }, '["\ufffdand\ufffd"]')))).toBe('NOT_JSON')
  })

  test('a gzip stream without its Content-Encoding (1f 8b 08, read leniently) is named as one', () => {
    const verdict = verdictOf(() => jsonBodyOf(flagged({ invalidUtf8: true }, '\u001f\ufffd\b\u0000\u0000\u0000\u0000\u0000\u0000\u0003')))
    expect(verdict).toMatchObject({ code: 'NOT_JSON', message: expect.stringMatching(/^the 200 body is not valid JSON: it starts as a gzip stream does \(1f 8b 08\)/) })
    // Latin-1 text is no gzip stream
    expect(verdictOf(() => jsonBodyOf(flagged({ invalidUtf8: true }, '["\ufffdand\ufffd"]')))).toMatchObject({ message: 'the 200 body is not valid JSON' })
  })

  // measured (stackhunt11): a front transcoding the answers to ISO-8859-1 and to UTF-16 (with its BOM), saying so in the charset
  test('a body not UTF-8 under a Content-Type naming another charset says the JSON was written in it; charset=utf-8 or none says nothing of it', () => {
    const declared = (charset: string, flags: { byteOrderMark?: true; invalidUtf8?: true }) => ({
      ...makeResponse({ headers: { 'content-type': `application/json;charset=${charset}` }, body: '["\ufffdand\ufffd"]' }),
      ...flags,
    })
    for (const charset of ['ISO-8859-1', 'UTF-16', '"windows-1252"']) {
      expect(verdictOf(() => jsonBodyOf(declared(charset, { invalidUtf8: true })))).toMatchObject({
        code: 'NOT_JSON',
        message: `the 200 body is not valid JSON: the answer declares charset=${charset.replace(/"/g, '')}, and its JSON was written in that encoding (a gateway that transcodes, a writer or a servlet response set to it), where RFC 8259 §8.1 asks UTF-8 of JSON text exchanged between systems, and defines no charset parameter`,
      })
    }
    expect(verdictOf(() => jsonBodyOf(declared('utf-8', { invalidUtf8: true })))).toMatchObject({ message: 'the 200 body is not valid JSON' })
    expect(outcomeOf(() => jsonBodyOf({ ...makeResponse({ headers: { 'content-type': 'application/json;charset=ISO-8859-1' }, body: '["x"]' }) }))).toBe('pass')
  })

  // review52: an HTML page in the charset it declares (Jetty's error page, ISO-8859-1, echoing a name with é) holds no JSON written in it
  test('a page of another media type in the charset it declares is not said to be JSON written in it', () => {
    const page = {
      ...makeResponse({ status: 400, headers: { 'content-type': 'text/html;charset=iso-8859-1', server: 'Jetty(9.4.53.v20231009)' }, body: '<html><head><title>Error 400 Bad name caf\ufffd</title></head><body></body></html>' }),
      invalidUtf8: true as const,
    }
    const verdict = verdictOf(() => jsonBodyOf(page))
    expect(verdict).toMatchObject({ code: 'NOT_JSON' })
    expect('message' in verdict && verdict.message).not.toContain('its JSON was written in that encoding')
  })

  test('so a list in Latin-1 fails its schema check as NOT_JSON, not as a shape', () => {
    expect(outcomeOf(() => expectSchema(flagged({ invalidUtf8: true }, '[{"id":1,"name":"\ufffd"}]'), 'CategoryList'))).toBe('NOT_JSON')
  })

  test('the same text without the flags passes', () => {
    expect(outcomeOf(() => jsonBodyOf(makeResponse({ body: '["Ñandú"]' })))).toBe('pass')
  })
})
