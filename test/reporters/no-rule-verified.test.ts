/**
 * A run that verified no rule (a --read-only run given only rules about creating) passed saying
 * "every must-rule that ran passed" in its terminal, summary.md and report.html, where the fleet's
 * page says "no rule verified" of the same run: the two disagreed, and the run's words read as a
 * pass of something. Its headline and last line say it verified none; one that verified some says
 * as before.
 */
import { expect, test } from 'vitest'
import { headline, verdictLine } from '../../lib/reporters/wording.ts'
import { check, runResult } from './fixture.ts'

const skipped = (name: string) => check(name, 'skip', { cause: 'read-only', skipReason: 'not verified: --read-only sends no request that could create a record' })

test('no rule verified: the headline and the verdict line say so, as the fleet\'s line does', () => {
  const none = runResult((id) => [skipped(`${id} check`)])
  expect(none.verdict).toBe('pass')
  expect(headline(none)).toMatch(/^PASS: no rule verified; \d+ rules not verified$/)
  expect(verdictLine(none)).toMatch(/^Verdict: PASS \(exit 0\): no rule verified; \d+ must-rules not verified \(listed above\)$/)
})

test('some verified: as before', () => {
  const some = runResult((id) => [id === 'list-returns-200' ? check(`${id} check`, 'pass') : skipped(`${id} check`)])
  expect(headline(some)).toMatch(/^PASS: every must-rule that ran passed; \d+ rules not verified$/)
  expect(verdictLine(some)).toMatch(/^Verdict: PASS \(exit 0\): every must-rule that ran passed; \d+ must-rules not verified \(listed above\)$/)
})
