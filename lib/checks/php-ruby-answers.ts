/**
 * What an answer the document does not allow says of a PHP or Ruby service that gives it by
 * default, beside the Spring and gateway words of known-answers.ts (which calls these): PHP's
 * json_encode() failing into an empty body, its default text/html media type, PDO's string ids,
 * JSON_NUMERIC_CHECK, empty() and ?: taking "0" for no value, trim() and Laravel's TrimStrings and
 * ConvertEmptyStringsToNull middleware; Sinatra's bare `halt 401` and its text/html default, Ruby's
 * strip, and the json gem that pairs a lone \ud800 with the escape after it. Measured against
 * services written as such teams write them (PHP 8.2's built-in server with PDO SQLite; Sinatra 3
 * on Puma and WEBrick, json 2.6.3, sqlite3). The verdict and the failure code never depend on
 * these words; each returns undefined for any other answer.
 */
import type { RecordedRequest, RecordedResponse } from '../http/exchange.ts'
import { mediaType } from '../http/media-type.ts'
import { CHAR_COLUMN_TRIMS } from './sql-store-answers.ts'

/**
 * What each language's trim takes from a string's ends: JavaScript's trim() its \s (the vertical tab,
 * U+00A0, the Unicode spaces), Java's trim() every character up to U+0020, PHP's trim() and Ruby's
 * strip the vertical tab and NUL, Python's str.strip() U+001C to U+001F and U+0085 too; and Go's
 * TrimSpace. Each stops at a character of another's set that is not in its own.
 */
const TRIM_SETS = [String.raw`\s`, String.raw`\0-\x20`, String.raw` \t\n\v\f\r\0`, String.raw`\s\x1c-\x1f\x85`, String.raw`\t\n\v\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000`]

/** Which ends of `sent` one language's trim (or its trim of the end alone) took whole to leave `got`, or undefined. */
export function trimmedEnds(sent: string, got: string): 'leading and trailing' | 'leading' | 'trailing' | undefined {
  if (got.length === 0 || got.length >= sent.length) return undefined
  for (const set of TRIM_SETS) {
    const end = sent.replace(new RegExp(`[${set}]+$`), '')
    if (got === end) return 'trailing'
    if (got !== end.replace(new RegExp(`^[${set}]+`), '')) continue
    return end.length < sent.length ? 'leading and trailing' : 'leading'
  }
  return undefined
}

/** The Content-Type each stack writes when the code sets none: Sinatra (Rack) with no space, PHP (default_mimetype, default_charset) with one. */
const SINATRA_HTML = /^text\/html;charset=utf-8$/i
const PHP_HTML = /^text\/html; charset=UTF-8$/

const JSON_ENCODE_FAILED =
  "PHP's json_encode() returns false for a string that is not UTF-8 (a substr() or a latin1 column that cut a character in two), and echo false writes nothing under the JSON Content-Type already set: " +
  'mb_substr() cuts characters, not bytes, and JSON_THROW_ON_ERROR turns the failure into an error that shows; ' +
  "an empty body declared JSON is also what Express's res.json(undefined) sends, for a record the handler never had"

/** Why a body came empty, where PHP or Sinatra sends one so. */
export function phpRubyEmptyBody(response: RecordedResponse): string | undefined {
  const contentType = response.headers['content-type'] ?? ''
  // a record or a list holds stored text, which may be what json_encode() cannot write; an error body is the service's own
  if (mediaType(contentType) === 'application/json' && (response.status === 200 || response.status === 201)) return JSON_ENCODE_FAILED
  if (response.status !== 401) return undefined
  if (SINATRA_HTML.test(contentType)) {
    return (
      "an empty text/html 401 is what Sinatra's bare halt 401 answers (a before filter that checks the key); " +
      "the Error record goes with it: halt 401, { 'Content-Type' => 'application/json' }, { code: …, message: …, status: 401 }.to_json"
    )
  }
  if (PHP_HTML.test(contentType)) {
    return (
      "an empty text/html 401 is what PHP answers to http_response_code(401); exit; with no header() of its own; " +
      "the Error record goes with it: header('Content-Type: application/json') and echo json_encode(['code' => …, 'message' => …, 'status' => 401])"
    )
  }
  return undefined
}

/** Why a response is declared text/html, where it is Sinatra's or PHP's default. */
export function phpRubyContentType(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined
  if (SINATRA_HTML.test(contentType)) {
    return (
      "text/html;charset=utf-8 is Sinatra's default, for a route or halt that sets no content_type and for its own not_found and error pages; " +
      '§4 makes every payload JSON (content_type :json in a before filter, and not_found and error blocks that answer the Error record)'
    )
  }
  if (PHP_HTML.test(contentType)) {
    return (
      "text/html; charset=UTF-8 is PHP's default (default_mimetype), for a script that calls no header('Content-Type: application/json') before its output, " +
      'and for the page of an uncaught error; §4 makes every payload JSON'
    )
  }
  return undefined
}

