/**
 * A body of another shape shows every problem it has to the baseline, not only Ajv's first: an
 * entry records the others (`alsoObserved`, [] for none), and excuses a body only while it shows no
 * problem beyond those. Before, a service known to leave `status` out of its errors whose next
 * deploy wrote `code` as a number (or a list known for ids as strings whose descriptions became
 * null) passed its gate: the first problem was still the known one. An entry without them
 * (written by hand: `observed` alone) names that problem alone, the one its writer knew; it excused
 * a body whose first problem it was, whatever else the body showed. An entry written by hand without `observed` that excused several answers gets one entry
 * for each, not the first answer alone (the others went red on the next run).
 */
import { describe, expect, test } from 'vitest'
import { ConformanceFailure, type FailureDetail } from '../../lib/checks/failure.ts'
import { expectSchema } from '../../lib/checks/schema.ts'
import { applyBaseline, updatedBaseline, type BaselineEntry } from '../../lib/result/baseline.ts'
import { makeResponse } from '../checks/make-response.ts'
import { check, runResult } from './fixture.ts'

const TODAY = '2026-06-01'
const RULE = 'error-body-is-error-record'

/** The failure expectSchema gives a body. */
function schemaFailure(schema: 'Error' | 'CategoryList', body: unknown): FailureDetail {
  try {
    expectSchema(makeResponse({ status: 400, body }), schema)
  } catch (error) {
    if (error instanceof ConformanceFailure) return error.detail()
    throw error
  }
  throw new Error('the body conforms')
}

const noStatus = schemaFailure('Error', { code: 'invalid', message: 'name is required' })
const noStatusCodeNumber = schemaFailure('Error', { code: 400, message: 'name is required' })
const problemDetails = schemaFailure('Error', { type: 'about:blank', title: 'Bad Request', status: 400 })

const deployed = (...failures: FailureDetail[]) =>
  runResult((id) => (id === RULE ? failures.map((failure, i) => check(`POST /categories, case ${i + 1} → the error body is an Error record`, 'fail', { failure })) : [check(`${id} check`, 'pass')]))
const recorded = (...failures: FailureDetail[]) => updatedBaseline(deployed(...failures), { knownFailures: [] }, TODAY)

