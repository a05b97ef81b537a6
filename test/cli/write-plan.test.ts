/**
 * In-process, in milliseconds: which POSTs a run may send (the plan every worker computes alike)
 * and how the command is rebuilt when npm swallowed flags. The whole-run proofs against counting
 * servers are in journal.test.ts and npm-and-paths.test.ts.
 */
import { describe, expect, test } from 'vitest'
import { swallowedByNpm } from '../../lib/config/config.ts'
import { defaultWriteBound, describeWritePlan, writePlan } from '../../lib/suite-kit/write-plan.ts'
import { POST_PROBES } from '../../suites/cases/write-order.ts'
import { POST_RESENDS_PER_WRITE } from '../../lib/http/retry-after.ts'

const plan = (options: Partial<Parameters<typeof writePlan>[1]>) => writePlan(POST_PROBES, { readOnly: false, rules: [], ...options })

describe('writePlan', () => {

  test('by default every declared POST, in priority order', () => {
    const all = plan({})
    expect(all.allowed).toEqual(POST_PROBES.map((p) => p.key))
    expect(all.creating).toBe(POST_PROBES.filter((p) => p.creates).length)
    expect(all.refused.size).toBe(0)
  })

  test('--rule keeps only the POSTs the selected rules judge; --max-writes counts among those', () => {
    const invalidJson = plan({ rules: ['create-rejects-invalid-json'], maxWrites: 1 })
    expect(invalidJson.allowed).toEqual([POST_PROBES.find((p) => p.serves[0] === 'create-rejects-invalid-json')!.key])
    expect(invalidJson.refused.get('create-described')?.reason).toBe('not-needed')
    expect(plan({ rules: ['list-returns-200'] })).toMatchObject({ allowed: [], needed: 0 })
  })

  test('--read-only refuses every needed POST, and over the budget is refused as such', () => {
    expect([...plan({ readOnly: true }).refused.values()].every((r) => r.reason === 'read-only')).toBe(true)
    const two = plan({ maxWrites: 2 })
    expect(two.allowed).toHaveLength(2)
    expect(two.refused.get(POST_PROBES[2].key)).toEqual({ reason: 'write-budget', detail: 'not verified: over the write budget (--max-writes 2; this POST is number 3)' })
  })

  test('the first line says what may be written', () => {
    expect(describeWritePlan(plan({ maxWrites: 0 }), { readOnly: false, rules: [], maxWrites: 0 })).toBe(
      `Writes: none (--max-writes 0). The ${POST_PROBES.length} POSTs the rules need are not sent; the rules about creating are not verified.`,
    )
    expect(describeWritePlan(plan({ rules: ['auth-missing-key-401'] }), { readOnly: false, rules: ['auth-missing-key-401'] })).toBe(
      'Writes: at most 2 POSTs, and at most 2 sent again after an answer lost that the list showed not stored: 4 in all, all of which a conforming server refuses: they create records only on a server that wrongly accepts them. The interface has no delete. Besides, a POST answered 429 or 503 (a limit, which should store nothing: the list is read before the first of them go again, and one it shows stored does not) goes again once its wait is over: at most 80 such resends in a run.',
    )
    expect(describeWritePlan(plan({ rules: ['create-rejects-missing-body'] }), { readOnly: false, rules: ['create-rejects-missing-body'] })).toBe(
      'Writes: at most 1 POST, and at most 1 sent again after an answer lost that the list showed not stored: 2 in all, which a conforming server refuses: it creates a record only on a server that wrongly accepts it. The interface has no delete. Besides, a POST answered 429 or 503 (a limit, which should store nothing: the list is read before the first of them go again, and one it shows stored does not) goes again once its wait is over: at most 40 such resends in a run.',
    )
  })

  test('a budget that cuts a pair of follow-ups in two promises whole records: each same-size create or short form after it stores one at most, and a pair one', () => {
    const cut = POST_PROBES.length - 1
    const followUps = plan({ maxWrites: cut }).followUps
    expect(followUps % 2, 'the last POST of the plan is a short form').toBe(1)
    const line = describeWritePlan(plan({ maxWrites: cut }), { readOnly: false, rules: [], maxWrites: cut })
    expect(line).toContain(`${followUps} go only to a service that refuses long values, to send those classes of strings in short values (at most ${(followUps + 1) / 2} records, each in place of a long one refused`)
    expect(line).not.toMatch(/\d\.5 more records/)
  })
})

