/**
 * What a server fault to a create whose bytes are not UTF-8 says of the stack that gave it, beside
 * the other stacks' words of known-answers.ts (which calls this). The parser took the bytes, and
 * the record it made could not be written back: measured on FastAPI 0.92 (Starlette 0.26) and
 * Grape 1.6.2 (Ruby 3.1's json), Debian 12. The verdict and the failure code never depend on these
 * words; undefined for any other answer.
 */
import type { RecordedRequest, RecordedResponse } from '../http/exchange.ts'

/** U+D800 to U+DFFF written as UTF-8 bytes (ED A0 80 to ED BF BF), which UTF-8 excludes (RFC 3629 §3). */
const SURROGATE_BYTES = /\xed[\xa0-\xbf][\x80-\xbf]/

const SURROGATE_BYTES_FAULT =
  "a server fault to a surrogate written as UTF-8 bytes: Python's json.loads decodes bytes with 'surrogatepass' (Starlette's Request.json(), so FastAPI's body, and Flask's get_json()), " +
  "and the str it made has no UTF-8 form, so writing the record back raises UnicodeEncodeError (Starlette's JSONResponse writes with ensure_ascii=False; a store raises on the insert); " +
  "decode the body with bytes.decode('utf-8') before json.loads (a Request subclass whose json() does, in FastAPI a route_class), and answer 400"

const NOT_UTF8_FAULT =
  "a server fault to bytes that are not UTF-8: a parser that checks no UTF-8 took them, and writing the record back raised: Ruby's JSON.parse and JSON.load take them " +
  "(Grape's JSON parser, Sinatra's JSON.parse(request.body.read)) and to_json raises JSON::GeneratorError (source sequence is illegal/malformed utf-8); " +
  "check body.force_encoding('UTF-8').valid_encoding? first (Grape: a parser :json of the service's own), and answer 400"

/**
 * The refusal itself could not be written: measured on Flask 3.1 with pydantic 2.13 and orjson 3.8, whose 500
 * to bytes that are not UTF-8 was worded as Ruby's alone, and to truncated JSON had no words.
 */
const PYDANTIC_INPUT_FAULT =
  "the refusal itself could not be written: pydantic 2's model_validate_json raises a ValidationError whose errors() hold the body itself (bytes) as the input of its json_invalid error, " +
  "which json.dumps, orjson and Flask's jsonify cannot write (TypeError: Type is not JSON serializable: bytes), so every body that is not JSON is answered 500; " +
  'write e.errors(include_input=False), or e.json(), into the Error record (§7: 400 for invalid JSON)'

/**
 * An answer a Python service gives to an exception it let through: Werkzeug's page (Flask's, its
 * unquoted `<html lang=en>`), Starlette's bare "Internal Server Error" (Go's http.Error ends its own
 * with a newline), or Python's words. A Go, Java or Node fault to truncated JSON got pydantic's words.
 */
const PYTHON_FAULT = /<html lang=en>\s*<title>500 Internal Server Error<\/title>|^Internal Server Error$|pydantic|ValidationError|not JSON serializable|Traceback \(most recent call last\)/

/** True when a request's body is not JSON text (its bytes not UTF-8, or no JSON.parse takes it). */
function notJson(request: RecordedRequest): boolean {
  if (request.bodyBase64 !== undefined) return true
  try {
    JSON.parse(request.body ?? '')
    return false
  } catch {
    return true
  }
}

/** Why a create whose body is not JSON (its bytes not UTF-8 among them) got a server fault where 400 was expected, where a well-known stack faults so. */
export function undecodableBodyStatus(response: RecordedResponse, expected: number, request: RecordedRequest): string | undefined {
  if (expected !== 400 || request.method !== 'POST' || response.status < 500 || response.status === 503 || !notJson(request)) return undefined
  const python = PYTHON_FAULT.test(response.body)
  if (request.bodyBase64 === undefined) return python ? `a server fault to a body that is not JSON: one cause measured is that ${PYDANTIC_INPUT_FAULT}` : undefined
  // Puma's page names Ruby's error; surrogate bytes are read by Python alone of the stacks measured
  if (response.body.includes('JSON::GeneratorError')) return NOT_UTF8_FAULT
  const bytes = Buffer.from(request.bodyBase64, 'base64').toString('latin1')
  return `${SURROGATE_BYTES.test(bytes) ? SURROGATE_BYTES_FAULT : NOT_UTF8_FAULT}${python ? `; or ${PYDANTIC_INPUT_FAULT}` : ''}`
}
