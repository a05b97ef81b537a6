/**
 * The kill matrix's table is compared with docs/proof.md (kill-matrix.test.ts), so a row must not
 * hold what changes from run to run. create-answers-the-row-before-its-own answers each create the
 * record stored before its own: which create that was, and so the marker its words name ("its
 * "name" holds cf-RUN-plain", or "its "description" holds cf-RUN-short-name"), is arrival order.
 */
import { describe, expect, test } from 'vitest'
import { formatMatrix, matrixReport, type MutationOutcome } from './matrix.ts'

const held = (field: string, marker: string): MutationOutcome => ({
  name: 'create-answers-the-row-before-its-own',
  breaks: 'create-echoes-fields',
  code: 'FIELD_CHANGED',
  caught: true,
  exitCode: 1,
  failedRules: ['create-echoes-fields'],
  warnedRules: [],
  problems: [],
  failures: [{ rule: 'create-echoes-fields', check: 'c', code: 'FIELD_CHANGED', message: `the created record changed "name"; the answer is another create's record (its "${field}" holds ${marker}, which this body did not send): answer the row of the insert's own id` }],
  durationMs: 1,
  output: '',
})

const row = (outcome: MutationOutcome) => formatMatrix(matrixReport([outcome], [], 0)).split('\n').find((line) => line.startsWith(`| ${outcome.name} `))

describe("a create answered with another create's record", () => {
  test('the row is the same whichever create was stored before it', () => {
    const rows = [held('name', 'cf-ab12c-plain'), held('description', 'cf-x9y8z-short-name'), held('name', 'cf-00000-p')].map(row)
    expect(new Set(rows).size, rows.join('\n')).toBe(1)
    expect(rows[0]).toContain(`the answer is another create's record (its "…" holds cf-RUN-…, which this body did not send)`)
  })
})
