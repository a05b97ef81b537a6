/**
 * §5.4, §7: bodies that are not valid JSON (RFC 8259), each the kind a lenient parser accepts
 * (JSON5, Python's json, a streaming parser that stops after the first value, a decoder that
 * replaces bytes that are not UTF-8). Each carries a name with the run's prefix, so a server that
 * wrongly stores one shows it in the list that follows. Numbers that JSON forbids sit in a field
 * NewCategory does not name: a server may refuse unknown fields, which is a 400 as well.
 */
import { caseMarker } from './case-markers.ts'
import type { WritePriority } from './write-priority.ts'

/** The rule every malformed body is judged by. */
export const INVALID_JSON_RULE = 'create-rejects-invalid-json'

export interface MalformedBody extends WritePriority {
  key: string
  label: string
  /** The raw request body: text, or bytes when it is not UTF-8. */
  body: (prefix: string) => string | Uint8Array
  /**
   * RFC 8259 §8.1: a parser MAY ignore a byte order mark, so a server that does answers 201 and
   * conforms; then the record must carry the name sent.
   */
  mayAcceptAs?: { name: (prefix: string) => string; why: string }
  /** What a 201 to it says of the service, and how such a service is usually fixed: failures of nearly every framework's defaults, explained. */
  acceptedMeans?: string
  /**
   * What it holds that a store may take and its writer then cannot give back, for a list broken
   * after it (suites/categories/poisoned-list.ts): a parser that does not check UTF-8 (Ruby's
   * json 2.6) stores the bytes, and the service's JSON writer fails on them, on this create's
   * answer (a 500 after the write) and on every later list.
   */
  holds?: string
  /** Headers as other clients send them ('' leaves one out), over the suite's own: valid-create.ts `sentAs`. */
  sentAs?: Record<string, string>
  /**
   * Sent with another Content-Type than application/json, which the document asks of clients (§4.2,
   * §5.4): a 415 Unsupported Media Type refuses it for that (RFC 9110 §15.5.16), as a service may
   * (variant strict-about-undocumented), and creates nothing, so it is not judged as a 400.
   */
  mayRefuseMediaType?: true
}

/** Python's json module (Flask, FastAPI, Django) and pydantic 2's JSON parser read NaN and Infinity by default. */
const NON_JSON_NUMBER =
  'the service took a number JSON does not have (RFC 8259 §6), as Python\'s json module does by default (Flask, FastAPI, Django); ' +
  "it is usually fixed by parsing with json.loads(body, parse_constant=...) set to a function that raises, and answering 400; org.json's new JSONObject(text) takes them too (its strict mode refuses them), " +
  "and so does lua-cjson's cjson.decode (OpenResty, nginx's lua module), hexadecimal numbers too, until cjson.decode_invalid_numbers(false), " +
  "and Ruby's JSON.load (allow_nan by default: Grape 1.6 parses bodies with it where MultiJson is not installed; parser :json with JSON.parse refuses them), " +
  // measured: Flask 3.1 with pydantic 2.13, NaN in a field the model does not declare
  "and pydantic 2's model_validate_json, whose parser (jiter) reads NaN and Infinity anywhere in the body, in a field the model ignores too, whatever allow_inf_nan says of its float fields: parse with orjson.loads (or json.loads with that parse_constant) first, then model_validate()"

/** A form body read by a parser mounted beside the JSON one (measured: Express 5, koa-bodyparser 4.4 and @koa/bodyparser 6.1 under Koa 3, webargs 8 under Flask 2.2). */
const FORM_READ =
  "the service read a body sent as application/x-www-form-urlencoded (name=…) as the create's fields, as a form parser mounted beside the JSON one does: Express's express.urlencoded() (express-generator's app.js mounts it), " +
  "koa-bodyparser and @koa/bodyparser (form is among their enableTypes by default), webargs' json_or_form location (Flask), Django REST framework's default parsers (FormParser), Flask's request.form or request.values, Rails' params and PHP's $_POST; " +
  "§4.2 takes an application/json body and §5.4 answers a body that is not valid JSON with 400: parse JSON alone on the API's routes (Express: express.json() without express.urlencoded(); koa-bodyparser: enableTypes: ['json']; " +
  "webargs: location='json'; DRF: DEFAULT_PARSER_CLASSES of JSONParser alone), and refuse anything else with 400 (or 415 for its media type)"

