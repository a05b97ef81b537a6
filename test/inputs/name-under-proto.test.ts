/**
 * A body whose name stands only inside a "__proto__" member. Measured on Koa 3 with koa-bodyparser
 * and knex on better-sqlite3: a handler that copied the body onto an entity,
 * Object.assign(new Category(), body), and checked and stored the entity created a category from
 * {"__proto__": {"name": "x"}}, since JSON.parse keeps "__proto__" as a member of its own and the
 * copy makes it the entity's prototype. Every body the suite sent before carried name as its own
 * member or not at all, so the run passed. NestJS's ValidationPipe (class-transformer skips the
 * key) and Fastify (secure-json-parse refuses the body) answered it 400.
 */
import { describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { INVALID_BODIES } from '../../suites/cases/invalid-bodies.ts'
import { failedRules, runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'name-under-proto-key-0123456789'
const { serve, conform } = runsWithKey(KEY)
const CHECK = 'POST /categories with the name only inside a "__proto__" member → 400'

describe('a body whose name stands only inside a "__proto__" member', () => {
  test('its text holds "__proto__" as an own member and no name (an object literal would have set the prototype instead)', () => {
    const body = INVALID_BODIES.find((c) => c.key === 'name-under-proto')!.body('cf-ab12c')
    const parsed = JSON.parse(body) as Record<string, unknown>
    expect(Object.keys(parsed)).toEqual(['__proto__'])
    expect(Object.hasOwn(parsed, 'name')).toBe(false)
    expect(parsed.name).toBeUndefined()
    expect(Object.getOwnPropertyDescriptor(parsed, '__proto__')?.value).toEqual({ name: 'cf-ab12c-proto' })
  })

  test('copied onto an entity with Object.assign and stored: create-rejects-missing-name fails on it, saying how such a handler took it', async () => {
    const assigning = MUTATIONS.find((m) => m.name === 'body-assigned-onto-entity')!
    const server = serve(await startReferenceServer({ apiKey: KEY, behaviour: assigning.behaviour }))
    const run = await conform(server)
    expect(failedRules(run), run.stdout).toEqual(['create-rejects-missing-name'])
    const failed = run.results!.rules.find((r) => r.id === 'create-rejects-missing-name')!.checks.filter((c) => c.status === 'fail')
    expect(failed.map((c) => c.name)).toEqual([CHECK])
    expect(failed[0].failure?.message).toContain('POST answered 201, expected 400')
    expect(failed[0].failure?.message).toContain('Object.assign(new Category(), body)')
  }, 60_000)

  test('the reference server answers it 400 and passes', async () => {
    const server = serve(await startReferenceServer({ apiKey: KEY }))
    const run = await conform(server)
    expect(failedRules(run), run.stdout).toEqual([])
    const check = run.results!.rules.find((r) => r.id === 'create-rejects-missing-name')!.checks.find((c) => c.name === CHECK)
    expect(check?.status).toBe('pass')
  }, 60_000)
})
