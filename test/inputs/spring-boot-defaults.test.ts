/**
 * A Spring Boot service as its defaults come (measured against an emulation of Spring MVC 6,
 * Jackson 2.17 and Spring Security 6, /tmp servers apart from the repository): Jackson coerces
 * numbers and booleans to text and reads only the first JSON value; errors are Spring Boot's
 * {timestamp, status, error, path}; Spring Security answers a missing or wrong bearer token with an
 * empty 401 and a POST without one with CSRF's 403. Each is a real violation, and each failure
 * names the Spring setting behind it and its fix (lib/checks/known-answers.ts, the acceptedMeans of
 * suites/cases/wrong-types.ts and malformed-json.ts), so that the team reads what to change.
 */
import { describe, expect, test } from 'vitest'
import type { Behaviour } from '../../lib/server/reference-server.ts'
import { conformingBehaviour, startReferenceServer } from '../../lib/server/reference-server.ts'
import { errorReply, isPlainObject } from '../../lib/server/server-cases.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'spring-boot-defaults-key-0123456789'
const { serve, conform } = runsWithKey(KEY)

/** Jackson's StringDeserializer: a scalar where text belongs is taken as its text; [] as null under ACCEPT_EMPTY_ARRAY_AS_NULL_OBJECT. */
const asJackson = (value: unknown) => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : Array.isArray(value) && value.length === 0 ? undefined : value)
const bound = (body: unknown) => {
  if (!isPlainObject(body)) return body
  const { name, description, ...rest } = body
  const out: Record<string, unknown> = { ...rest, name: asJackson(name) }
  if (asJackson(description) !== undefined) out.description = asJackson(description)
  return out
}

const springBoot: Partial<Behaviour> = {
  // FAIL_ON_TRAILING_TOKENS is off: the first value is read, the rest never looked at
  parseBody(text) {
    try {
      return JSON.parse(text) as unknown
    } catch (error) {
      const at = /after JSON at position (\d+)/.exec((error as Error).message)
      if (!at) throw error
      return JSON.parse(text.slice(0, Number(at[1]))) as unknown
    }
  },
  validate: (body) => conformingBehaviour.validate(bound(body)),
  toRecord: (body, id) => conformingBehaviour.toRecord(bound(body) as { name: string; description?: string }, id),
  errorBody: (status) => ({ timestamp: '2026-11-26T09:00:00.000+00:00', status, error: status === 400 ? 'Bad Request' : 'Not Found', path: '/v1/categories' }),
  finish(reply, request) {
    if (reply.status !== 401) return reply
    // CsrfFilter runs before BearerTokenAuthenticationFilter, and a bearer token is what exempts a request from it
    if (request.method === 'POST' && !/^Bearer \S/.test(request.authorization ?? '')) return { status: 403, headers: {}, body: '' }
    return { status: 401, headers: { 'www-authenticate': 'Bearer' }, body: '' }
  },
}

