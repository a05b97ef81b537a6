/**
 * The adoption docs/adoption.md promises, end to end: a service known to leave `status` out of its
 * errors records its baseline; a deploy that also writes `code` as a number fails the gate, naming
 * the new problem. Before, the gate passed: Ajv stops at a body's first problem, which was still
 * the known one (test/reporters/baseline-every-problem.test.ts for the rules of it).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import type { Baseline } from '../../lib/result/baseline.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import type { Behaviour } from '../../lib/server/reference-server.ts'
import { startCase, type Mutation } from '../../lib/server/server-cases.ts'
import { runsWithKey } from '../helpers/run-conform.ts'
import { RUN_TIMEOUT_MS } from '../hostile/expect-run.ts'

const KEY = 'baseline-every-problem-key-81c4'
const { serve, conform } = runsWithKey(KEY)
const dir = mkdtempSync(join(tmpdir(), 'conform-baseline-every-problem-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const known = MUTATIONS.find((m) => m.name === 'error-without-status') as Mutation
/** The known deviation, and on a 400 `code` written as the status number (a handler that mixed the two up). */
const CODE_AS_NUMBER: Partial<Behaviour> = { errorBody: (status, code, message) => (status === 400 ? { code: status, message } : { code, message }) }

test('known to leave status out of its errors, a deploy that writes code as a number fails the gate', async () => {
  const file = join(dir, 'baseline.json')
  const rule = ['--rule', 'error-body-is-error-record']
  const recorded = await conform(serve(await startCase(known, { apiKey: KEY })), '--baseline', file, '--update-baseline', ...rule)
  expect(recorded.code, recorded.stdout).toBe(0)
  const same = await conform(serve(await startCase(known, { apiKey: KEY })), '--baseline', file, ...rule)
  expect(same.code, same.stdout).toBe(0)
  const deployed = await conform(serve(await startCase({ name: 'code-as-number', description: '', behaviour: CODE_AS_NUMBER }, { apiKey: KEY })), '--baseline', file, ...rule)
  expect(deployed.code, deployed.stdout).toBe(1)
  expect(deployed.stdout).toContain('actual:   body lacks required property "status"; body.code must be string')
  expect((JSON.parse(readFileSync(file, 'utf8')) as Baseline).knownFailures).toMatchObject([{ rule: 'error-body-is-error-record', observed: 'body lacks required property "status"', alsoObserved: [] }])
  expect(deployed.stdout).toContain('baseline: the body now shows body.code must be string, beside what an entry excuses')
}, RUN_TIMEOUT_MS)

test('a list known for ids as strings: every entry records what it observed, the list after the run\'s POSTs too', async () => {
  // that check words a broken list with the creates before it, and dropped observed doing so: its
  // entry then excused any SCHEMA_MISMATCH of it, whatever the list came to show
  const file = join(dir, 'list.json')
  const recorded = await conform(serve(await startCase(MUTATIONS.find((m) => m.name === 'list-ids-as-strings') as Mutation, { apiKey: KEY })), '--baseline', file, '--update-baseline')
  expect(recorded.code, recorded.stdout).toBe(0)
  const entries = (JSON.parse(readFileSync(file, 'utf8')) as Baseline).knownFailures.filter((e) => e.rule === 'list-returns-category-array')
  expect(entries.map((e) => [e.check ?? 'the rule', e.observed])).toEqual([['the rule', 'body[].id must be integer']])
}, RUN_TIMEOUT_MS)
