/**
 * A name whose part past a column's length is spaces: measured on PostgreSQL 15 (FastAPI with
 * psycopg2, Fastify with node-postgres) and MariaDB 10.11 in strict mode (Express with mysql2),
 * each with a VARCHAR(32) name and a TEXT description. A longer name is refused with an error,
 * which the services answered 400 (§8 shows no length, so a refusal is theirs to make); but the SQL
 * standard has a VARCHAR cut a value whose excess is spaces, without an error (MariaDB: a note), so
 * such a name was answered 201 and listed cut to 32 characters, and the runs passed: the only long
 * name sent ended in digits.
 * - The columns cut the spaces: create-echoes-fields fails on create-whitespace's 64-character
 *   name (44 before) and on the 256-character names.
 * - The columns refuse any longer value with 400, as Oracle's VARCHAR2 does: the run passes.
 * - Behind a check that refuses a name past 255 characters with 400 (JPA's @Size(max = 255)), which
 *   refuses the 256-character names, the column cut create-whitespace's name alone (misshunt16:
 *   it was 22 characters, and the run passed).
 * - A name column of 33 to 64 characters that refuses a longer name with 400 or 413 (§8 shows no
 *   length): create-whitespace's 64 characters are refused or taken whole, and the run passes
 *   (review44: no false alarm from the longer name; valuehunt5: 44 characters let a column that
 *   cuts at 45 to 63 behind a check of 64 pass, mutation name-cut-at-45-behind-name-limit-64-utf16).
 * - Behind a check of 64 UTF-8 bytes (Go's len), a column of 32 that raises its length error (Oracle's
 *   VARCHAR2, which cuts no spaces) answered 500, unhandled: create-returns-201 fails on
 *   create-whitespace alone, the only name past 32 characters the check lets through (review44:
 *   with its 22 characters the run passed; a 500 to a valid create is no refusal §7 shows).
 */
import { describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startReferenceServer, type Behaviour, type Reply } from '../../lib/server/reference-server.ts'
import { errorReply } from '../../lib/server/server-cases.ts'
import { columnLimits } from '../../lib/server/variants/inputs.ts'
import { failedRules, runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'trailing-spaces-key-0123456789'
const { serve, conform } = runsWithKey(KEY)

describe('a name whose part past a VARCHAR(32) is spaces', () => {
  test("cut to 32 without an error (PostgreSQL, MySQL and MariaDB): create-echoes-fields fails on create-whitespace's 64-character name and the 256-character names", async () => {
    const cutting = MUTATIONS.find((m) => m.name === 'varchar-32-name-cuts-trailing-spaces')!
    const server = serve(await startReferenceServer({ apiKey: KEY, behaviour: cutting.behaviour }))
    const run = await conform(server)
    // the list shows the names as the creates answered them: the same fault, told once
    expect(failedRules(run), run.stdout).toEqual(['create-echoes-fields'])
    const failed = run.results!.rules.find((r) => r.id === 'create-echoes-fields')!.checks.filter((c) => c.status === 'fail')
    expect(failed.map((c) => c.name)).toEqual([
      expect.stringContaining('in name (64 characters, the last 44 spaces)'),
      expect.stringContaining('a 256-character name, 16 characters (a tag and a percent escape among them) and 240 spaces, and the description "undefined"'),
      expect.stringContaining('a 256-character name, 16 characters and 240 spaces, and a 1,001-character description'),
    ])
    expect(failed[0].failure?.message).toContain('first difference at character 32: sent U+0020, got its end (lengths 64 and 32)')
    expect(failed[1].failure?.message).toContain('first difference at character 32: sent U+0020, got its end (lengths 256 and 32)')
  }, 60_000)

  test('refused with 400 like any longer value: the run passes', async () => {
    const server = serve(await startReferenceServer({ apiKey: KEY, behaviour: columnLimits(32, Number.POSITIVE_INFINITY) }))
    const run = await conform(server)
    expect(failedRules(run), run.stdout).toEqual([])
  }, 60_000)

  test("beside a VARCHAR(255) description, which refuses the 1,001 digits of create-long-hundreds: create-echoes-fields fails on create-whitespace's name and the padded name", async () => {
    const cutting = MUTATIONS.find((m) => m.name === 'varchar-32-name-beside-varchar-255-description')!
    const server = serve(await startReferenceServer({ apiKey: KEY, behaviour: cutting.behaviour }))
    const run = await conform(server)
    expect(failedRules(run), run.stdout).toEqual(['create-echoes-fields'])
    const failed = run.results!.rules.find((r) => r.id === 'create-echoes-fields')!.checks.filter((c) => c.status === 'fail')
    expect(failed.map((c) => c.name)).toEqual([expect.stringContaining('in name (64 characters, the last 44 spaces)'), expect.stringContaining('and the description "undefined"')])
  }, 60_000)

  test.each(['varchar-32-name-cuts-trailing-spaces-behind-name-limit-255', 'varchar-32-name-beside-varchar-255-description-behind-name-limit-255'])(
    "%s: behind a check of 255 characters, which refuses the 256-character names, create-echoes-fields fails on create-whitespace's name alone",
    async (name) => {
      const cutting = MUTATIONS.find((m) => m.name === name)!
      const server = serve(await startReferenceServer({ apiKey: KEY, behaviour: cutting.behaviour }))
      const run = await conform(server)
      expect(failedRules(run), run.stdout).toEqual(['create-echoes-fields'])
      const failed = run.results!.rules.find((r) => r.id === 'create-echoes-fields')!.checks.filter((c) => c.status === 'fail')
      expect(failed.map((c) => c.name)).toEqual([expect.stringContaining('in name (64 characters, the last 44 spaces)')])
      expect(failed[0].failure?.message).toContain('first difference at character 32: sent U+0020, got its end (lengths 64 and 32)')
    },
    60_000,
  )

  test.each([
    [33, 400],
    [40, 413],
    [43, 400],
    [44, 413],
    [45, 400],
    [50, 413],
    [63, 400],
    [64, 413],
  ] as const)('a name column of %i characters, a longer name refused with %i: the run passes', async (limit, status) => {
    const { validate } = columnLimits(limit, Number.POSITIVE_INFINITY)
    // 413 for the name's length alone: every other refusal stays 400 (§4.2 rule 1)
    const tooLong = (reply: Reply) => reply.status === 400 && JSON.stringify(reply.body ?? '').includes('too long for column NAME')
    const finish = (reply: Reply) => (status === 413 && tooLong(reply) ? errorReply(413, 'too_large', `names are limited to ${limit} characters`) : reply)
    const server = serve(await startReferenceServer({ apiKey: KEY, behaviour: { validate, finish } }))
    const run = await conform(server)
    expect(failedRules(run), run.stdout).toEqual([])
    expect(run.code, run.stdout).toBe(0)
  }, 60_000)

  test('behind a check of 64 bytes, a column of 32 whose length error is answered 500: create-returns-201 fails on create-whitespace alone', async () => {
    const { validate } = columnLimits(64, Number.POSITIVE_INFINITY, 'bytes')
    const finish: Behaviour['finish'] = (reply, request, store) => {
      const name = (request.body as { name?: unknown } | undefined)?.name
      if (request.operation !== 'createCategory' || reply.status !== 201 || typeof name !== 'string' || [...name].length <= 32) return reply
      store.pop()
      return errorReply(500, 'internal', 'ORA-12899: value too large for column "NAME" (actual: 64, maximum: 32)')
    }
    const server = serve(await startReferenceServer({ apiKey: KEY, behaviour: { validate, finish } }))
    const run = await conform(server)
    expect(failedRules(run), run.stdout).toEqual(['create-returns-201'])
    const failed = run.results!.rules.find((r) => r.id === 'create-returns-201')!.checks.filter((c) => c.status === 'fail')
    expect(failed.map((c) => c.name)).toEqual([expect.stringContaining('in name (64 characters, the last 44 spaces)')])
    expect(failed[0].failure?.message).toContain('a server fault to values a column may be too short for')
  }, 60_000)
})
