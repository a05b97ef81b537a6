/**
 * A deployment keeps its store from one run to the next. Every name a run sends carries the run's
 * prefix but the empty name's and "0", which every run sends alike: on a service with unique names (a
 * UNIQUE index, answered 409 or 400), the second run's are repeated names, which a service may
 * refuse (uniqueness is not shown). Found against Express on PostgreSQL and MariaDB: every run after
 * the first failed create-returns-201 (the empty name, 409; then "0", 400, found by a regression
 * helper). A refusal of either still fails when no earlier record holds the name, or when the
 * service took this run's own repeated name (or, where that one's first create was refused for its
 * length, "__proto__" beside an earlier run's): it refuses the name itself (PHP's empty() refuses "0").
 */
import { afterAll, describe, expect, test } from 'vitest'
import { DEFAULTS } from '../../lib/config/config.ts'
import type { RunResult } from '../../lib/result/run-result.ts'
import { runConformance, type RunConfig } from '../../lib/runner/conform-run.ts'
import { conformingBehaviour, startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { errorReply, startCase } from '../../lib/server/server-cases.ts'
import { VARIANTS } from '../../lib/server/variants.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { findCase } from '../../lib/server/server-cases.ts'
import { manifest } from '../../suites/manifest.ts'

const KEY = 'runs-after-runs-key-0123456789abcdef'
const servers: RunningServer[] = []
afterAll(() => Promise.all(servers.map((s) => s.close())))

const config: RunConfig = { ...DEFAULTS, readOnly: false, rules: [], headers: [], updateBaseline: false }
const run = async (server: RunningServer, seed: number) =>
  (await runConformance({ config: { ...config, seed }, target: { baseUrl: server.baseUrl, apiKey: KEY, embeddedServer: false }, suite: manifest })).result
const failures = (result: RunResult) =>
  result.rules.flatMap((r) => r.checks.filter((c) => c.status === 'fail').map((c) => `${r.id} [${c.failure?.code}] ${c.name}`))
const emptyNameCheck = (result: RunResult) =>
  result.rules.find((r) => r.id === 'create-returns-201')?.checks.find((c) => c.name.startsWith('POST /categories with an empty name → 201'))

describe('a store kept from one run to the next', () => {
  test.each(['repeated-names-refused-409', 'rejects-duplicate-names', 'repeated-names-refused-400'])('%s: the second and third runs pass as the first does', async (name) => {
    const server = await startCase(VARIANTS.find((v) => v.name === name)!, { apiKey: KEY })
    servers.push(server)
    for (const seed of [1, 2, 3]) {
      const result = await run(server, seed)
      expect(failures(result), `run ${seed}`).toEqual([])
      expect(result.exitCode).toBe(0)
    }
    // the later runs say why their empty name was refused
    expect((await run(server, 4)).observed?.freedoms['an empty name']).toMatch(/^refused \(40[09]\), as a repeat: the list holds an earlier run's empty name$/)
    // an empty name and a "0" of each run are in the store, once: the later runs' were refused
    expect(server.store.filter((r) => r.name === '')).toHaveLength(1)
    expect(server.store.filter((r) => r.name === '0')).toHaveLength(1)
  })

  test('a store whose collation takes another client\'s "0 " and " " for the suite\'s "0" and empty name (MariaDB\'s default, PAD SPACE): the runs pass, and say why', async () => {
    // measured on MariaDB 10.11: every run failed create-returns-201 for both until a repeat was told by the store's collation
    const server = await startCase(VARIANTS.find((v) => v.name === 'mariadb-unique-name-default-collation')!, { apiKey: KEY })
    servers.push(server)
    for (const seed of [1, 2]) {
      const result = await run(server, seed)
      expect(failures(result), `run ${seed}`).toEqual([])
      expect(result.observed?.freedoms['an empty name']).toBe('refused (409), as a repeat: the list holds a name of spaces, which a PAD SPACE collation (MariaDB\'s default) takes for the empty one')
    }
    expect(server.store.filter((r) => r.name === '' || r.name === '0')).toEqual([])
  })

  test("a 409 to an empty name no earlier record holds fails create-returns-201, with the list as evidence", async () => {
    const server = await startReferenceServer({
      apiKey: KEY,
      behaviour: {
        finish: (reply, request, store) => {
          const body = request.body as { name?: unknown } | undefined
          if (request.operation !== 'createCategory' || reply.status !== 201 || body?.name !== '') return reply
          store.pop()
          return errorReply(409, 'conflict', 'a category with this name exists')
        },
      },
    })
    servers.push(server)
    const result = await run(server, 1)
    expect(result.exitCode).toBe(1)
    const check = emptyNameCheck(result)
    expect([check?.status, check?.failure?.code]).toEqual(['fail', 'UNEXPECTED_STATUS'])
    const evidence = check?.exchanges.map((e) => `${e.request.method} ${e.response?.status}`) ?? []
    expect(new Set(evidence)).toEqual(new Set(['GET 200', 'POST 409']))
    expect(evidence.at(-1)).toBe('POST 409')
  })

  test('a 400 to "0" is no repeated name\'s when the service took this run\'s own repeated name, an earlier run\'s "0" in the store or not (PHP\'s empty(), the regression helper\'s seeded store)', async () => {
    let emptyRefusesZero = false
    const server = await startReferenceServer({
      apiKey: KEY,
      behaviour: { validate: (body) => (emptyRefusesZero ? findCase(MUTATIONS, 'php-empty-refuses-zero')!.behaviour.validate! : conformingBehaviour.validate)(body) },
    })
    servers.push(server)
    expect((await run(server, 1)).exitCode).toBe(0) // the store now holds a "0" and an empty name
    emptyRefusesZero = true
    const result = await run(server, 2)
    expect(result.exitCode).toBe(1)
    const check = result.rules.find((r) => r.id === 'create-returns-201')?.checks.find((c) => c.name.startsWith('POST /categories with a one-character name, "0" → 201'))
    expect([check?.status, check?.failure?.code]).toEqual(['fail', 'UNEXPECTED_STATUS'])
    // it says why the list's earlier "0" excuses nothing: this run's own repeated name was taken
    expect(check?.failure?.message).toMatch(/this run's own repeated name \(create-repeated-name\) got 201, not 400/)
    // the judged POST is the evidence's last exchange, which the reports repeat
    expect(check?.exchanges.at(-1)?.request.body).toContain('"name":"0"')
  })
  test('behind a name column of 12, where this run\'s own repeated name says nothing of repeats, a 400 to "0" still fails when this run\'s "__proto__" was taken beside an earlier run\'s', async () => {
    const limited = findCase(MUTATIONS, 'php-empty-refuses-zero-behind-name-limit-12')!
    let emptyRefusesZero = false
    const server = await startReferenceServer({
      apiKey: KEY,
      behaviour: { validate: (body) => (emptyRefusesZero ? limited : findCase(VARIANTS, 'name-limit-12')!).behaviour.validate!(body) },
    })
    servers.push(server)
    expect((await run(server, 1)).exitCode).toBe(0) // the store now holds a "0" and a "__proto__"
    emptyRefusesZero = true
    const result = await run(server, 2)
    expect(result.exitCode).toBe(1)
    const check = result.rules.find((r) => r.id === 'create-returns-201')?.checks.find((c) => c.name.startsWith('POST /categories with a one-character name, "0" → 201'))
    expect([check?.status, check?.failure?.code]).toEqual(['fail', 'UNEXPECTED_STATUS'])
    expect(check?.failure?.message).toMatch(/this run's "__proto__" got 201, though the list shows an earlier record of that name/)
  })
})
