/**
 * A rule none of whose checks ran is reported under what kept it unverified: what the run met (a
 * server that stopped taking connections, a key refused, the deadline) before what the user
 * chose (the write budget), however many checks each left. Under --max-writes 10 against a server
 * that stopped as the run began, create-returns-201 read "over the write budget", as if more
 * writes would have judged it.
 */
import { expect, test } from 'vitest'
import { markdownSummary } from '../../lib/reporters/markdown-summary.ts'
import { htmlReport } from '../../lib/reporters/html-report.ts'
import { terminalSummary } from '../../lib/reporters/terminal-summary.ts'
import { notVerifiedByReason } from '../../lib/reporters/wording.ts'
import { check, runResult } from './fixture.ts'

const BUDGET = { cause: 'write-budget', skipReason: 'not verified: over the write budget (--max-writes 10)' } as const
const GONE = { cause: 'server-gone', skipReason: 'not verified: the server stopped taking connections from the first request of the run on' } as const

test('the server gone wins over the write budget, in the groups of every report and in results.json', () => {
  const result = runResult(
    (id) =>
      id === 'create-returns-201'
        ? [...Array.from({ length: 6 }, (_, i) => check(`over the budget ${i}`, 'skip', BUDGET)), check('sent, refused a connection', 'skip', GONE)]
        : [check(`${id} check`, 'pass')],
    { maxWrites: 10 },
  )
  const group = notVerifiedByReason(result).find((g) => g.rules.some((r) => r.id === 'create-returns-201'))
  expect(group?.cause).toBe('server-gone')
  expect(result.notVerified.find((r) => r.id === 'create-returns-201')).toEqual({ id: 'create-returns-201', cause: 'server-gone', reason: GONE.skipReason })
  expect(markdownSummary(result)).not.toMatch(/over the write budget[^\n]*create-returns-201/)
  // the rule's own line says what its group says
  expect(terminalSummary(result, [])).toMatch(/create-returns-201 +not verified: the server stopped taking connections/)
  expect(htmlReport(result)).toContain('Not verified: the server stopped taking connections')
  expect(htmlReport(result)).not.toContain('Not verified: over the write budget')
})

test('the write budget alone, or beside a cause the user chose, is what it was: the commonest', () => {
  const result = runResult(
    (id) => (id === 'create-returns-201' ? [check('over the budget', 'skip', BUDGET), check('over the budget 2', 'skip', BUDGET), check('not needed', 'skip', { cause: 'not-needed', skipReason: 'not needed' })] : [check(`${id} check`, 'pass')]),
    { maxWrites: 10 },
  )
  expect(notVerifiedByReason(result).find((g) => g.rules.some((r) => r.id === 'create-returns-201'))?.cause).toBe('write-budget')
  expect(result.notVerified.find((r) => r.id === 'create-returns-201')?.cause).toBe('write-budget')
})
