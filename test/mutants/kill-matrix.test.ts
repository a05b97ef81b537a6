/**
 * Proof that the checks work both ways: every mutation of the reference server makes the real
 * `npm run conform` exit 1 with the rule it breaks failed for the reason it declares (its code), and every conforming
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
import { isFailureCode } from '../../lib/spec/failure-codes.ts'
import { once } from '../../lib/suite-kit/check.ts'
import { DEFAULT_CONCURRENCY, formatMatrix, limiter, matrixReport, PROOF_PAGE, readmeMatrix, runMutation, runVariant, slowestFirst } from './matrix.ts'

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
    // a combination of variants (lib/server/variants/combinations.ts) is named by its parts, a+b, each a variant of the table
    const wellNamed = (n: string) => KEBAB.test(n) || (VARIANTS.some((v) => v.name === n) && n.split('+').every((part) => KEBAB.test(part) && VARIANTS.some((v) => v.name === part)))
    expect(names.filter((n) => !wellNamed(n))).toEqual([])
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([])
    for (const c of [...MUTATIONS, ...VARIANTS]) expect(c.description.length, c.name).toBeGreaterThan(15)
  })

  test('every mutation pins a failure code of lib/spec/failure-codes.ts', ({ expect }) => {
    expect(MUTATIONS.filter((m) => !isFailureCode(m.code)).map((m) => `${m.name} → ${m.code}`)).toEqual([])
  })
})

// each case runs once, however many tests read its outcome
const mutationOutcomes = new Map(MUTATIONS.map((m) => [m.name, once(() => limit(() => runMutation(m)))]))
const variantOutcomes = new Map(VARIANTS.map((v) => [v.name, once(() => limit(() => runVariant(v)))]))

// the variants first, and of each table those whose runs wait for seconds first of all
const SLOWEST_FIRST = slowestFirst(VARIANTS)
const SLOWEST_MUTATIONS_FIRST = slowestFirst(MUTATIONS)

describe('conforming variants: conform exits 0', () => {
  for (const variant of SLOWEST_FIRST) {
    test.concurrent(
      `${variant.name} → passes`,
      async ({ expect }) => {
        const outcome = await variantOutcomes.get(variant.name)!()
        expect(outcome.failedRules, outcome.output).toEqual([])
        expect(outcome.problems, outcome.output).toEqual([])
        expect(outcome.exitCode, outcome.output).toBe(0)
      },
      CASE_TIMEOUT_MS,
    )
  }
})

describe('mutations: conform exits 1 and fails the rule broken, for the reason declared', () => {
  for (const mutation of SLOWEST_MUTATIONS_FIRST) {
    test.concurrent(
      `${mutation.name} → fails ${mutation.breaks} with ${mutation.code}`,
      async ({ expect }) => {
        const outcome = await mutationOutcomes.get(mutation.name)!()
        expect(outcome.exitCode, outcome.output).toBe(1)
        expect(outcome.failedRules, outcome.output).toContain(mutation.breaks)
        const codes = outcome.failures.filter((f) => f.rule === mutation.breaks).map((f) => f.code)
        expect(codes, outcome.output).toContain(mutation.code)
        // a fault on one request in N is confirmed intermittent; one on every request, deterministic
        if (mutation.recurrence) {
          const kinds = outcome.failures.filter((f) => f.rule === mutation.breaks && f.code === mutation.code).map((f) => f.recurrence)
          expect(kinds, outcome.output).toContain(mutation.recurrence)
        }
      },
      CASE_TIMEOUT_MS,
    )
  }
})

describe(PROOF_PAGE, () => {
  // the table is written by `npm run mutants`; this proves it is the one these very runs produce
  test.concurrent(
    'the kill-matrix table (Proof: mutations and variants) is what the matrix measured',
    async ({ expect }) => {
      const mutations = await Promise.all([...mutationOutcomes.values()].map((outcome) => outcome()))
      const variants = await Promise.all([...variantOutcomes.values()].map((outcome) => outcome()))
      const measured = formatMatrix(matrixReport(mutations, variants, 0))
      const readme = readFileSync(join(ROOT, PROOF_PAGE), 'utf8')
      expect(readmeMatrix(readme), `the table of ${PROOF_PAGE} is stale: run npm run mutants, which rewrites it`).toBe(measured)
    },
    CASE_TIMEOUT_MS * 2,
  )
})
