/**
 * One fault, one finding leans on other rules: created-in-list lets a field changed as the create's
 * answer showed it go (create-echoes-fields' finding), and an id two creates share (ids-unique's,
 * or create-returns-category's for an id the body sent). A run whose --rule selects the list rule
 * alone judges none of those: created-in-list and ids-unique then tell the fault themselves.
 * Before, --rule created-in-list passed a store that normalises names (listed changed), and
 * --rule ids-unique or created-in-list passed an ORM save() over the record whose id a body sent.
 */
import { afterAll, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import type { RunningServer } from '../../lib/server/reference-server.ts'
import { startCase, type Mutation } from '../../lib/server/server-cases.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { RUN_TIMEOUT_MS } from '../hostile/expect-run.ts'

const KEY = 'rule-alone-key-5d2e7a'
const servers: RunningServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((s) => s.close()))
})

async function conformAgainst(mutation: string, ...args: string[]): Promise<ConformRun> {
  const server = await startCase(MUTATIONS.find((m) => m.name === mutation) as Mutation, { apiKey: KEY })
  servers.push(server)
  const run = await runConformInProcess(['--base-url', server.baseUrl, ...args], { env: { CONFORM_API_KEY: KEY } })
  runs.push(run)
  return run
}

const failed = (run: ConformRun) => run.results!.rules.flatMap((r) => r.checks.filter((c) => c.status === 'fail').map((c) => `${r.id} ${c.failure?.code}`))

test.each([
  ['nfc-normalising-store', ['created-in-list'], 'created-in-list LISTED_FIELD_CHANGED'],
  ['existing-id-saves-as-update', ['ids-unique'], 'ids-unique DUPLICATE_ID'],
  ['existing-id-saves-as-update', ['created-in-list'], 'created-in-list LISTED_FIELD_CHANGED'],
  // create-echoes-fields judged: the change is its finding alone, the list's shared id still told here
  ['existing-id-saves-as-update', ['created-in-list', 'create-echoes-fields'], 'created-in-list LISTED_FIELD_CHANGED'],
])('%s with --rule %s alone fails %s', { timeout: RUN_TIMEOUT_MS }, async (mutation, rules, finding) => {
  const run = await conformAgainst(mutation, '--confirm', '0', ...rules.flatMap((r) => ['--rule', r]))
  expect(run.code, run.stdout).toBe(1)
  expect(failed(run)).toContain(finding)
})

test('nfc-normalising-store with --rule created-in-list and create-echoes-fields: one finding, the answer\'s', { timeout: RUN_TIMEOUT_MS }, async () => {
  const run = await conformAgainst('nfc-normalising-store', '--confirm', '0', '--rule', 'created-in-list', '--rule', 'create-echoes-fields')
  expect(run.code, run.stdout).toBe(1)
  expect([...new Set(failed(run).map((f) => f.split(' ')[0]))]).toEqual(['create-echoes-fields'])
})