/** org.json's JSONObject(String), JSON-java's default and Android's, reads JSON5-like text (measured: 20260719). */
const ORG_JSON_LENIENT =
  "the service's parser took it, as org.json does by default (new JSONObject(text): JSON-java and Android's org.json take single quotes, unquoted keys, a trailing comma, 007 and +1) and JSON5 parsers do; " +
  'org.json refuses them with new JSONParserConfiguration().withStrictMode(true) (JSON-java 20240303 and later), and Jackson\'s defaults refuse them'

/** 007 and +1: org.json's, and lua-cjson's, whose number reader is strtod until decode_invalid_numbers(false) (measured: 2.1.0). */
const STRTOD_NUMBER =
  `${ORG_JSON_LENIENT}; lua-cjson's cjson.decode (OpenResty, nginx's lua module) takes 007 and +1 too, as it takes NaN and hexadecimal numbers, until cjson.decode_invalid_numbers(false)`

/** Jackson's default (Spring Boot's) and Go's json.Decoder read the first JSON value and leave the rest unread. */
const FIRST_VALUE_ONLY =
  'the service read the first JSON value and ignored what follows, as Jackson does by default (Spring Boot: spring.jackson.deserialization.fail-on-trailing-tokens=true refuses it) ' +
  "and Go's json.Decoder.Decode (fixed by checking that a second Decode returns io.EOF; gin's ShouldBindJSON and BindJSON decode with it: read the body and json.Unmarshal it, which refuses what follows the value)"

/** Ruby's JSON.parse as Ruby 3.1 ships it (json 2.6.3, measured) reads comments and escapes JSON does not have. */
const RUBY_JSON_LENIENT =
  "the service's parser took it, as Ruby's JSON.parse does (json 2.6.3, the gem Ruby 3.1 ships: /* */ and // comments are skipped, an unknown escape such as \\q reads as q), " +
  'and JSON5 and lenient modes elsewhere (Jackson with ALLOW_COMMENTS or ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER, Gson setLenient); a body that is not JSON (RFC 8259) is answered 400'

/** Java's servlet idiom for a body: its lines, joined without their breaks. */
const LINES_JOINED =
  'the service read the body line by line and joined the lines without their breaks, so a raw line break inside a string, which JSON does not allow (RFC 8259 §7), was dropped before its parser saw it: ' +
  "Java's request.getReader().lines().collect(Collectors.joining()) (or a BufferedReader.readLine() loop; the same on com.sun.net.httpserver's getRequestBody()), which a parser that refuses raw control characters (Jackson's) then takes; " +
  'read the body whole (InputStream.readAllBytes(), or Collectors.joining("\\n")), and answer 400; ' +
  "or the parser takes raw control characters inside a string, as lua-cjson 2.1's cjson.decode (OpenResty, nginx's lua module) takes every one, tab and line break included: " +
  'refuse a body with a byte below 0x20 inside a string (or parse with a strict parser), and answer 400'

/** Every language's trim takes U+000B for whitespace, which JSON does not (RFC 8259 §2: space, tab, line feed, carriage return). */
const BODY_TRIMMED =
  "the service trimmed the body before parsing it, and a trim takes a vertical tab (U+000B) for whitespace, which JSON's whitespace is not (RFC 8259 §2: space, tab, line feed and carriage return only): " +
  "Java's String.trim() and strip() (and Character.isWhitespace in a parser written by hand; org.json's JSONTokener skips every character up to U+0020, in strict mode too), JavaScript's trim(), Python's str.strip(), Ruby's strip, PHP's trim() and Go's strings.TrimSpace all drop it; " +
  "or its parser skipped it as whitespace: Servant's JSON content type reads a request body with eitherDecodeLenient, which skips attoparsec's isSpace around the value, a vertical tab and a form feed among them (measured: servant-server 0.19; aeson's own eitherDecode refuses them); " +
  'parse the body as it came (Servant: a content type of the service\'s own whose mimeUnrender is aeson\'s eitherDecode), and answer 400'

