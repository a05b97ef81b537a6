/**
 * A server that answered every request of the run with a server fault (a gateway with no healthy
 * upstream: 503 to everything) gets no re-probe (lib/runner/confirmation.ts), and its finding said
 * "not probed again (--confirm 0, the write budget or the deadline)" of a run that had none of the
 * three: the acceptance engineer looked for an option they had not set. It now says why.
 */
import { expect, test } from 'vitest'
import { faultGroups } from '../../lib/result/fault-groups.ts'
import { SERVED_NOTHING_WORDS } from '../../lib/result/served-nothing.ts'
import { check, exchange, runResult } from './fixture.ts'

const unavailable = (name: string, status = 503) =>
  check(name, 'fail', {
    exchanges: [exchange({}, status, '<h1>503 Service Temporarily Unavailable</h1>')],
    failure: { code: 'SERVER_ERROR', message: `answered ${status}`, expected: 'status 200', actual: `status ${status}` },
    recurrence: { attempts: 1, failures: 1, kind: 'unconfirmed' },
  })

test('every answer a 5xx, --confirm 2: the finding says the server answered nothing else, not --confirm 0, the write budget or the deadline', () => {
  const built = runResult((id) => [unavailable(`${id} check`)])
  const result = { ...built, options: { ...built.options, confirm: 2 } }
  const [fault] = faultGroups(result)
  expect(fault?.line).toMatch(/^unconfirmed: \d+ of \d+ requests answered 503 \(100 %\), across 21 rules; not probed again: /)
  expect(fault?.line.endsWith(`not probed again: ${SERVED_NOTHING_WORDS}`)).toBe(true)
  expect(fault?.line).not.toContain('--confirm 0')
})

test('--confirm 0, or a server that answered some request otherwise: the general words stay', () => {
  const built = runResult((id) => [unavailable(`${id} check`)])
  expect(faultGroups({ ...built, options: { ...built.options, confirm: 0 } })[0]?.line).toMatch(/not probed again \(--confirm 0, the write budget or the deadline\)$/)
  const mixed = runResult((id) => (id === 'list-returns-200' ? [unavailable(`${id} check`)] : [check(`${id} check`, 'pass')]))
  expect(faultGroups({ ...mixed, options: { ...mixed.options, confirm: 2 } })[0]?.line).toMatch(/not probed again \(--confirm 0, the write budget or the deadline\)$/)
})
