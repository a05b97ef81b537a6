/**
 * What a confirmation attempt may write (lib/suite-kit/confirmation-writes.ts): the POSTs the
 * failures were found on, and a failed create's plain-ASCII control (its refusal, 400 or 413, is
 * judged by it), counted as one of that create's writes: without --max-writes, at most --confirm
 * more for each failed POST, whatever the others leave of the pool (review45).
 */
import { expect, test } from 'vitest'
import { confirmationRefusal, type ConfirmationWrites } from '../../lib/suite-kit/confirmation-writes.ts'

const writes = (probes: string[], confirm: number): ConfirmationWrites => ({
  probes: new Set(probes),
  left: confirm * probes.length,
  exhausted: `not confirmed: --confirm ${confirm} allows at most ${confirm} more for each failed POST, all sent`,
  notNeeded: 'not sent: confirming a failure needs only the POSTs it was found on',
  reprobesFailures: true,
  each: { most: confirm, sent: new Map() },
})

test("a failed create's control goes as one of its writes; past --confirm for that create it is kept back, though another failed POST left room", () => {
  const w = writes(['create-long', 'create-other'], 2)
  expect(confirmationRefusal(w, 'create-long')).toBeUndefined()
  expect(confirmationRefusal(w, 'create-long-same-size', 'create-long')).toBeUndefined()
  // the create's two are spent: neither it nor its control goes again, the other failed POST's two are left
  expect(confirmationRefusal(w, 'create-long')?.reason).toBe('write-budget')
  const control = confirmationRefusal(w, 'create-long-same-size', 'create-long')
  expect(control).toEqual({ reason: 'write-budget', detail: expect.stringMatching(/--confirm 2 allows at most 2 more for each failed POST, all sent \(a create refused 400 or 413 is judged by a create of plain ASCII of its sizes, which counts as one of them\)$/) })
  expect(w.left).toBe(2)
  expect(confirmationRefusal(w, 'create-other')).toBeUndefined()
})

test('a control of a create no failure was found on is not needed, nor is any other POST', () => {
  const w = writes(['create-other'], 2)
  expect(confirmationRefusal(w, 'create-long-same-size', 'create-long')?.reason).toBe('not-needed')
  expect(confirmationRefusal(w, 'create-long')?.reason).toBe('not-needed')
})
