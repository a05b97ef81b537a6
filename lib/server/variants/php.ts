/**
 * A plain-PHP service configured to conform, as a team adopting the suite ends up with it
 * (measured: PHP 8.2's built-in server, PDO SQLite, json_decode/json_encode): every default that
 * breaks a rule changed (is_string() checks, no empty() or trim(), ids cast with (int)), and the
 * freedoms such a stack uses kept: json_encode()'s default escapes, the built-in server's one
 * request at a time with each connection closed and each body ended by the close, json_decode's
 * refusal of a lone surrogate. The suite must pass it.
 */
import { stringify as losslessStringify } from 'lossless-json'
import { conformingBehaviour } from '../reference-server.ts'
import type { Variant } from '../server-cases.ts'

/** json_encode() without JSON_UNESCAPED_SLASHES or JSON_UNESCAPED_UNICODE: "\/" for every solidus, "\uXXXX" for every UTF-16 unit past ASCII. */
export function phpJsonEncode(body: unknown): string {
  const text = losslessStringify(body) ?? ''
  // a solidus occurs in JSON text only inside strings, so every one is escaped as PHP escapes it
  return text.replaceAll('/', '\\/').replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** json_decode() refuses a \u escape of a lone surrogate (JSON_ERROR_UTF16): null, answered 400 as invalid JSON. */
function holdsLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return LONE_SURROGATE.test(value)
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([k, v]) => LONE_SURROGATE.test(k) || holdsLoneSurrogate(v))
  return false
}

export const PHP_VARIANTS: readonly Variant[] = [
  {
    name: 'php-built-in-server-configured',
    description:
      "plain PHP configured to conform, on PHP's built-in server (php -S): one request at a time, Connection: close on every answer and no Content-Length (the body ends at the close), " +
      'json_encode()\'s default escapes ("a\\/b", "\\u00d1", an emoji as "\\ud83d\\udc07"), X-Powered-By, and json_decode()\'s 400 to a lone surrogate (JSON_ERROR_UTF16)',
    behaviour: {
      parseBody(text) {
        const body = conformingBehaviour.parseBody(text)
        if (holdsLoneSurrogate(body)) throw new SyntaxError('Single unpaired UTF-16 surrogate in unicode escape')
        return body
      },
      finish: (reply) => ({
        ...reply,
        headers: { ...reply.headers, 'x-powered-by': 'PHP/8.2.36' },
        body: typeof reply.body === 'string' ? reply.body : phpJsonEncode(reply.body),
      }),
      transport: { delayMs: 0, chunked: false, connectionClose: true, closeDelimited: true, oneAtATimeMs: 1 },
    },
  },
]