describe("a body's every problem", () => {
  test('the failure records the problems beside the first, each once, as observed words them', () => {
    expect([noStatus.observed, noStatus.alsoObserved]).toEqual(['body lacks required property "status"', []])
    expect([noStatusCodeNumber.observed, noStatusCodeNumber.alsoObserved]).toEqual(['body lacks required property "status"', ['body.code must be string']])
    expect(noStatusCodeNumber.actual).toBe('body lacks required property "status"; body.code must be string')
    expect([problemDetails.observed, problemDetails.alsoObserved]).toEqual(['body lacks required property "code"', ['body lacks required property "message"']])
    // a list: the least first problem, and the others of every record, without their index
    const list = schemaFailure('CategoryList', [{ id: '1', name: 'a', description: null }, { id: '2', name: 'b' }])
    expect([list.observed, list.alsoObserved]).toEqual(['body[].id must be integer', ['body[].description must be string']])
  })

  test('known to lack status, a deploy that writes code as a number fails the run, the new problem named first', () => {
    const baseline = recorded(noStatus, noStatus)
    expect(baseline.knownFailures).toMatchObject([{ rule: RULE, observed: 'body lacks required property "status"', alsoObserved: [] }])
    expect(applyBaseline(deployed(noStatus, noStatus), baseline, 'b.json', TODAY).exitCode).toBe(0)
    const result = applyBaseline(deployed(noStatus, noStatusCodeNumber), baseline, 'b.json', TODAY)
    expect(result.exitCode).toBe(1)
    const checks = result.rules.find((r) => r.id === RULE)!.checks
    expect(checks.map((c) => c.status)).toEqual(['warn', 'fail'])
    expect(checks[1]!.baselineNote).toMatch(/^the body now shows body\.code must be string, beside what an entry excuses for SCHEMA_MISMATCH as body lacks required property "status"/)
  })

  test('known with two problems: the same two pass, one of them fixed passes, a third fails', () => {
    const baseline = recorded(noStatusCodeNumber, noStatusCodeNumber)
    expect(applyBaseline(deployed(noStatusCodeNumber, noStatusCodeNumber), baseline, 'b.json', TODAY).exitCode).toBe(0)
    expect(applyBaseline(deployed(noStatusCodeNumber, noStatus), baseline, 'b.json', TODAY).exitCode).toBe(0)
    const third = schemaFailure('Error', { code: 400, message: 7 })
    expect(applyBaseline(deployed(noStatusCodeNumber, third), baseline, 'b.json', TODAY).exitCode).toBe(1)
  })

  test('an entry written by hand without alsoObserved names its observed alone: a body that shows it and another problem fails, the other named', () => {
    const byHand: BaselineEntry = { rule: RULE, code: 'SCHEMA_MISMATCH', observed: 'body lacks required property "status"', reason: 'OPS-9: no status yet', expires: '2099-01-31' }
    expect(applyBaseline(deployed(noStatus, noStatus), { knownFailures: [byHand] }, 'b.json', TODAY).exitCode).toBe(0)
    const result = applyBaseline(deployed(noStatus, noStatusCodeNumber), { knownFailures: [byHand] }, 'b.json', TODAY)
    expect(result.exitCode).toBe(1)
    const checks = result.rules.find((r) => r.id === RULE)!.checks
    expect(checks.map((c) => c.status)).toEqual(['warn', 'fail'])
    expect(checks[1]!.baselineNote).toMatch(/^the body now shows body\.code must be string, beside what an entry excuses for SCHEMA_MISMATCH as body lacks required property "status": .*names no other problem \(no alsoObserved\)/)
    expect(result.baseline!.changed).toBeUndefined()
    expect(result.baseline!.fixed).toEqual([])
    // its observed written as a problem other than the body's first: the first is the one not excused
    const second: BaselineEntry = { rule: RULE, code: 'SCHEMA_MISMATCH', observed: 'body.code must be string', reason: 'OPS-10' }
    const note = applyBaseline(deployed(noStatusCodeNumber), { knownFailures: [second] }, 'b.json', TODAY).rules.find((r) => r.id === RULE)!.checks[0]!.baselineNote
    expect(note).toMatch(/^the body now shows body lacks required property "status", beside/)
  })

  test('an entry without alsoObserved that excused bodies of its one problem: --update-baseline writes alsoObserved [] and keeps its reason', () => {
    const older: BaselineEntry = { rule: RULE, code: 'SCHEMA_MISMATCH', observed: 'body lacks required property "status"', reason: 'OPS-9: no status yet', expires: '2099-01-31' }
    const updated = updatedBaseline(deployed(noStatus, noStatus), { knownFailures: [older] }, TODAY)
    expect(updated.knownFailures).toEqual([{ ...older, alsoObserved: [] }])
    // one that did not excuse a body of two problems is replaced deliberately, its reason asked again and the old one quoted
    const accepted = updatedBaseline(deployed(problemDetails, problemDetails), { knownFailures: [{ ...older, observed: 'body lacks required property "code"' }] }, TODAY)
    expect(accepted.knownFailures).toMatchObject([{ observed: 'body lacks required property "code"', alsoObserved: ['body lacks required property "message"'], reason: expect.stringContaining('"OPS-9: no status yet"') }])
    expect(applyBaseline(deployed(problemDetails, problemDetails), accepted, 'b.json', TODAY).exitCode).toBe(0)
  })

  test('an entry of the rule without observed (written by hand) that excused two answers: --update-baseline writes one for each, and the next run passes', () => {
    const byHand: BaselineEntry = { rule: RULE, code: 'SCHEMA_MISMATCH', reason: 'GW-3: the gateway writes its own errors' }
    const run = deployed(noStatus, problemDetails, noStatus)
    expect(applyBaseline(run, { knownFailures: [byHand] }, 'b.json', TODAY).exitCode).toBe(0)
    const updated = updatedBaseline(run, { knownFailures: [byHand] }, TODAY)
    expect(updated.knownFailures).toEqual([
      { ...byHand, observed: 'body lacks required property "status"', alsoObserved: [] },
      { ...byHand, observed: 'body lacks required property "code"', alsoObserved: ['body lacks required property "message"'] },
    ])
    const again = applyBaseline(run, updated, 'b.json', TODAY)
    expect(again.exitCode).toBe(0)
    expect(again.baseline!.known).toHaveLength(3)
  })
})