describe('a Spring Boot service as its defaults come', () => {
  test('fails, and each failure says which Spring default it is and how it is changed', async () => {
    const server = serve(await startReferenceServer({ apiKey: KEY, behaviour: springBoot }))
    const run = await conform(server)
    expect(run.code, run.stdout).toBe(1)
    const failures = (rule: string) =>
      run.results!.rules.find((r) => r.id === rule)!.checks.filter((c) => c.status === 'fail').map((c) => ({ name: c.name, message: c.failure?.message ?? '' }))
    const messageOf = (rule: string, name: string) => failures(rule).find((f) => f.name.includes(name))?.message

    expect(messageOf('create-rejects-invalid-values', 'name as an integer')).toContain('coercionConfigFor(LogicalType.Textual)')
    expect(messageOf('create-rejects-invalid-values', 'description as a boolean')).toContain('Jackson by default (Spring Boot')
    expect(messageOf('create-rejects-invalid-values', 'description as an array')).toContain('spring.jackson.deserialization.accept-empty-array-as-null-object')
    expect(messageOf('create-rejects-invalid-json', 'text after the JSON value')).toContain('spring.jackson.deserialization.fail-on-trailing-tokens=true')
    expect(messageOf('auth-missing-key-401', 'POST /categories with no Authorization header')).toContain("Spring Security's CSRF protection")
    const errorBodies = failures('error-body-is-error-record').map((f) => f.message)
    expect(errorBodies.some((m) => m.includes("Spring Boot's default error body"))).toBe(true)
    expect(errorBodies.some((m) => m.includes('BearerTokenAuthenticationEntryPoint'))).toBe(true)
  }, 60_000)

  test("a body bound to the JPA entity under Hibernate 6.6: the 500 to a body with an id names save()'s merge and its fix", async () => {
    const server = serve(
      await startReferenceServer({
        apiKey: KEY,
        behaviour: {
          finish(reply, request, store) {
            if (request.operation !== 'createCategory' || reply.status !== 201 || !isPlainObject(request.body) || !('id' in request.body)) return reply
            store.pop()
            return errorReply(500, 'internal', 'Row was updated or deleted by another transaction (or unsaved-value mapping was incorrect)')
          },
        },
      }),
    )
    const run = await conform(server)
    // create-sends-id's check: an id no record has, for which Hibernate 6.6 throws (this server also
    // answers create-sends-existing-id's stored id 500, which Hibernate would merge as an update)
    const failed = run.results!.rules.find((r) => r.id === 'create-returns-201')!.checks.filter((c) => c.status === 'fail' && c.name.includes('an id the client never sends (§2), which the service must not take'))
    expect(failed.map((c) => c.failure?.code)).toEqual(['SERVER_ERROR'])
    expect(failed[0].failure?.message).toMatch(/^POST answered 500 .*expected 201 \(or a refusal: 400, 413\): a server fault to a body that carries an id: .*Hibernate 6\.6/)
  }, 60_000)

  test('no @Valid on the @RequestBody: the 201 to a body without name says nothing checked it', async () => {
    const server = serve(
      await startReferenceServer({
        apiKey: KEY,
        behaviour: {
          // the record is made of whatever was bound: a missing name is stored as none
          validate: (body) => (isPlainObject(body) && !('name' in body) ? null : conformingBehaviour.validate(body)),
          toRecord: (body, id) => ({ id, name: body.name ?? '', ...(body.description !== undefined ? { description: body.description } : {}) }),
        },
      }),
    )
    const run = await conform(server)
    const failed = run.results!.rules.find((r) => r.id === 'create-rejects-missing-name')!.checks.filter((c) => c.status === 'fail')
    expect(failed.find((c) => c.name.includes('a body without name →'))?.failure?.message).toMatch(/^POST answered 201, expected 400: the service stored a body without name: .*@Valid missing on the @RequestBody parameter/)
  }, 60_000)

  test("a VARCHAR2(32 BYTE) name whose ORA-12899 is left unhandled: the 500 to long or multi-byte names names it and its fix", async () => {
    const server = serve(
      await startReferenceServer({
        apiKey: KEY,
        behaviour: {
          finish(reply, request, store) {
            const name = isPlainObject(request.body) && typeof request.body.name === 'string' ? request.body.name : ''
            if (request.operation !== 'createCategory' || reply.status !== 201 || Buffer.byteLength(name) <= 32) return reply
            store.pop()
            return errorReply(500, 'internal', 'could not execute statement')
          },
        },
      }),
    )
    const run = await conform(server)
    const failed = run.results!.rules.find((r) => r.id === 'create-returns-201')!.checks.filter((c) => c.status === 'fail')
    const unicode = failed.find((c) => c.name.includes('emoji, ZWJ sequences'))
    expect(unicode?.failure?.message).toMatch(/^POST answered 500 .*expected 201 \(or a refusal for length: 400, 413\): a server fault to values a column may be too short for: if it is .*ORA-12899/)
    const long = failed.find((c) => c.name.includes('a 256-character name'))
    expect(long?.failure?.message).toContain('DataIntegrityViolationException')
  }, 60_000)
})
