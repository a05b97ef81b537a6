/**
 * Proof that the checks work both ways: every mutation of the reference server makes the real
 * `npm run conform` exit 1 with the rule it breaks among the failed ones, and every conforming
 * variant makes it exit 0. Each case starts its own server on port 0; conform runs as a child
 * process, a few at a time (each uses about a core for a second or two).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { VARIANTS } from '../../lib/server/variants.ts'
import { ruleCatalogue } from '../../lib/spec/rule-catalogue.ts'
import { ROOT } from '../helpers/run-conform.ts'
import { DEFAULT_CONCURRENCY, limiter, runMutation, runVariant } from './matrix.ts'

const MIN_MUTATIONS_PER_RULE = 2
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/
// waiting for a turn counts against a test's timeout, so it is generous
const CASE_TIMEOUT_MS = 240_000
const limit = limiter(Number(process.env.MUTANTS_CONCURRENCY) || DEFAULT_CONCURRENCY)

describe('the mutation and variant tables', () => {
  const mustRules = ruleCatalogue().filter((r) => r.level === 'must')

  test(`every must-rule of spec/rules.yaml has at least ${MIN_MUTATIONS_PER_RULE} mutations that break it`, ({ expect }) => {
    const uncovered = mustRules
      .map((rule) => ({ id: rule.id, mutations: MUTATIONS.filter((m) => m.breaks === rule.id).length }))
      .filter((r) => r.mutations < MIN_MUTATIONS_PER_RULE)
    expect(uncovered, 'must-rules without enough mutations').toEqual([])
  })

  test('every mutation breaks a must-rule of the catalogue (an advisory rule never fails a run)', ({ expect }) => {
    const mustIds = new Set(mustRules.map((r) => r.id))
    expect(MUTATIONS.filter((m) => !mustIds.has(m.breaks)).map((m) => `${m.name} → ${m.breaks}`)).toEqual([])
  })

  test('names are kebab-case and unique across both tables, and every case says what it does', ({ expect }) => {
    const names = [...MUTATIONS, ...VARIANTS].map((c) => c.name)
    expect(names.filter((n) => !KEBAB.test(n))).toEqual([])
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([])
    for (const c of [...MUTATIONS, ...VARIANTS]) expect(c.description.length, c.name).toBeGreaterThan(15)
  })

  test('the table in README.md (Proof: mutations and variants) has a row for every case', ({ expect }) => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const section = readme.slice(readme.indexOf('## Proof: mutations and variants'), readme.indexOf('## Layout'))
    const missing = [...MUTATIONS, ...VARIANTS].filter((c) => !section.includes(`\n| ${c.name} |`)).map((c) => c.name)
    expect(missing, 'rows missing: run npm run mutants and paste its table').toEqual([])
    expect(section).toContain(`${MUTATIONS.length}/${MUTATIONS.length} mutations caught, ${VARIANTS.length}/${VARIANTS.length} conforming variants passed`)
  })
})

describe('mutations: conform exits 1 and fails the rule broken', () => {
  for (const mutation of MUTATIONS) {
    test.concurrent(
      `${mutation.name} → fails ${mutation.breaks}`,
      async ({ expect }) => {
        const outcome = await limit(() => runMutation(mutation))
        expect(outcome.code, outcome.output).toBe(1)
        expect(outcome.failedRules, outcome.output).toContain(mutation.breaks)
      },
      CASE_TIMEOUT_MS,
    )
  }
})

describe('conforming variants: conform exits 0', () => {
  for (const variant of VARIANTS) {
    test.concurrent(
      `${variant.name} → passes`,
      async ({ expect }) => {
        const outcome = await limit(() => runVariant(variant))
        expect(outcome.failedRules, outcome.output).toEqual([])
        expect(outcome.problems, outcome.output).toEqual([])
        expect(outcome.code, outcome.output).toBe(0)
      },
      CASE_TIMEOUT_MS,
    )
  }
})
