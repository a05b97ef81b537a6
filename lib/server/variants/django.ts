/**
 * A Django REST framework service configured to conform, as a team adopting the suite ends up with
 * it (measured on Debian 12's python3-djangorestframework 3.14, Django 3.2, SQLite and PostgreSQL 15):
 * every default that breaks a rule changed (an EXCEPTION_HANDLER that writes the Error record, an
 * authentication class with authenticate_header(), CharField(trim_whitespace=False) that refuses
 * what is not a str, JSONRenderer alone, routes without a trailing slash), and the freedoms such a
 * stack uses kept. The suite must pass it.
 */
import { stringify as losslessStringify } from 'lossless-json'
import { conformingBehaviour, type Reply } from '../reference-server.ts'
import { isPlainObject, type Variant } from '../server-cases.ts'

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** DRF's CharField validators: ProhibitNullCharactersValidator and ProhibitSurrogateCharactersValidator. */
function prohibited(body: unknown): string | null {
  if (!isPlainObject(body)) return null
  for (const value of [body.name, body.description]) {
    if (typeof value !== 'string') continue
    if (value.includes('\u0000')) return 'Null characters are not allowed.'
    if (LONE_SURROGATE.test(value)) return 'Surrogate characters are not allowed.'
  }
  return null
}

/** DRF's JSONRenderer: compact, UTF-8 as it is (UNICODE_JSON), U+2028 and U+2029 escaped. */
const drfJson = (body: unknown) => (losslessStringify(body) ?? '').replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`)

export const DJANGO_VARIANTS: readonly Variant[] = [
  {
    name: 'django-rest-framework-configured',
    description:
      'a Django REST framework service configured to conform, on Django\'s server: a model TextField(blank=True) stores "" for a description not sent and answers it in the create and the list, ' +
      "U+0000 and lone surrogates refused with 400 (CharField's validators), U+2028 written \\u2028, application/json without charset, Allow and Vary: Accept on every answer",
    behaviour: {
      validate: (body) => conformingBehaviour.validate(body) ?? prohibited(body),
      toRecord: (body, id) => ({ id, name: body.name, description: body.description ?? '' }),
      finish: (reply: Reply): Reply => ({
        ...reply,
        headers: { ...reply.headers, 'content-type': 'application/json', server: 'WSGIServer/0.2 CPython/3.11.2', allow: 'GET, POST, HEAD, OPTIONS', vary: 'Accept' },
        body: typeof reply.body === 'string' ? reply.body : drfJson(reply.body),
      }),
    },
  },
]
