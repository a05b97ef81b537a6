/**
 * A baseline recorded by an earlier version may name a rule this one no longer has. It was refused
 * as "the unknown rule" (exit 2, before any request), which turned an upgrade's first run red and
 * read as the team's typo; a rule of lib/spec/retired-rules.ts is read, excuses nothing, is named
 * as retired in every report (never fixed), and --update-baseline drops it. A rule far from every
 * rule of the catalogue, which no version retired, is still refused, saying what it may be. The
 * table is empty in this version (no rule was retired yet): here it holds one, as the change that
 * retires a rule will.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { readBaseline } from '../../lib/config/baseline-file.ts'
import { applyBaseline, baselineLine, updatedBaseline } from '../../lib/result/baseline.ts'
import { markdownSummary } from '../../lib/reporters/markdown-summary.ts'
import { RETIRED_RULES } from '../../lib/spec/retired-rules.ts'
import { check, runResult } from '../reporters/fixture.ts'

// the table as the change that retires a rule leaves it (the test pool shares modules between files: no vi.mock)
const table = RETIRED_RULES as Record<string, string>
beforeAll(() => void (table['error-has-request-id'] = 'retired in 0.3.0, the sentence it rested on taken out of the interface document'))

const dir = mkdtempSync(join(tmpdir(), 'conform-retired-rule-'))
afterAll(() => {
  delete table['error-has-request-id']
  rmSync(dir, { recursive: true, force: true })
})

const OLD = { rule: 'error-has-request-id', code: 'SCHEMA_MISMATCH', observed: 'body lacks required property "requestId"', reason: 'API-9' }
const GATEWAY = { rule: 'auth-missing-key-401', code: 'UNEXPECTED_STATUS', observed: 'status 403', reason: 'OPS-112' }

test('an entry of a retired rule is read, excuses nothing, is named as retired (not fixed), and --update-baseline drops it', () => {
  const file = join(dir, 'old.json')
  writeFileSync(file, JSON.stringify({ knownFailures: [OLD, GATEWAY] }))
  const baseline = readBaseline(file, false)
  expect(baseline.knownFailures).toEqual([OLD, GATEWAY])
  const run = runResult((id) => [check(`${id} check`, id === 'auth-missing-key-401' ? 'fail' : 'pass', id === 'auth-missing-key-401' ? { failure: { code: 'UNEXPECTED_STATUS', message: 'answered 403', expected: 'status 401', actual: 'status 403', observed: 'status 403' } } : {})])
  const result = applyBaseline(run, baseline, file, '2026-06-01')
  expect(result.exitCode).toBe(0)
  expect(result.baseline!.retired).toEqual([OLD])
  expect(result.baseline!.fixed).toEqual([])
  const line = `Baseline ${file}: 1 known failure excused; 1 of a rule this version of the suite retired (error-has-request-id: retired in 0.3.0, the sentence it rested on taken out of the interface document): excusing nothing, remove it, or --update-baseline drops it`
  expect(baselineLine(result.baseline!)).toBe(line)
  expect(markdownSummary(result)).toContain('retired in 0.3.0')
  expect(updatedBaseline(result, baseline, '2026-06-01').knownFailures).toEqual([GATEWAY])
})

test('a rule far from every rule, which no version retired, is refused saying what it may be; one near a rule names it', () => {
  const file = join(dir, 'unknown.json')
  writeFileSync(file, JSON.stringify({ knownFailures: [{ ...OLD, rule: 'categories-paged' }] }))
  expect(() => readBaseline(file, false)).toThrow(/names the unknown rule "categories-paged", which this version of the suite \([^)]+\) does not have: a rule of another version \(the one that wrote the entry, or a later one\), or an id mistyped\. Remove the entry, or run the version that knows the rule; --list-rules prints the catalogue/)
  writeFileSync(file, JSON.stringify({ knownFailures: [{ ...GATEWAY, rule: 'auth-missing-key-410' }] }))
  expect(() => readBaseline(file, false)).toThrow('names the unknown rule "auth-missing-key-410" (did you mean auth-missing-key-401?); --list-rules prints the catalogue')
})
