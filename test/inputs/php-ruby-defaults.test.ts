/**
 * A plain-PHP service and a Sinatra one as their defaults come (measured against such services on
 * PHP 8.2's built-in server with PDO SQLite, and Sinatra 3 on Puma and WEBrick with json 2.6.3 and
 * sqlite3, /tmp servers apart from the repository): PHP's empty() and ?: drop "0" and [], trim()
 * turns numbers into text and takes spaces away, ?? null takes an explicit null, lastInsertId()
 * gives the id as a string; Sinatra answers a bare halt 401 (empty, text/html), errors as
 * {error}, and Ruby's JSON.parse reads comments and unknown escapes, to_s writes arrays and
 * hashes as text. Each is a real violation, and each failure says which PHP or Ruby default it
 * is and how it is changed (lib/checks/php-ruby-answers.ts, the acceptedMeans of
 * suites/cases/wrong-types.ts and malformed-json.ts), not only Spring's words.
 */
import { describe, expect, test } from 'vitest'
import type { Behaviour } from '../../lib/server/reference-server.ts'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { errorReply, isPlainObject } from '../../lib/server/server-cases.ts'
import { runsWithKey, type ConformRun } from '../helpers/run-conform.ts'

const KEY = 'php-ruby-defaults-key-0123456789'
const { serve, conform } = runsWithKey(KEY)

/** PHP's empty(): '' , "0", 0, false, null and [] are no value. */
const phpEmpty = (v: unknown) => v === undefined || v === null || v === '' || v === '0' || v === 0 || v === false || (Array.isArray(v) && v.length === 0) || (isPlainObject(v) && Object.keys(v).length === 0)
/** PHP's trim() on what json_decode gave, in a file without strict_types: scalars become text (true → "1"); an array is a TypeError (a 500 in PHP, refused here). */
const phpTrim = (v: unknown) => (typeof v === 'boolean' ? (v ? '1' : '') : String(v)).replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, '')

/** `if (!$data || empty($data['name'])) 400; $name = trim($data['name']); $desc = ($data['description'] ?? null) ?: null;` and lastInsertId() as the id. */
const plainPhp: Partial<Behaviour> = {
  validate: (body) => (!isPlainObject(body) || phpEmpty(body.name) || typeof body.name === 'object' ? 'name is required' : null),
  toRecord(body, id) {
    const description = phpEmpty(body.description) ? undefined : isPlainObject(body.description) || Array.isArray(body.description) ? 'Array' : String(body.description)
    return { id, name: phpTrim(body.name), ...(description !== undefined ? { description } : {}) }
  },
  createdBody: (record) => ({ ...record, id: String(record.id) }),
}

/** Ruby's to_s of what JSON.parse gave. */
const rubyToS = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : JSON.stringify(v))