/** Why an Error record has another shape, where a PHP or Ruby stack writes it so. */
export function phpRubyErrorBody(keys: readonly string[]): string | undefined {
  if (keys.includes('message') && keys.includes('errors')) {
    return (
      "it is Laravel's validation error ({message, errors}, answered 422 by a ValidationException), and what the error handler of express-openapi-validator's README answers for its 400, 401, 404 and 415 alike " +
      '(res.status(err.status || 500).json({ message: err.message, errors: err.errors })); ' +
      'the Error record needs code and status beside message, and §4.2 the status 400 (render ValidationException in the exception handler: withExceptions() in bootstrap/app.php; ' +
      'express-openapi-validator: res.status(status).json({ code, message: err.message, status }))'
    )
  }
  if (keys.length === 1 && keys[0] === 'error') {
    return (
      'a body of error alone is what a hand-written handler often answers (Sinatra: halt 400, { error: … }.to_json; Rails: render json: { error: … }), ' +
      'and what Grape answers for its validation errors and a body it cannot parse ({"error": "name is missing"}); ' +
      'the Error record is {code, message, status} (Grape: rescue_from :all answering error!({ code:, message:, status: }, status), 400 for Grape::Exceptions::ValidationErrors and InvalidMessageBody)'
    )
  }
  return undefined
}

/**
 * The sentence that asks 400 of the body sent: §5.4's for one that is not JSON (empty, or bytes
 * that are not UTF-8), §4.2 rule 1's for JSON that lacks name or holds an invalid value. FastAPI
 * answers both 422 (RequestValidationError, json_invalid): measured by stackhunt10 on FastAPI 0.92,
 * whose truncated JSON was said to be refused under §4.2 rule 1.
 */
function askedBy(request: Pick<RecordedRequest, 'body' | 'bodyBase64'> | undefined): string {
  const body = request?.body
  if (body === undefined) return '§4.2 rule 1 and §7 ask 400 for a body that lacks name or holds an invalid value'
  if (body.trim() === '') return '§4.2 requires a body, and §5.4 asks 400 for one that is not valid JSON, as an empty one is not'
  try {
    if (request?.bodyBase64 !== undefined) throw new Error('not UTF-8')
    JSON.parse(body)
  } catch {
    return '§5.4 asks 400 for a body that is not valid JSON'
  }
  return '§4.2 rule 1 and §7 ask 400 for a body that lacks name or holds an invalid value'
}

/** Why 422 came where 400 was expected: the validation status of several stacks. */
export function phpRubyStatus(response: Pick<RecordedResponse, 'status' | 'body'>, expected: number, request?: Pick<RecordedRequest, 'body' | 'bodyBase64'>): string | undefined {
  const { status } = response
  // a JSON::GeneratorError has words of its own (undecodable-body-answers.ts), said after these
  if (status === 500 && PUMA_FAULT.test(response.body) && !response.body.includes('JSON::GeneratorError')) return PUMA_FAULT_WORDS
  if (status !== 422 || expected !== 400) return undefined
  return (
    "422 is the validation status of Laravel (a ValidationException from validate()), of FastAPI (RequestValidationError), of Rails' scaffolds (:unprocessable_entity), " +
    "of LoopBack 4 (VALIDATION_FAILED, for a body its operation's schema refuses), of Phoenix's generated FallbackController (an Ecto changeset's errors, :unprocessable_entity), " +
    "of webargs (use_args under Flask, and flask-smorest: marshmallow's ValidationError answered with its DEFAULT_VALIDATION_STATUS, 422, as Werkzeug's HTML page unless an errorhandler(422) writes JSON), " +
    "and of tsoa's documented errorHandler (a ValidateError answered 422 { message: 'Validation Failed', details }); " +
    `${askedBy(request)} (Laravel: render ValidationException as 400 in the exception handler; FastAPI: an exception_handler for RequestValidationError; ` +
    "LoopBack 4: a middleware that catches err.code === 'VALIDATION_FAILED' and answers 400 with the Error record; webargs: a @parser.error_handler that aborts with 400 and the Error record; tsoa: 400 for a ValidateError)"
  )
}

/** Puma's own answers to an exception a Rack app let through: development's (the error and its trace), production's. */
const PUMA_FAULT = /^(Puma caught this error: |An unhandled lowlevel error occurred\. The application logs may have details\.)/
/** Measured: a Rack service under Puma 5.6 that indexed what JSON.parse gave (nil, true, a number) as a Hash. */
const PUMA_FAULT_WORDS =
  "the body is Puma's own answer to an exception the Rack app let through (its development page names the error: NoMethodError where data['name'] indexed the nil, true or number " +
  'that JSON.parse gives for a body that is JSON but no object, JSON::NestingError past max_nesting 100, JSON::GeneratorError for text that is not UTF-8; in production its words hide it): ' +
  'refuse what is not a Hash with 400 (data.is_a?(Hash)), rescue JSON::ParserError, and answer any other error with the Error record (a rescue around the app, or lowlevel_error_handler in config/puma.rb)'