/**
 * org.json (JSON-java, 20260719, measured on the JDK's HttpServer), in its strict mode too: its
 * JSONTokener refuses only a line feed, a carriage return and NUL inside a string, and reads \\'.
 */
const ORG_JSON_STRING =
  "the service's parser took it, as org.json does (JSON-java's JSONTokener, with JSONParserConfiguration().withStrictMode(true) too: it refuses only a raw line feed, carriage return and NUL inside a string, and reads \\' as an apostrophe), " +
  "and JSON5 parsers, and lua-cjson 2.1's cjson.decode (OpenResty) takes every raw control character in a string, tab and line break included; " +
  "a body that is not JSON (RFC 8259 §7: every control character is escaped in a string, and \\' is no escape) is answered 400: Jackson's defaults refuse both"

/**
 * A JSON parser written by hand (the JDK has none: a team on its own HttpServer writes one) reads
 * the four characters of a \\u escape with the language's number parser, which takes a sign.
 */
const SIGNED_HEX_ESCAPE =
  "the service's parser read the four characters after \\u with a number parser that takes a sign before the digits: Java's Integer.parseInt(hex, 16), as org.json's JSONTokener does (strict mode too) and JSON parsers written by hand on the JDK, " +
  "Python's int(hex, 16) (the pure-Python json decoder, json.decoder.py_scanstring), Go's strconv.ParseInt and JavaScript's parseInt; " +
  'a \\u escape is exactly four hexadecimal digits (RFC 8259 §7): test each one (0-9, a-f, A-F) before converting, and answer 400'

/** Java's Character.isDigit and Python's str.isdigit are true of every script's decimal digits, which Long.parseLong, BigDecimal, int() and float() then read. */
const UNICODE_DIGITS =
  "the service's parser took a decimal digit of another script for a digit of a number, as a parser written by hand does with Java's Character.isDigit or Python's str.isdigit (org.json's strict mode tells an unquoted value a number so too), " +
  "and the language's number reader then read it (Java's Long.parseLong and new BigDecimal, Python's int() and float() take every script's digits: 1 and U+0663 read as 13); " +
  "JSON's digits are 0 to 9 (RFC 8259 §6): test c >= '0' && c <= '9', and answer 400"

/**
 * Jackson's JsonParser.Feature settings that read more than JSON, each of which Spring Boot turns
 * on from its properties (spring.jackson.parser.<feature>=true takes every one of them): measured
 * on Jackson 2.14 under a Spring-style service on Jetty, whose every run passed before these bodies.
 */
const jacksonParserFeature = (feature: string, property: string, reads: string, alsoWho: string) =>
  `the service's parser took ${reads}, which JSON does not have (RFC 8259), as Jackson does with ${feature} (Spring Boot: spring.jackson.parser.${property}=true; ` +
  `spring.jackson.parser.* turns on any JsonParser.Feature)${alsoWho}; leave it off, and answer 400`

/**
 * The name a malformed body carries, which the list would show if it were stored: short
 * (case-markers.ts), and alone in the name, so that what a lenient parser makes of the rest (bytes,
 * escapes, control characters, which go in the description) cannot make it longer.
 */
export const malformedMarker = (p: string, key: string) => caseMarker(p, 'j', MALFORMED_BODIES.findIndex((c) => c.key === key))
const named = (p: string, key: string) => JSON.stringify(malformedMarker(p, key))