/** `halt 401` in a before filter, `{ error: … }.to_json`, `JSON.parse(request.body.read)` of json 2.6.3, `data['name'].to_s.strip`. */
const sinatra: Partial<Behaviour> = {
  // json 2.6.3 skips /* */ comments and reads an unknown escape as its character
  parseBody: (text) => JSON.parse(text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\\([^"\\/bfnrtu])/g, '$1')) as unknown,
  validate: (body) => (!isPlainObject(body) || rubyToS(body.name).trim() === '' ? 'name is required' : null),
  toRecord: (body, id) => ({ id, name: rubyToS(body.name).trim(), ...(body.description !== undefined && body.description !== null ? { description: rubyToS(body.description) } : {}) }),
  errorBody: (_status, _code, message) => ({ error: message }),
  finish: (reply) => (reply.status === 401 ? { status: 401, headers: { 'content-type': 'text/html;charset=utf-8' }, body: '' } : reply),
}

const failuresOf = (run: ConformRun, rule: string) => run.results!.rules.find((r) => r.id === rule)!.checks.filter((c) => c.status === 'fail').map((c) => ({ name: c.name, message: c.failure?.message ?? '' }))
const messageOf = (run: ConformRun, rule: string, name: string) => failuresOf(run, rule).find((f) => f.name.includes(name))?.message

describe('PHP and Sinatra services as their defaults come', () => {
  test('plain PHP: each failure names the PHP default behind it and how it is changed', async () => {
    const run = await conform(serve(await startReferenceServer({ apiKey: KEY, behaviour: plainPhp })))
    expect(run.code, run.stdout).toBe(1)
    expect(messageOf(run, 'create-rejects-invalid-values', 'name as an integer')).toContain("PHP's trim() and (string) turn what json_decode gave into text")
    expect(messageOf(run, 'create-rejects-invalid-values', 'description as null')).toContain("PHP's $data['description'] ?? null")
    expect(messageOf(run, 'create-rejects-invalid-values', 'description as an object')).toContain("PHP's json_decode($body, true) gives {} as []")
    expect(messageOf(run, 'create-rejects-invalid-values', 'description as an array holding one string')).toContain('PHP code with no is_string() check keeps the array')
    expect(messageOf(run, 'create-echoes-fields', 'a one-character description, "0"')).toContain('PHP\'s empty() and ?: take "0" for no value')
    expect(messageOf(run, 'create-echoes-fields', 'leading and trailing spaces, CR LF and a tab in name')).toContain("PHP's trim(), Laravel's TrimStrings middleware")
    expect(messageOf(run, 'create-returns-category', 'name only')).toContain("PHP's PDO::lastInsertId() returns a string")
  }, 60_000)

  test("Sinatra: halt 401, {error}, JSON.parse's comments and escapes, and to_s name the Ruby default behind them", async () => {
    const run = await conform(serve(await startReferenceServer({ apiKey: KEY, behaviour: sinatra })))
    expect(run.code, run.stdout).toBe(1)
    expect(messageOf(run, 'create-rejects-invalid-json', 'a comment')).toContain("as Ruby's JSON.parse does (json 2.6.3")
    expect(messageOf(run, 'create-rejects-invalid-json', 'escapes JSON does not have')).toContain("as Ruby's JSON.parse does (json 2.6.3")
    expect(messageOf(run, 'create-rejects-invalid-values', 'name as an object')).toContain("Ruby's to_s writes a Hash as text")
    expect(messageOf(run, 'create-rejects-invalid-values', 'name as an array holding one string')).toContain("Ruby's to_s writes it as text")
    expect(messageOf(run, 'json-content-type', 'POST /categories with no Authorization header')).toContain("text/html;charset=utf-8 is Sinatra's default")
    const errorBodies = failuresOf(run, 'error-body-is-error-record').map((f) => f.message)
    expect(errorBodies.some((m) => m.includes("Sinatra's bare halt 401"))).toBe(true)
    expect(errorBodies.some((m) => m.includes('a body of error alone is what a hand-written handler often answers'))).toBe(true)
  }, 60_000)

  test("a body that is not UTF-8, stored and answered 500 (json 2.6 checks no UTF-8, to_json raises): the list broken after it names that body first, not the values it gave back", async () => {
    /** A stored text a JSON writer cannot write: the U+FFFD a lenient decoder made of the bytes stands for them. */
    const unwritable = (text: string | undefined) => (text ?? '').includes('\ufffd')
    const run = await conform(
      serve(
        await startReferenceServer({
          apiKey: KEY,
          behaviour: {
            decodeBody: (bytes) => new TextDecoder('utf-8').decode(bytes),
            finish(reply, request, store) {
              if (request.operation === 'createCategory' && reply.status === 201 && unwritable(store.at(-1)?.description)) return errorReply(500, 'internal', 'JSON::GeneratorError')
              if (request.operation === 'listCategories' && reply.status === 200 && store.some((r) => unwritable(r.name) || unwritable(r.description))) return errorReply(500, 'internal', 'JSON::GeneratorError')
              return reply
            },
          },
        }),
      ),
    )
    const message = messageOf(run, 'list-returns-200', "GET /categories after the run's POSTs")
    expect(message).toMatch(/^the list answered 500 .*such as those of malformed-not-utf8 \(answered 500\) holding bytes that are not UTF-8 \(C0 AF, an overlong form of \/\).*Ruby's to_json raises JSON::GeneratorError/)
  }, 60_000)
})
