/**
 * Mutations written as a Java service on the JDK alone gets them wrong: its own HttpServer
 * (com.sun.net.httpserver) and no libraries, so a JSON parser written by hand, strict in its
 * grammar, that lets the language's number readers read more than JSON's digits, and a body read
 * as servlet code reads it, line by line. Measured on such a service (Java 17), which passed every
 * run before the malformed bodies that catch these (suites/cases/malformed-json.ts). Beside them, a
 * parser written by hand that knows one case of hex digits, which a valid body catches.
 */
import { errorReply, type Mutation } from '../server-cases.ts'
import { INVALID_JSON, lenientParser } from './inputs.ts'
import type { StoredCategory } from '../reference-server.ts'

/** A reply no one writes: the read of the body never ended, and the connection closes without an answer. */
const NEVER_ANSWERED: Readonly<Record<string, string>> = { 'x-reference-never-answered': '1' }

/** A \u escape whose four characters are a sign and three hex digits: what Integer.parseInt(hex, 16) reads. */
const SIGNED_ESCAPE = /\\u([+-][0-9a-fA-F]{3})/g
/** A decimal digit of another script after a digit, outside strings as far as the malformed bodies go: what Character.isDigit takes. */
const OTHER_SCRIPT_DIGIT = /(?<=[0-9\p{Nd}])(?![0-9])\p{Nd}/gu

/** The value of a decimal digit of any script: the digits of a script are ten consecutive code points. */
function digitValue(digit: string): number {
  const code = digit.codePointAt(0)!
  for (let zero = code; zero > code - 10; zero--) if (!/\p{Nd}/u.test(String.fromCodePoint(zero - 1))) return code - zero
  return 0
}

/** A \u escape with an upper-case hex digit: what a parser written by hand for lower-case hex (`[0-9a-f]{4}`) does not know. */
const UPPER_CASE_ESCAPE = /\\u(?=[0-9a-fA-F]{0,3}[A-F])[0-9a-fA-F]{4}/

export const JDK_MUTATIONS: readonly Mutation[] = [
  {
    name: 'upper-case-escapes-refused',
    breaks: 'create-returns-201',
    code: 'REFUSED_FOR_CONTENT',
    description:
      "the body's \\u escapes are read by a parser written by hand for lower-case hex, as JSON.stringify and Python's json.dumps write them: " +
      'one in upper case (\\uD83D\\uDC07, as Jackson and .NET write it; RFC 8259 §7 allows either) is refused with 400',
    behaviour: {
      parseBody: (text) => {
        if (UPPER_CASE_ESCAPE.test(text)) throw new SyntaxError('bad escape')
        return JSON.parse(text) as unknown
      },
    },
  },
  {
    name: 'signed-unicode-escape-accepted',
    ...INVALID_JSON,
    description:
      "a \\u escape's four characters are read with Java's Integer.parseInt(hex, 16), as org.json's JSONTokener and parsers written by hand on the JDK do: " +
      'it takes a sign, so "\\u+041" is read as "A"',
    behaviour: lenientParser((text) =>
      JSON.parse(text.replace(SIGNED_ESCAPE, (_, hex: string) => `\\u${(Number.parseInt(hex, 16) & 0xffff).toString(16).padStart(4, '0')}`)),
    ),
  },
  {
    name: 'unicode-digits-read-in-numbers',
    ...INVALID_JSON,
    description:
      "a number's digits are told by Java's Character.isDigit and read by new BigDecimal, which take every script's decimal digits: " +
      '1 and U+0663 (ARABIC-INDIC DIGIT THREE) are read as 13',
    behaviour: lenientParser((text) => JSON.parse(text.replace(OTHER_SCRIPT_DIGIT, (d) => String(digitValue(d))))),
  },
  {
    name: 'line-breaks-dropped-from-body',
    ...INVALID_JSON,
    description:
      "the body is read line by line and the lines joined without their breaks (Java's request.getReader().lines().collect(Collectors.joining())) before a strict parser: " +
      'a raw line break inside a string is dropped and the body accepted, while a raw tab is refused',
    behaviour: lenientParser((text) => JSON.parse(text.replace(/\r\n|\r|\n/g, ''))),
  },
  {
    name: 'body-trimmed-before-parse',
    ...INVALID_JSON,
    description:
      "the body is trimmed with Java's String.trim() (every character up to U+0020 at either end) before a strict parser, as JavaScript's trim(), Python's strip() and Go's strings.TrimSpace trim it: " +
      'a vertical tab before the JSON value is dropped and the body accepted',
    // eslint-disable-next-line no-control-regex
    behaviour: lenientParser((text) => JSON.parse(text.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, ''))),
  },
  {
    name: 'org-json-raw-tab-accepted',
    ...INVALID_JSON,
    description:
      "org.json's JSONTokener (strict mode too) refuses only a raw line feed, carriage return and NUL inside a string: a raw tab is taken, while a raw line break is refused",
    // eslint-disable-next-line no-control-regex
    behaviour: lenientParser((text) => JSON.parse(text.replace(/[\u0001-\u0009\u000b\u000c\u000e-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`))),
  },
  {
    name: 'org-json-escaped-apostrophe-accepted',
    ...INVALID_JSON,
    description: "org.json's JSONTokener (strict mode too) reads \\' as an apostrophe, and refuses the escapes it does not know (\\q, \\x)",
    behaviour: lenientParser((text) => JSON.parse(text.replace(/\\'/g, "'"))),
  },
  {
    name: 'content-type-added-twice',
    breaks: 'json-content-type',
    code: 'WRONG_CONTENT_TYPE',
    description:
      "every answer carries two Content-Type field lines, application/json; charset=utf-8 and text/plain; charset=utf-8, as a JDK HttpServer service writes them with Headers.add " +
      'where a Filter had set its own (a browser reads the last)',
    behaviour: {
      finish: (reply) => ({ ...reply, headers: { ...reply.headers, 'content-type': ['application/json; charset=utf-8', 'text/plain; charset=utf-8'] } }),
    },
  },
  {
    name: 'name-in-format-string',
    breaks: 'create-returns-201',
    code: 'SERVER_ERROR',
    description:
      "the create is logged with System.out.printf(\"created category \" + id + \": \" + name + \"%n\") after the record is stored: a name holding a % not followed by % " +
      '(a format directive such as %s, with no argument for it) throws MissingFormatArgumentException, answered 500',
    behaviour: {
      finish: (reply, request, store) =>
        request.operation === 'createCategory' && reply.status === 201 && /%(?!%)/.test(store[store.length - 1]?.name ?? '')
          ? errorReply(500, 'internal', 'internal error')
          : reply,
    },
  },
  {
    name: 'wide-bodies-read-as-characters-never-answered',
    breaks: 'create-returns-201',
    code: 'NO_RESPONSE',
    description:
      'a create body is read as Content-Length characters through an InputStreamReader on a bare ServerSocket (measured, stackhunt6): a body with bytes beyond ASCII ' +
      'has fewer characters than bytes, so the read waits for characters that never come, until the socket closes; nothing is stored and no byte answered (bodies of ASCII alone are served)',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || !/[^\x00-\x7f]/.test(request.rawBody ?? '')) return reply
        if (reply.status === 201) store.splice(store.indexOf(reply.body as StoredCategory), 1)
        return { status: 500, headers: NEVER_ANSWERED, body: '' }
      },
      transport: { delayMs: 0, chunked: false, connectionClose: false, dropAnswer: (reply) => reply.headers === NEVER_ANSWERED },
    },
  },
]