export const MALFORMED_BODIES: readonly MalformedBody[] = [
  // with no Accept header, which the document does not ask of a client: the 400 is an Error record in JSON all the same (§4, §7)
  { key: 'malformed-truncated', label: 'truncated JSON', body: (p) => `{"name": ${named(p, 'malformed-truncated')},`, sentAs: { accept: '' } },
  // leads the malformed bodies in the write order: JSON5 and other lenient parsers accept a trailing comma
  { key: 'malformed-trailing-comma', label: 'a trailing comma', priority: 5, body: (p) => `{"name": ${named(p, 'malformed-trailing-comma')},}`, acceptedMeans: ORG_JSON_LENIENT },
  { key: 'malformed-single-quotes', label: 'single-quoted strings', body: (p) => `{'name': '${malformedMarker(p, 'malformed-single-quotes')}'}`, acceptedMeans: ORG_JSON_LENIENT },
  { key: 'malformed-unquoted-key', label: 'an unquoted key', body: (p) => `{name: ${named(p, 'malformed-unquoted-key')}}`, acceptedMeans: ORG_JSON_LENIENT },
  { key: 'malformed-comment', label: 'a comment', body: (p) => `{"name": ${named(p, 'malformed-comment')} /* a comment */}`, acceptedMeans: RUBY_JSON_LENIENT },
  { key: 'malformed-nan', label: 'NaN as a number', body: (p) => `{"name": ${named(p, 'malformed-nan')}, "rank": NaN}`, acceptedMeans: NON_JSON_NUMBER },
  { key: 'malformed-infinity', label: 'Infinity as a number', body: (p) => `{"name": ${named(p, 'malformed-infinity')}, "rank": -Infinity}`, acceptedMeans: NON_JSON_NUMBER },
  { key: 'malformed-leading-zero', label: 'a number with a leading zero', body: (p) => `{"name": ${named(p, 'malformed-leading-zero')}, "rank": 007}`, acceptedMeans: STRTOD_NUMBER },
  { key: 'malformed-plus-sign', label: 'a number with a plus sign', body: (p) => `{"name": ${named(p, 'malformed-plus-sign')}, "rank": +1}`, acceptedMeans: STRTOD_NUMBER },
  // escapes JSON does not have: "\q" and "\x41" (a hand-written or regex-based unescaper passes them through)
  { key: 'malformed-invalid-escape', label: 'escapes JSON does not have (\\q, \\x41)', body: (p) => `{"name": ${named(p, 'malformed-invalid-escape')}, "description": "\\q\\x41"}`, acceptedMeans: RUBY_JSON_LENIENT },
  // the tab and the line break each in a body of its own: a JSON5 parser takes a raw tab and refuses a raw line break, and a
  // service that reads its body line by line drops the line break and refuses the tab, so one body holding both caught neither
  { key: 'malformed-raw-control', label: 'an unescaped tab inside a string', body: (p) => `{"name": ${named(p, 'malformed-raw-control')}, "description": "a\ttab"}`, acceptedMeans: ORG_JSON_STRING },
  { key: 'malformed-raw-line-break', label: 'an unescaped line break inside a string', body: (p) => `{"name": ${named(p, 'malformed-raw-line-break')}, "description": "a\nline break"}`, acceptedMeans: LINES_JOINED },
  { key: 'malformed-trailing-text', label: 'text after the JSON value', body: (p) => `{"name": ${named(p, 'malformed-trailing-text')}} and more`, acceptedMeans: FIRST_VALUE_ONLY },
  { key: 'malformed-two-values', label: 'two top-level values', body: (p) => `{"name": ${named(p, 'malformed-two-values')}}\n{"name": ${named(p, 'malformed-two-values')}}`, acceptedMeans: FIRST_VALUE_ONLY },
  {
    key: 'malformed-not-utf8',
    label: 'bytes that are not UTF-8',
    // C0 AF: "/" in an overlong two-byte form, which no UTF-8 holds (RFC 3629 §3: C0 and C1 never
    // occur): a decoder that does not check UTF-8, or replaces what is not, takes it as any byte
    // that is not UTF-8 (FF, a lead without its continuation), and Jackson's UTF-8 parser, which
    // refuses those, reads it as "/" (mutation overlong-utf8-read)
    body: (p) => Buffer.concat([Buffer.from(`{"name": ${named(p, 'malformed-not-utf8')}, "description": "`), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]),
    holds: "bytes that are not UTF-8 (C0 AF, an overlong form of /), which a parser that does not check UTF-8 stores and a JSON writer then cannot write (Ruby's to_json raises JSON::GeneratorError, PHP's json_encode() returns false)",
    acceptedMeans:
      'the service decoded bytes that are not UTF-8 leniently (most often into U+FFFD, which it then stores as the name sent) instead of refusing them (RFC 8259 §8.1: JSON text is UTF-8), ' +
      "as Express 5, Fastify 5, hapi 21, restify 11's bodyParser, polka's body-parser, json-server (0.17 and 1.0), Go's encoding/json and the Fetch standard's Request.json() " +
      "(Bun's and Deno's, under Bun.serve, Deno.serve, Elysia, Hono and Oak) do by default, as do Quart's request.get_json() (get_data(as_text=True) decodes with errors=\"replace\") and lua-cjson (OpenResty), which checks no UTF-8; or it read the overlong form as the \"/\" it spells, as Jackson's UTF-8 parser does (Spring MVC's @RequestBody: jackson-core checks no shortest form); it is usually fixed by a strict UTF-8 decoder before the parser " +
      "(Node: new TextDecoder('utf-8', { fatal: true }), in body-parser's verify option (throwing an error whose status is 400: one without a status is answered 403) or on the raw body, hapi's payload: { parse: false }; Bun and Deno: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(await req.arrayBuffer())); " +
      "Go: utf8.Valid; Java: StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(body)), which reports malformed input, before Jackson reads it; Python: bytes.decode('utf-8'), Quart: (await request.get_data()).decode('utf-8'); OpenResty: ngx.re.find(body, '^', 'u') reports it), answering 400 when it throws"
  },
  {
    key: 'malformed-surrogate-bytes',
    label: 'a surrogate written as UTF-8 bytes (ED A0 80)',
    // the UTF-8 form of U+D800, which UTF-8 excludes (RFC 3629 §3): CESU-8 and WTF-8 write it, Java's
    // modified UTF-8 reads it; a decoder that takes it stores a lone surrogate (suites/cases/poison-values.ts)
    body: (p) => Buffer.concat([Buffer.from(`{"name": ${named(p, 'malformed-surrogate-bytes')}, "description": "`), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]),
    holds: 'a surrogate written as UTF-8 bytes (ED A0 80), which UTF-8 has not',
    acceptedMeans:
      'the service decoded a surrogate written as UTF-8 bytes instead of refusing it (UTF-8 has no surrogates, RFC 3629 §3; JSON text is UTF-8, RFC 8259 §8.1), ' +
      "as Python's json.loads does with bytes (it decodes them with 'surrogatepass': Flask's request.get_json()), Jackson's UTF-8 parser (Spring Boot) and Perl's Cpanel::JSON::XS with utf8 (Dancer2's JSON serializer, which writes them back as the same bytes), or into U+FFFD, one for each of its three bytes, as Node's body parsers (Express 5's express.json(), Fastify 5's), Go's encoding/json and Bun's and Deno's Request.json() do; it is usually fixed by a strict UTF-8 decoder before the parser (Node: new TextDecoder('utf-8', { fatal: true }); Go: utf8.Valid; Python: bytes.decode('utf-8'); Java: StandardCharsets.UTF_8.newDecoder(), which reports malformed input; Perl: Encode::decode('UTF-8', $body, Encode::FB_CROAK)), answering 400 when it throws",
  },
  {
    key: 'malformed-bom',
    label: 'a UTF-8 byte order mark before the JSON',
    body: (p) => `\ufeff{"name": ${named(p, 'malformed-bom')}}`,
    mayAcceptAs: { name: (p) => malformedMarker(p, 'malformed-bom'), why: 'RFC 8259 §8.1 lets a parser ignore a byte order mark' },
  },
  // the escape alone in the description, so a parser that takes it stores "A" there
  { key: 'malformed-signed-escape', label: 'a \\u escape with a sign (\\u+041)', body: (p) => `{"name": ${named(p, 'malformed-signed-escape')}, "description": "\\u+041"}`, acceptedMeans: SIGNED_HEX_ESCAPE },
  // alone, since the body with \\q and \\x41 is refused for those by a parser that reads the escapes of Java's and C's string literals
  { key: 'malformed-escaped-apostrophe', label: "an escaped apostrophe (\\')", body: (p) => `{"name": ${named(p, 'malformed-escaped-apostrophe')}, "description": "it\\'s"}`, acceptedMeans: ORG_JSON_STRING },
  // before the value only: a trim drops it at either end, and a parser that skips Character.isWhitespace skips it at the start too
  { key: 'malformed-vertical-tab', label: 'a vertical tab (U+000B) before the JSON value', body: (p) => `\u000b{"name": ${named(p, 'malformed-vertical-tab')}}`, acceptedMeans: BODY_TRIMMED },
  // U+0663 ARABIC-INDIC DIGIT THREE after an ASCII digit, so a parser that tests only a number's first character takes it too
  { key: 'malformed-unicode-digit', label: 'a number with a digit that is not ASCII (1 and U+0663)', body: (p) => `{"name": ${named(p, 'malformed-unicode-digit')}, "rank": 1\u0663}`, acceptedMeans: UNICODE_DIGITS },
  // each of these alone, as Jackson has a setting for each: a body holding two is refused by a parser that takes one
  { key: 'malformed-hash-comment', label: 'a # comment to the end of the line', body: (p) => `{"name": ${named(p, 'malformed-hash-comment')} # a comment\n}`,
    acceptedMeans: jacksonParserFeature('ALLOW_YAML_COMMENTS', 'allow-yaml-comments', 'a # comment', ', and a YAML parser reading the body (YAML has # comments)') },
  { key: 'malformed-leading-decimal-point', label: 'a number with a leading decimal point (.5)', body: (p) => `{"name": ${named(p, 'malformed-leading-decimal-point')}, "rank": .5}`,
    acceptedMeans: jacksonParserFeature('ALLOW_LEADING_DECIMAL_POINT_FOR_NUMBERS', 'allow-leading-decimal-point-for-numbers', 'a number with no digit before its decimal point', ', and JSON5 parsers') },
  { key: 'malformed-trailing-decimal-point', label: 'a number with a trailing decimal point (5.)', body: (p) => `{"name": ${named(p, 'malformed-trailing-decimal-point')}, "rank": 5.}`,
    acceptedMeans: jacksonParserFeature('ALLOW_TRAILING_DECIMAL_POINT_FOR_NUMBERS', 'allow-trailing-decimal-point-for-numbers', 'a number with no digit after its decimal point',
      ", JSON5 parsers, and lua-cjson 2.1's cjson.decode (OpenResty), which reads a number with strtod (5. and 1.e5, whatever decode_invalid_numbers says; check the number against JSON's grammar first)") },
  { key: 'malformed-missing-value', label: 'an array with a missing value ([1,,2])', body: (p) => `{"name": ${named(p, 'malformed-missing-value')}, "rank": [1,,2]}`,
    acceptedMeans: jacksonParserFeature('ALLOW_MISSING_VALUES', 'allow-missing-values', 'an array with a missing value (read as null)', '') },
  // the fields of a valid NewCategory as a form, sent as one: a service that picks its parser by Content-Type reads it
  { key: 'malformed-form-body', label: 'a form body (name=…, as application/x-www-form-urlencoded)', body: (p) => `name=${encodeURIComponent(malformedMarker(p, 'malformed-form-body'))}&description=sent+as+a+form`,
    sentAs: { 'content-type': 'application/x-www-form-urlencoded' }, mayRefuseMediaType: true, acceptedMeans: FORM_READ },
]