/**
 * Why 422 came to a create that may be refused for its lengths (400, 413): the validation status of
 * those stacks for a length they check (measured on a Python service answering 422 past a
 * VARCHAR(32): the failure said nothing of why).
 */
export const LENGTH_REFUSED_422 =
  "422 is the validation status of FastAPI (pydantic's max_length), Rails (validates :name, length:, answered :unprocessable_entity by the scaffold), Laravel (max:), Phoenix (validate_length, its FallbackController) and webargs (marshmallow's validate.Length under use_args); " +
  'whatever the service refuses here, a length it sets (§8 leaves lengths open) or the characters, §4.2 rule 1 and §7 answer a refusal 400 with the Error record (413 for a body too large)'

/** PDO's ids as text, beside Jackson's (known-answers.ts NUMBER_AS_TEXT). */
export const PDO_ID_AS_TEXT =
  "PHP's PDO::lastInsertId() returns a string, and PDO gives every column as a string under ATTR_STRINGIFY_FETCHES (pdo_sqlite before PHP 8.1, pdo_mysql with emulated prepares): cast the id, (int) $pdo->lastInsertId()"

/** A NULL column as PHP and Ruby write a row they were handed, beside Jackson's (known-answers.ts NULL_WRITTEN). */
export const ROW_NULL_WRITTEN =
  "PHP's json_encode() of a PDO row and Ruby's to_json of a sqlite3 or ActiveRecord row write a NULL column as null too (PHP: unset() it, or array_filter($row, fn ($v) => $v !== null); Ruby: row.compact)"

const NUMERIC_CHECK =
  "numeric text written as a number: PHP's json_encode() does so with JSON_NUMERIC_CHECK (often set to turn PDO's string ids into numbers: \"0\" becomes 0, \"-0042\" -42), " +
  "as do a column of NUMERIC affinity (SQLite's, for a type named STRING or NUMERIC) and a store that parses its text on the way back; " +
  '§2 gives the field the type string (PHP: cast the id with (int) and leave JSON_NUMERIC_CHECK out)'

/** Why a number came where a Category's text field belongs (body.name, body[2].description). */
export function phpRubyValue(place: string, value: unknown): string | undefined {
  return typeof value === 'number' && /\.(name|description)$/.test(place) ? NUMERIC_CHECK : undefined
}

const high = (unit: number | undefined) => unit !== undefined && unit >= 0xd800 && unit <= 0xdbff
const low = (unit: number | undefined) => unit !== undefined && unit >= 0xdc00 && unit <= 0xdfff

/** Why a stored text came back other than sent, where PHP, Laravel or Ruby changes it so. */
export function phpRubyChangedText(sent: unknown, got: unknown, at: number): string | undefined {
  if (typeof sent === 'string' && typeof got === 'number' && /^-?\d+(\.\d+)?$/.test(sent)) return NUMERIC_CHECK
  if (sent === '0' && (got === undefined || got === null)) {
    return (
      'the text "0" came back as no value: PHP\'s empty() and ?: take "0" for no value, as they take \'\' ($d ?: null drops it); ' +
      "test for a missing field with isset() or array_key_exists() and for an empty one with === ''"
    )
  }
  if (sent === '' && (got === undefined || got === null)) {
    return "Laravel's ConvertEmptyStringsToNull middleware, on by default, and PHP's ?: and empty() also take '' for no value"
  }
  if (typeof sent !== 'string' || typeof got !== 'string') return undefined
  const ends = trimmedEnds(sent, got)
  if (ends !== undefined) {
    // only spaces cut from the end can be a column's doing; a line break or a tab is a trim's or a chomp's
    const spacesOnly = ends === 'trailing' && /^ +$/.test(sent.slice(got.length))
    return (
      `the ${ends} whitespace was taken away, as PHP's trim(), Laravel's TrimStrings middleware (on by default) and Ruby's strip (and chomp, for a line break) do` +
      `${spacesOnly ? `, ${CHAR_COLUMN_TRIMS}` : ''}; ` +
      "Java's String.trim() and strip(), Python's str.strip() and Go's strings.TrimSpace take it too, each its own set of characters; " +
      '§4.2 rule 2 gives back every field as sent: keep the value (Laravel: TrimStrings::except or skipWhen), or refuse it with 400'
    )
  }
  const hi = sent.charCodeAt(at)
  const next = sent.charCodeAt(at + 1)
  if (high(hi) && !Number.isNaN(next) && !low(next) && got.codePointAt(at) === 0x10000 + ((hi & 0x3ff) << 10) + (next & 0x3ff)) {
    return (
      "a lone high surrogate was joined with the character after it into one character: Ruby's json gem (2.6.3, as Ruby 3.1 ships it) pairs \\ud800 with any \\u escape that follows, a low surrogate or not; " +
      'a service on it refuses a \\ud800 to \\udbff escape not followed by a low one (400, an invalid value), as it may any lone surrogate'
    )
  }
  return undefined
}
