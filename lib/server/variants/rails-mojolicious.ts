/**
 * A Rails 6.1 API service and a Mojolicious one configured to conform, as a team adopting the
 * suite ends up with them (measured on Debian 12's ruby-rails under Puma with sqlite3, and
 * libmojolicious-perl 9.31 with DBD::SQLite and DBD::MariaDB): every default that breaks a rule
 * changed (the key matched as /\ABearer (\S+)\z/, the top-level keys read with type checks, the
 * Error record from config.exceptions_app; Perl's number flags checked, undef descriptions left out),
 * and the freedoms each stack's writer and server use kept. The suite must pass both.
 */
import { stringify as losslessStringify } from 'lossless-json'
import type { Reply } from '../reference-server.ts'
import { isPlainObject, type Variant } from '../server-cases.ts'

/** ActiveSupport's JSON escapes (escape_html_entities_in_json, on by default): <, > and & as \u003c, \u003e, \u0026, and U+2028, U+2029 escaped. */
function activeSupportJson(body: unknown): string {
  const text = losslessStringify(body) ?? ''
  // these characters occur in JSON text only inside strings
  return text.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** A record as ActiveRecord's as_json(…).compact writes it: its timestamps after its columns. */
const STAMP = '2026-11-26T11:03:20.198Z'
const withTimestamps = (record: unknown) => (isPlainObject(record) && 'id' in record ? { ...record, created_at: STAMP, updated_at: STAMP } : record)

/** Mojo::JSON: keys in sorted order at every level, and every solidus escaped (\/). */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys)
  if (!isPlainObject(value)) return value
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortedKeys(value[k])]))
}
const mojoJson = (body: unknown) => (losslessStringify(sortedKeys(body)) ?? '').replaceAll('/', '\\/')

const railsHeaders = {
  'content-type': 'application/json; charset=utf-8',
  'x-frame-options': 'SAMEORIGIN',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  vary: 'Accept',
  'cache-control': 'max-age=0, private, must-revalidate',
  'x-request-id': '58c0c855-9f7b-450f-87c9-ebfa3d03dd46',
  'x-runtime': '0.005518',
}

export const RAILS_MOJOLICIOUS_VARIANTS: readonly Variant[] = [
  {
    name: 'rails-api-configured',
    description:
      "a Rails 6.1 API service configured to conform, on Puma: records with created_at and updated_at beside their fields, ActiveSupport's escapes (\\u003c, \\u003e, \\u0026, \\u2028), " +
      'application/json; charset=utf-8, a weak ETag, X-Request-Id and X-Runtime on every answer, and chunked bodies',
    behaviour: {
      finish: (reply: Reply): Reply => {
        const body = typeof reply.body === 'string' ? reply.body : activeSupportJson(Array.isArray(reply.body) ? reply.body.map(withTimestamps) : withTimestamps(reply.body))
        const headers: Record<string, string> = { ...reply.headers, ...railsHeaders }
        if (reply.status < 300) headers.etag = 'W/"a5831300beaf00c6c8c1d61cca66cfe2"'
        return { ...reply, headers, body }
      },
      transport: { delayMs: 0, chunked: true, connectionClose: false },
    },
  },
  {
    name: 'mojolicious-configured',
    description:
      "a Mojolicious service configured to conform: Mojo::JSON's keys in sorted order (description before id and name), every solidus written \\/, U+2028 and U+2029 written raw, " +
      'application/json;charset=UTF-8 and Server: Mojolicious (Perl)',
    behaviour: {
      finish: (reply: Reply): Reply => ({
        ...reply,
        headers: { ...reply.headers, 'content-type': 'application/json;charset=UTF-8', server: 'Mojolicious (Perl)' },
        body: typeof reply.body === 'string' ? reply.body : mojoJson(reply.body),
      }),
    },
  },
]
