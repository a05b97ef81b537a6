/**
 * A service with the shortest columns the suite verifies every class against (a VARCHAR(16) name and
 * a VARCHAR(32) description: NAME_FLOOR and DESCRIPTION_FLOOR, §8 shows no limit) sees every refused
 * POST for what it is sent for, not for the length of the name that marks it: measured on Fastify 4
 * with a JSON schema (`maxLength`) and its auth in a preHandler hook, as @fastify/auth shows it,
 * which runs after the body's validation.
 * - Such a service reads the body before the key, as the document lets it (docs/inputs.md: a body
 *   both unauthenticated and invalid is not sent): every POST without a valid key must carry a name
 *   it takes, or it answers 400 where §5.3 asks 401. The markers were `cf-…-unauthenticated-no-header`
 *   and longer (34 to 51 characters), and it failed auth-missing-key-401 and auth-invalid-key-401.
 * - Such a service that takes a number or a boolean as a description (Fastify's default coerceTypes
 *   makes it text) must fail create-rejects-invalid-values: the wrong-typed descriptions came with the
 *   name `cf-…-wrong-type-description-integer` (39 characters), refused for its length, and the run passed.
 */
import { describe, expect, test } from 'vitest'
import { conformingBehaviour, startReferenceServer, type Behaviour } from '../../lib/server/reference-server.ts'
import { errorReply } from '../../lib/server/server-cases.ts'
import { columnLimits } from '../../lib/server/variants/inputs.ts'
import { failedRules, runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'short-columns-key-0123456789'
const { serve, conform } = runsWithKey(KEY)

/** Statuses the body earns before the key is looked at: it was read, parsed and validated first. */
const BODY_FIRST = new Set([400, 413])

/**
 * A VARCHAR(16) name and a VARCHAR(32) description, validated before the key on POST /categories
 * (the key check comes after, in finish: a 201 without a valid key is taken back and answered 401).
 */
function bodyBeforeKey(extra: Partial<Behaviour> = {}): Partial<Behaviour> {
  const limits = columnLimits(16, 32)
  return {
    validate: limits.validate,
    ...extra,
    routePath: (raw) => {
      const path = raw.replace(/\?.*$/, '')
      return { path, guarded: path !== '/categories' }
    },
    finish: (reply, request, store) => {
      if (request.operation === undefined || conformingBehaviour.authorize(request.authorization, KEY, request.operation)) return reply
      if (request.operation === 'createCategory' && BODY_FIRST.has(reply.status)) return reply
      if (request.operation === 'createCategory' && reply.status === 201) store.pop()
      return errorReply(401, 'unauthorized', 'The API key is missing or invalid.', { 'www-authenticate': 'Bearer' })
    },
  }
}

/** Fastify's default coerceTypes: a number or a boolean where the schema says string is taken as its text. */
const coerced = (value: unknown) => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value)
const coercingDescriptions: Partial<Behaviour> = {
  validate: (body) => {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return columnLimits(16, 32).validate!(body)
    const fields = body as Record<string, unknown>
    return columnLimits(16, 32).validate!('description' in fields ? { ...fields, description: coerced(fields.description) } : body)
  },
  toRecord: (body, id) => conformingBehaviour.toRecord({ ...body, ...(body.description !== undefined ? { description: coerced(body.description) as string } : {}) }, id),
}

describe('a VARCHAR(16) name and a VARCHAR(32) description', () => {
  test('validated before the key: every POST without a valid key is still answered 401, and the run passes', async () => {
    const server = serve(await startReferenceServer({ apiKey: KEY, behaviour: bodyBeforeKey() }))
    const run = await conform(server)
    expect(failedRules(run), run.stdout).toEqual([])
    expect(run.code, run.stdout).toBe(0)
  }, 60_000)

  test('taking a number or a boolean as the description: create-rejects-invalid-values fails for those bodies', async () => {
    const server = serve(await startReferenceServer({ apiKey: KEY, behaviour: bodyBeforeKey(coercingDescriptions) }))
    const run = await conform(server)
    expect(failedRules(run), run.stdout).toEqual(['create-rejects-invalid-values'])
    const failed = run.results!.rules.find((r) => r.id === 'create-rejects-invalid-values')!.checks.filter((c) => c.status === 'fail').map((c) => c.name)
    for (const type of ['a boolean', 'an integer', 'a number with a fraction']) expect(failed).toContainEqual(expect.stringContaining(`description as ${type}`))
  }, 60_000)
})
