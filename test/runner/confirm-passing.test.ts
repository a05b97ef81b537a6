/**
 * --confirm on a run that failed no check (lib/runner/confirmation.ts): nothing is sent again, and
 * nothing is worked out for it either. Each deployment of a fleet read its whole journal and asked
 * every exchange of its checks whether a front (a gateway, a bot check) had answered it, to probe
 * again no failure at all.
 */
import { expect, test } from 'vitest'
import { confirmFailures } from '../../lib/runner/confirmation.ts'
import type { RunScope } from '../../lib/suite-kit/run-context.ts'
import { check } from '../reporters/fixture.ts'

test('a run whose checks passed, were skipped or noted: its journal is not read, its evidence not looked at, its results left as they were', async () => {
  const results = [check('a', 'pass'), check('b', 'skip'), check('c', 'warn')].map((result, index) => ({ index, result, ruleId: 'list-returns-200' }))
  const before = JSON.stringify(results)
  let journalRead = 0
  let evidenceRead = 0
  // each check's exchanges, counted as they are read
  for (const { result } of results) {
    const exchanges = result.exchanges
    Object.defineProperty(result, 'exchanges', { get: () => (evidenceRead++, exchanges), enumerable: true })
  }
  await confirmFailures(results, [], {} as RunScope, { attempts: 2, selected: [], stopped: () => false, journal: () => (journalRead++, []) })
  expect({ journalRead, evidenceRead }).toEqual({ journalRead: 0, evidenceRead: 0 })
  expect(JSON.stringify(results)).toBe(before)
})