describe('the default write bound includes confirmation (--confirm), an explicit --max-writes is the bound', () => {
  const n = POST_PROBES.length
  test('without --max-writes the first line gives the plan\'s POSTs, the N more for each failed one, those sent again after lost answers, and the sum', () => {
    expect(defaultWriteBound(n, { confirm: 2 })).toBe(3 * n)
    expect(describeWritePlan(plan({}), { readOnly: false, rules: [], confirm: 2 })).toMatch(
      new RegExp(`^Writes: at most ${n} POSTs, and at most 2 more for each failed POST to confirm it \\(--confirm 2\\), and at most ${n} sent again after an answer lost that the list showed not stored: ${4 * n} in all, creating `),
    )
    expect(describeWritePlan(plan({}), { readOnly: false, rules: [], confirm: 0 })).toMatch(new RegExp(`^Writes: at most ${n} POSTs, and at most ${n} sent again after an answer lost that the list showed not stored: ${2 * n} in all, creating `))
  })
  test('without --max-writes the first line says that POSTs a limit answered 429 or 503 go again past that sum, and how many at most', () => {
    // a run behind a limit of 3 POSTs a second sent 1,213 POSTs where its first line had promised "360 in all";
    // and not "which stores nothing": a quota counted after the insert answers 429 to a stored create, which the list is read for (stored-despite-unavailable.ts)
    expect(describeWritePlan(plan({}), { readOnly: false, rules: [], confirm: 2 })).toMatch(
      new RegExp(`The interface has no delete\\. Besides, a POST answered 429 or 503 \\(a limit, which should store nothing: the list is read before the first of them go again, and one it shows stored does not\\) goes again once its wait is over: at most ${POST_RESENDS_PER_WRITE * n} such resends in a run\\.$`),
    )
    expect(describeWritePlan(plan({ maxWrites: 10 }), { readOnly: false, rules: [], maxWrites: 10, confirm: 2 })).not.toMatch(/429|503/)
  })
  test('--repeat: the further rounds\' creates are counted, in the POSTs and the records', () => {
    const all = plan({})
    expect(describeWritePlan(all, { readOnly: false, rules: [], confirm: 0, repeat: 3 })).toMatch(
      new RegExp(`^Writes: at most ${n} POSTs, 1 in each further round \\(--repeat 3\\), and at most ${n} sent again after an answer lost that the list showed not stored: ${2 * n + 2} in all, creating at most ${all.creating + 2} records `),
    )
  })
  test('a --max-writes above the plan: the first line gives the room it leaves to confirm failures, within it', () => {
    // "--max-writes 200" read "at most 90 POSTs", and the run sent 116 (84 of the plan, 32 to confirm failures)
    expect(describeWritePlan(plan({ maxWrites: 200 }), { readOnly: false, rules: [], maxWrites: 200, confirm: 2 })).toMatch(
      new RegExp(`^Writes: at most ${n} POSTs, and at most ${200 - n} more to confirm failures \\(--confirm 2\\), within --max-writes 200, creating `),
    )
    expect(describeWritePlan(plan({ maxWrites: 200 }), { readOnly: false, rules: [], maxWrites: 200, confirm: 0 })).not.toMatch(/confirm/)
  })
  test('with --max-writes no more than the budget is promised: nothing is sent again after a lost answer', () => {
    expect(defaultWriteBound(n, { maxWrites: 10, confirm: 2 })).toBeUndefined()
    expect(describeWritePlan(plan({ maxWrites: 10 }), { readOnly: false, rules: [], maxWrites: 10, confirm: 2 })).not.toMatch(/confirm|again/)
  })
})

describe('swallowedByNpm', () => {
  const npm = { npm_lifecycle_event: 'conform' }
  test.each([
    ['nothing swallowed', [], {}, undefined],
    ['not run by npm', [], { npm_config_read_only: 'true', npm_lifecycle_event: undefined }, undefined],
    ['--read-only', ['--base-url', 'http://127.0.0.1:1/v1'], { npm_config_read_only: 'true' }, 'npm run conform -- --read-only --base-url http://127.0.0.1:1/v1'],
    ['--rule twice', ['a', 'b'], { npm_config_rule: 'true\n\ntrue' }, 'npm run conform -- --rule a --rule b'],
    ['--max-writes=3', [], { npm_config_max_writes: '3' }, 'npm run conform -- --max-writes 3'],
    ['a value with a space', ['my reports'], { npm_config_report_dir: 'true' }, "npm run conform -- --report-dir 'my reports'"],
  ] as const)('%s', (_label, argv, env, command) => {
    const message = swallowedByNpm([...argv], { ...npm, ...env })
    if (command === undefined) expect(message).toBeUndefined()
    else expect(message).toMatch(new RegExp(`; run: ${command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`))
  })

  // npm keeps no order of the stray arguments: the key typed first must not be shown as another flag's value
  test.each([
    ['--api-key KEY --base-url URL', ['s3cret-key-value-123', 'https://petstore.example/v1']],
    ['--base-url URL --api-key KEY', ['https://petstore.example/v1', 's3cret-key-value-123']],
  ])('a swallowed %s never shows the key', (_label, argv) => {
    const message = swallowedByNpm(argv, { ...npm, npm_config_api_key: 'true', npm_config_base_url: 'true' }) ?? ''
    expect(message).toContain('--api-key "$CONFORM_API_KEY"')
    expect(message).not.toContain('s3cret')
  })
})
